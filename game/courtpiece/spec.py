"""Court Piece at the live tables: its registration (``COURTPIECE``), the one place where
the shared table code learns how to build, play, record and draw this game.

A table's ``options`` are the engine's keyword options for its variant plus
``bot_level`` (``game.bots.courtpiece.LEVELS``: "easy", "medium", the default, or
"hard"), the level of every bot move at the table, also one played for a player whose
timer ran out or who is away. ``bot_level`` is the table's, never passed to the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.courtpiece import (
    analysis,
    knowable,
    levels,
    render,
    seats,
    thinking,
    urls,
    variants,
    views,
)
from game.courtpiece.levels import bot_level, engine_options
from game.engine import courtpiece as cp
from game.engine.protocol import GameState
from game.tables.registry import GamePages, GameSpec


def _check(variant: str, options: dict[str, Any], target: int | None) -> None:
    bot_level(options)
    cp.Rules(variant, **engine_options(options))  # ValueError naming the bad option or value
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 500
    ):
        raise ValueError(f"target must be a whole number from 1 to 500, not {target!r}")


def _build(
    variant: str,
    options: dict[str, Any],
    target: int | None,
    top: str,
    client_seeds: Sequence[str],
    chain: int,
    first_hand: tuple[int, Sequence[Sequence[str]]] | None = None,
) -> GameState:
    return cp.Match(
        cp.Rules(variant, **engine_options(options)), seed=top, client_seeds=client_seeds,
        target=target, chain=chain, first_hand=first_hand,
    )


def _build_with_deal(
    variant: str,
    options: dict[str, Any],
    target: int | None,
    top: str,
    client_seeds: Sequence[str],
    chain: int,
    dealer: int,
    deal: Sequence[Sequence[str]],
) -> GameState:
    return _build(variant, options, target, top, client_seeds, chain, (dealer, deal))


def _trick_just_won(match: Any) -> bool:
    hand = getattr(match, "hand", None)
    return bool(
        hand is not None and not hand.is_over and not hand.trick and hand.trick_count > 0
    )


def _hand_just_ended(match: Any) -> bool:
    hand = getattr(match, "hand", None)
    return bool(match.hands) and hand is not None and not hand.history


def _timeout(match: Any) -> str | None:
    return "timeout" if match.hand.timeout_legal else None


def _bot(match: Any, seat: int, options: dict[str, Any]) -> str:
    """The bot's action at the table's level (``thinking``: "hard" in worker processes;
    this blocks the calling thread, one of the clock's, never an event loop)."""
    return thinking.choose(match.view(seat), bot_level(options))


COURTPIECE = GameSpec(
    name="courtpiece",
    seats=4,
    variants=tuple(cp.VARIANTS),
    default_variant="rung",
    # Rung to 52 points with redeals is the longest match; 400 deals is far beyond it and
    # costs well under a millisecond to hash.
    chain_length=400,
    check=_check,
    build=_build,
    teams=((0, 2), (1, 3)),
    winner=lambda match: int(match.winner),
    timeout_action=_timeout,
    trick_just_won=_trick_just_won,
    hand_just_ended=_hand_just_ended,
    rating_game=lambda variant: variant,  # each variant is rated on its own
    finished=lambda match: match.hands,
    hands_over=lambda match: len(match.hands),
    record=cp.to_record,
    bot=_bot,
    build_with_deal=_build_with_deal,
    deal_of=lambda hand: (int(hand.dealer), hand.deal),
    analyse=analysis.analyse,
    analysis_words=analysis.analysis_words,
    knowable=knowable.verdicts,
    pages=GamePages(
        title=variants.title,
        frame_html=render.frame_html,
        table_template="courtpiece/table.html",
        options_text=views.options_text,
        replay=views.replay_page,
        play_now_button="courtpiece/lobby_play_now.html",
        new_table_button="courtpiece/lobby_new_table.html",
        new_table_url="game:new",
        routes=urls.routes,
        last_hand=views.last_hand,
        seat_offers=seats.seat_offers,
        bot_levels=levels.choices,
        default_bot_level=levels.DEFAULT_BOT_LEVEL,
    ),
)
