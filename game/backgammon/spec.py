"""Backgammon at the live tables: its registration (``BACKGAMMON``), what it plugs into the
shared table machinery (game.tables). Nothing here stores, sends or times anything.

A table's settings:

* ``options``: the fields of ``bg.Rules`` (``cube``, ``jacoby``, ``beaver``, ``crawford``,
  ``auto_doubles``, ``start``) and ``bot_level`` (``bgbot.LEVELS``: "beginner",
  "intermediate" = 0-ply, the default, "expert" = 2-ply; the level of every bot move at
  the table, also one played for a player whose timer ran out). Stored as given (the
  names of before, "easy" and "medium", are read through ``bgbot.ALIASES``); ``bot_level``
  is not passed to the engine.
* ``length`` (docs/TABLE_PROTOCOL.md): 0 for a money game, 1..25 for a match to that many
  points. It is stored in ``Table.target`` (the match target of Court Piece), so no new
  column is needed; ``table_info`` shows it as ``length`` as well.

Fairness is the table's hash chain (``fair.chain(seed_top, chain_length)``): a money game
throws from the chain's first seed, game k of a match from seed k (``bg.Match(chain=N)``).
Either way the view's fairness block commits to the chain's first seed, which is the
table's ``commitment``, and game k's seed is revealed the moment game k ends.

The bot (``game.backgammon.bot``) runs gnubg in worker processes; ``bot_action`` blocks
the calling thread (one of the clock's bot threads, never an event loop) while a worker
decides, and a failed worker costs a fallback move, logged.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from game.backgammon import analysis, matfile, render, urls, views
from game.backgammon import bot as bgbot
from game.backgammon.words import level_name
from game.engine import backgammon as bg
from game.engine import fair
from game.engine.protocol import GameState
from game.tables.registry import GamePages, GameSpec

log = logging.getLogger(__name__)

VARIANT = "backgammon"  # no variants: the one name is also the rating code
MAX_LENGTH = 25
# A match to 25 points takes at most 2 * 25 - 1 games; each game has its own seed.
CHAIN_LENGTH = 2 * MAX_LENGTH - 1
RULE_OPTIONS = tuple(f.name for f in dataclasses.fields(bg.Rules))
BOT_LEVELS = bgbot.LEVELS  # ("beginner", "intermediate", "expert")
DEFAULT_BOT_LEVEL = bgbot.DEFAULT_LEVEL
OPTIONS = (*RULE_OPTIONS, "bot_level")


# ---------------------------------------------------------------------------- settings
def table_target(length: Any, target: Any) -> int:
    """The protocol's ``length`` as the table stores it (``Table.target``)."""
    if target is not None:
        raise ValueError("target is not an option of backgammon: give length (0 = money)")
    if isinstance(length, bool) or not isinstance(length, int) or not (
        0 <= length <= MAX_LENGTH
    ):
        raise ValueError(
            f"length must be 0 (a money game) or a match of 1 to {MAX_LENGTH} points, "
            f"not {length!r}"
        )
    return length


