"""The one place that knows which engine a table's `game` is played with.

Each entry says how to check a table's settings, how to build the starting state (a
``game.engine.protocol.GameState``) from the stored table fields, how many seats there
are and who won. Backgammon (issue #10) is one more entry here (its pieces are in
``game.bgtable``); nothing else in the live-table code names an engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game import bgtable, bots
from game.engine import courtpiece as cp
from game.engine.protocol import GameState


@dataclass(frozen=True)
class GameSpec:
    name: str
    seats: int
    variants: tuple[str, ...]
    default_variant: str
    chain_length: int  # seeds in the fairness chain: more than a match can use
    # (variant, options, target) -> None, or ValueError saying what is wrong
    check: Callable[[str, dict[str, Any], int | None], None]
    # (variant, options, target, seed_top, client_seeds, chain_length) -> starting state
    build: Callable[[str, dict[str, Any], int | None, str, Sequence[str], int], GameState]
    # seat lists per team, in team order (record_result's `teams`)
    teams: tuple[tuple[int, ...], ...]
    # the winning team of a finished state
    winner: Callable[[Any], int]
    # the clock's action for the seat to move when a rule gives a timeout a meaning
    timeout_action: Callable[[Any], str | None]
    # the rating family recorded in accounts (accounts.games.GAME_CODES)
    rating_game: Callable[[str], str]
    # hands (or games) finished so far, oldest first, and the record of one
    finished: Callable[[Any], Sequence[Any]]
    record: Callable[[Any], str]
    # (finished, counter) -> more fields for `GET …/record` (backgammon: dice, .mat)
    record_extra: Callable[[Sequence[Any], int], dict[str, Any]] = lambda finished, n: {}
    # (length, target) as a client sends them -> the stored Table.target, or ValueError
    table_target: Callable[[Any, Any], int | None] = lambda length, target: _no_length(
        length, target
    )
    # whether Table.target holds the protocol's `length` (backgammon) or a match target
    target_is_length: bool = False
    # (state, seat, table options) -> the bot's action; None: game.bots.choose
    bot: Callable[[Any, int, dict[str, Any]], str] | None = None
    # state -> whether its last action completed a trick (a bot then waits a moment
    # longer before leading, so people see who won it: TABLES_TRICK_PAUSE)
    trick_just_won: Callable[[Any], bool] = lambda state: False
    # state -> whether a hand (or game) has just ended and the next has not begun: a bot
    # then waits TABLES_HAND_PAUSE, so people can read the result first
    hand_just_ended: Callable[[Any], bool] = lambda state: False
    # build's arguments plus (dealer, deal): a starting state whose first hand is that
    # deal, played again (services.play_deal_again); None: the game cannot replay a deal
    build_with_deal: (
        Callable[
            [str, dict[str, Any], int | None, str, Sequence[str], int, int,
             Sequence[Sequence[str]]],
            GameState,
        ]
        | None
    ) = None
    # a finished hand -> (dealer, deal as received per seat), for build_with_deal
    deal_of: Callable[[Any], tuple[int, list[list[str]]]] | None = None

    def bot_action(self, state: Any, seat: int, options: dict[str, Any] | None = None) -> str:
        if self.bot is not None:
            return self.bot(state, seat, dict(options or {}))
        return bots.choose(self.name, state.view(seat))

    def length(self, target: int | None) -> int:
        """The protocol's ``length`` of a table (0 where the game has none)."""
        return (target or 0) if self.target_is_length else 0


def _no_length(length: Any, target: Any) -> Any:
    if isinstance(length, bool) or not isinstance(length, int) or length != 0:
        raise ValueError("length is not an option of courtpiece")
    return target


def _cp_check(variant: str, options: dict[str, Any], target: int | None) -> None:
    cp.Rules(variant, **options)  # raises ValueError naming the bad option or value
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 500
    ):
        raise ValueError(f"target must be a whole number from 1 to 500, not {target!r}")


def _cp_build(
    variant: str,
    options: dict[str, Any],
    target: int | None,
    top: str,
    client_seeds: Sequence[str],
    chain: int,
    first_hand: tuple[int, Sequence[Sequence[str]]] | None = None,
) -> GameState:
    return cp.Match(
        cp.Rules(variant, **options), seed=top, client_seeds=client_seeds, target=target,
        chain=chain, first_hand=first_hand,
    )


def _cp_build_with_deal(
    variant: str,
    options: dict[str, Any],
    target: int | None,
    top: str,
    client_seeds: Sequence[str],
    chain: int,
    dealer: int,
    deal: Sequence[Sequence[str]],
) -> GameState:
    return _cp_build(variant, options, target, top, client_seeds, chain, (dealer, deal))


def _cp_trick_just_won(match: Any) -> bool:
    hand = getattr(match, "hand", None)
    return bool(
        hand is not None and not hand.is_over and not hand.trick and hand.trick_count > 0
    )


def _cp_hand_just_ended(match: Any) -> bool:
    hand = getattr(match, "hand", None)
    return bool(match.hands) and hand is not None and not hand.history


def _cp_timeout(match: Any) -> str | None:
    return "timeout" if match.hand.timeout_legal else None


COURTPIECE = GameSpec(
    name="courtpiece",
    seats=4,
    variants=tuple(cp.VARIANTS),
    default_variant="rung",
    # Rung to 52 points with redeals is the longest match; 400 deals is far beyond it and
    # costs well under a millisecond to hash.
    chain_length=400,
    check=_cp_check,
    build=_cp_build,
    teams=((0, 2), (1, 3)),
    winner=lambda match: int(match.winner),
    timeout_action=_cp_timeout,
    trick_just_won=_cp_trick_just_won,
    hand_just_ended=_cp_hand_just_ended,
    rating_game=lambda variant: variant,
    finished=lambda match: match.hands,
    record=cp.to_record,
    build_with_deal=_cp_build_with_deal,
    deal_of=lambda hand: (int(hand.dealer), hand.deal),
)

BACKGAMMON = GameSpec(
    name="backgammon",
    seats=2,
    variants=(bgtable.VARIANT,),
    default_variant=bgtable.VARIANT,
    chain_length=bgtable.CHAIN_LENGTH,
    check=bgtable.check,
    build=bgtable.build,
    teams=((0,), (1,)),
    winner=bgtable.winner,
    timeout_action=bgtable.timeout_action,
    rating_game=lambda variant: "backgammon",  # accounts.games.BACKGAMMON
    finished=bgtable.finished,
    record=bgtable.record,
    record_extra=bgtable.record_extra,
    table_target=bgtable.table_target,
    target_is_length=True,
    bot=bgtable.bot_action,
)

GAMES: dict[str, GameSpec] = {COURTPIECE.name: COURTPIECE, BACKGAMMON.name: BACKGAMMON}


def spec(game: str) -> GameSpec:
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}") from None