def rules(options: dict[str, Any]) -> bg.Rules:
    """The engine's rules from a table's options (ValueError naming a bad option)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown option {unknown[0]!r} for backgammon; choose from {', '.join(OPTIONS)}"
        )
    return bg.Rules(**{k: v for k, v in options.items() if k in RULE_OPTIONS})


def bot_level(options: dict[str, Any]) -> str:
    """The table's bot level (an old name read as its new one); ValueError naming the
    option for anything else."""
    return bgbot.level_of(options.get("bot_level", DEFAULT_BOT_LEVEL))


def check(variant: str, options: dict[str, Any], target: int | None) -> None:
    length = 0 if target is None else target
    table_target(length, None)
    rule_set = rules(options)
    bot_level(options)
    if length and (rule_set.jacoby or rule_set.beaver or rule_set.auto_doubles):
        raise ValueError("options jacoby, beaver and auto_doubles are for money games (length 0)")
    if length and rule_set.start != "standard":
        # Allowed by the engine, but a match would then have no .mat export; keep it out of
        # matches until the replay page can show such a match some other way.
        raise ValueError("option start must be 'standard' in a match (length 1 or more)")


def build(
    variant: str,
    options: dict[str, Any],
    target: int | None,
    top: str,
    client_seeds: Sequence[str],
    chain: int,
) -> GameState:
    rule_set = rules(options)
    if not target:
        # A money game is one game: it throws from the chain's first seed, whose hash is
        # the table's commitment, so its fairness block reads like a match's.
        first = fair.chain(top, chain)[0]
        return bg.Game(rule_set, seed=first, client_seeds=client_seeds)
    return bg.Match(target, rule_set, seed=top, client_seeds=client_seeds, chain=chain)


# ---------------------------------------------------------------------------- the game
def winner(state: Any) -> int:
    if isinstance(state, bg.Match):
        assert state.winner is not None
        return state.winner
    assert state.result is not None
    return int(state.result.winner)


def timeout_action(state: Any) -> str | None:
    # No rule gives a timeout a meaning in backgammon (unlike CP-SS-4's calling timer): the
    # per-move timer plays the bot's choice for the player (``bot_action``).
    return None


def bot_action(state: Any, seat: int, options: dict[str, Any]) -> str:
    """The bot's action for ``seat`` at the table's level. Never raises for gnubg: a
    failed worker gives the fallback move (``Decision.source == "fallback"``), logged."""
    decision = bgbot.decide(state.view(seat), bot_level(options))
    if decision.source != "gnubg":
        log.warning("gnubg was unavailable: played the fallback %r", decision.action)
    return decision.action


# ---------------------------------------------------------------------------- records
def finished(state: Any) -> list[bg.Game]:
    """Every finished game, oldest first, as its final ``bg.Game``."""
    if isinstance(state, bg.Game):
        return [state] if state.is_over else []
    games = _games(state)
    return games[: len(state.games)]


def games_over(state: Any) -> int:
    """How many games are over (cheap: ``finished`` without replaying them)."""
    if isinstance(state, bg.Game):
        return 1 if state.is_over else 0
    return len(state.games)


def _games(match: bg.Match) -> list[bg.Game]:
    """Replay the match from its start (its fields say how it was built)."""
    start = bg.Match(
        match.length, match.rules, seed=match.seed, client_seeds=match.client_seeds,
        chain=match.chain,
    )
    return matfile.match_games(start, [a for _g, _s, a in match.game_history])


def throws(game: bg.Game) -> list[list[int]]:
    """Every throw of the game in the order the dice were drawn: index n is
    ``fair.dice(server_seed, client_seeds, n)`` (opening throws first, equal ones
    included, then one per roll)."""
    out = [list(d) for d in game.opening]
    out += [list(d) for _seat, d in game.rolls[1:]]
    return out


def record(game: bg.Game) -> str:
    """The plain-text record of one finished game: its settings, every throw with its
    counter, then every action, one a line (seat: action)."""
    result = game.result
    lines = [
        "game: backgammon",
        f"length: {game.length}",
        f"score: {game.score[0]}-{game.score[1]}",
        f"crawford: {'yes' if game.crawford_game else 'no'}",
        "rules: " + " ".join(f"{k}={v}" for k, v in dataclasses.asdict(game.rules).items()),
    ]
    for n, (a, b) in enumerate(throws(game)):
        lines.append(f"throw {n}: {a}-{b}")
    for seat, action in game.history:
        lines.append(f"seat {seat}: {action}")
    if result is not None:
        lines.append(
            f"result: seat {result.winner} wins {result.points} "
            f"({result.kind}, {result.how}, cube {result.cube})"
        )
    return "\n".join(lines) + "\n"


def record_extra(games: Sequence[bg.Game], counter: int) -> dict[str, Any]:
    """What ``GET …/record?hand=N`` adds for backgammon: ``dice`` (every throw of game N,
    index = fair's counter) and ``mat``, the Jellyfish .mat text of games 1..N of the
    match (for ``N`` = the last finished game, the whole match so far; a money game is
    its one game), or None where the format cannot say it (a Nackgammon start)."""
    game = games[counter]
    try:
        mat: str | None = matfile.export(
            list(games[: counter + 1]), length=game.length, comments=[("Site", "Baithak")]
        )
    except ValueError:
        mat = None
    return {"dice": throws(game), "mat": mat}


def _title(variant: str) -> str:
    return str(_("Backgammon"))


BACKGAMMON = GameSpec(
    name="backgammon",
    seats=2,
    variants=(VARIANT,),
    default_variant=VARIANT,
    chain_length=CHAIN_LENGTH,
    check=check,
    build=build,
    teams=((0,), (1,)),
    winner=winner,
    timeout_action=timeout_action,
    rating_game=lambda variant: VARIANT,  # one rating for every backgammon table
    finished=finished,
    hands_over=games_over,
    record=record,
    record_extra=record_extra,
    analyse=analysis.analyse,
    analysis_words=analysis.analysis_words,
    table_target=table_target,
    target_is_length=True,
    bot=bot_action,
    pages=GamePages(
        title=_title,
        frame_html=render.frame_html,
        table_template="backgammon/table.html",
        table_context=views.table_context,
        options_text=views.options_text,
        replay=views.replay_page,
        play_now_button="backgammon/lobby_play_now.html",
        new_table_button="backgammon/lobby_new_table.html",
        new_table_url="game:new_bg",
        routes=urls.routes,
        seat_offers=render.seat_offers,
        bot_levels=lambda: [(level, level_name(level)) for level in BOT_LEVELS],
        default_bot_level=DEFAULT_BOT_LEVEL,
        round_name=lambda n: _("Game %(n)s") % {"n": n},
    ),
)
