"""The games the tables can play, each registered by its own package.

A game brings everything the shared table code needs from it in one :class:`GameSpec`:
how to check a table's settings and build the starting state (a
``game.engine.protocol.GameState``) from the stored table fields, its seats and teams, who
won, the clock's timeout action, its bot, its records, and its pages (:class:`GamePages`:
the frame's HTML, the table page's template, the replay, its own routes). The shared code
asks the registry and never which game it plays: adding a game is a package of its own
whose Django app registers its spec in ``ready()`` (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from accounts import games as accounts_games
from game.engine.protocol import GameState

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse
    from django.urls import URLPattern

    from game.models import Table


def numbered_seats(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``GamePages.seat_offers`` for a game whose seats have no names of their own."""
    return [
        {"seat": int(r["seat"]), "name": _("Seat %(n)s") % {"n": int(r["seat"]) + 1}, "text": ""}
        for r in rows
    ]


@dataclass(frozen=True)
class GamePages:
    """What a game brings to the pages of the live tables (all in the active language)."""

    # variant -> its name for players ("Rung", "Backgammon")
    title: Callable[[str], str]
    # (a state payload, out of band?) -> the HTML of that frame (the socket's format=html,
    # and the table page's first paint); the payload is already its seat's own view
    frame_html: Callable[[dict[str, Any], bool], str]
    # the table page's template: extends "game/table.html" and fills its blocks
    table_template: str
    # (variant, options, length) -> the table's house rules in a few words (the lobby)
    options_text: Callable[[str, dict[str, Any], int], list[str]]
    # (request, table, hand, viewer's seat, invite) -> the replay page of a finished hand
    replay: Callable[[HttpRequest, Table, int, int | None, str], HttpResponse]
    # the lobby's buttons for this game: Play now, and a new table (template names)
    play_now_button: str
    new_table_button: str
    # the URL name of this game's new-table page
    new_table_url: str
    # the game's own pages under /<lang>/play/ (URL names in the "game" namespace)
    routes: Sequence[URLPattern] = ()
    # (request, language) -> more of the table page's context for its template
    table_context: Callable[[HttpRequest, str], dict[str, Any]] = lambda request, lang: {}
    # (table, viewer's seat) -> the view of the hand that just ended, shown on the table
    # page until the next one has begun (None: nothing to show)
    last_hand: Callable[[Table, int | None], dict[str, Any] | None] = (
        lambda table, seat: None
    )
    # (the seat rows of a state payload) -> each seat as the table names it, for someone
    # choosing where to sit (the waiting table, an invite): {"seat": n, "name": "North",
    # "text": "partner of asma, against a bot and an empty seat"}
    seat_offers: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] = numbered_seats
    # () -> the bot's levels as (the table option ``bot_level``'s value, its name), weakest
    # first, and the level a table gets without one (Play now, the choosers: botlevel.py)
    bot_levels: Callable[[], Sequence[tuple[str, str]]] = lambda: ()
    default_bot_level: str = ""
    # n -> the n-th hand (or game) being played, in a few words ("Hand 3"): "Your games"
    round_name: Callable[[int], str] = lambda n: _("Hand %(n)s") % {"n": n}


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
    # seat lists per team, in team order (accounts.services.record_result's `teams`)
    teams: tuple[tuple[int, ...], ...]
    # the winning team of a finished state
    winner: Callable[[Any], int]
    # the clock's action for the seat to move when a rule gives a timeout a meaning
    timeout_action: Callable[[Any], str | None]
    # variant -> the rating family recorded in accounts (accounts.games)
    rating_game: Callable[[str], str]
    # hands (or games) finished so far, oldest first, and the record of one
    finished: Callable[[Any], Sequence[Any]]
    record: Callable[[Any], str]
    # (state, seat, table options) -> the bot's action for that seat
    bot: Callable[[Any, int, dict[str, Any]], str]
    pages: GamePages
    # (finished, counter) -> more fields for `GET …/record` (backgammon: dice, .mat)
    record_extra: Callable[[Sequence[Any], int], dict[str, Any]] = lambda finished, n: {}
    # (length, target) as a client sends them -> the stored Table.target, or ValueError;
    # None: the game has no `length` (see table_target_of)
    table_target: Callable[[Any, Any], int | None] | None = None
    # whether Table.target holds the protocol's `length` (backgammon) or a match target
    target_is_length: bool = False
    # state -> whether its last action completed a trick (a bot then waits a moment
    # longer before leading, so people see who won it: TABLES_TRICK_PAUSE)
    trick_just_won: Callable[[Any], bool] = lambda state: False
    # state -> whether a hand (or game) has just ended and the next has not begun: a bot
    # then waits TABLES_HAND_PAUSE, so people can read the result first
    hand_just_ended: Callable[[Any], bool] = lambda state: False
    # build's arguments plus (dealer, deal): a starting state whose first hand is that
    # deal, played again (game.tables.deal_again); None: the game cannot replay a deal
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
    # (finished, counter) -> that hand's (or game's) analysis without words, the
    # protocol's "Analysis" (game.tables.analysis computes it once, off the event loop,
    # and stores it); slow: never call it on the event loop. None: the game has none
    analyse: Callable[[Sequence[Any], int], dict[str, Any]] | None = None
    # (finished, counter, seat) -> the knowable verdicts on that seat's own cards (what
    # it could know when it played them); slow, as analyse. None: the game has none
    knowable: Callable[[Sequence[Any], int, int], list[dict[str, Any]]] | None = None
    # state -> how many hands (or games) are over: cheap, asked after every move so that
    # a hand's analysis is computed as soon as it ends (game.tables.ahead). None: never
    # computed ahead, only when asked
    hands_over: Callable[[Any], int] | None = None
    # a stored analysis -> the protocol's answer, its words in the active language
    analysis_words: Callable[[dict[str, Any]], dict[str, Any]] = lambda data: data

    def bot_action(self, state: Any, seat: int, options: dict[str, Any] | None = None) -> str:
        return self.bot(state, seat, dict(options or {}))

    def length(self, target: int | None) -> int:
        """The protocol's ``length`` of a table (0 where the game has none)."""
        return (target or 0) if self.target_is_length else 0

    def table_target_of(self, length: Any, target: Any) -> Any:
        """The stored ``Table.target`` for what a client sent (ValueError: refused)."""
        if self.table_target is not None:
            return self.table_target(length, target)
        if isinstance(length, bool) or not isinstance(length, int) or length != 0:
            raise ValueError(f"length is not an option of {self.name}")
        return target


_games: dict[str, GameSpec] = {}
_default: list[str] = []


def register(spec: GameSpec, *, default: bool = False) -> None:
    """Add a game (its Django app's ``ready()``). ``default``: the game a client gets
    when it names none (the protocol's default)."""
    if spec.name in _games and _games[spec.name] is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    _games[spec.name] = spec
    if default and spec.name not in _default:
        _default.insert(0, spec.name)
    # Its rating families, named as its pages name the variants (accounts knows no game).
    for variant in spec.variants:
        family = spec.rating_game(variant)
        accounts_games.register(family, functools.partial(spec.pages.title, variant))


def find(name: Any) -> GameSpec | None:
    """The registered game called ``name`` (None: no such game)."""
    return _games.get(name) if isinstance(name, str) else None


def spec(name: str) -> GameSpec:
    """The registered game called ``name`` (ValueError: no such game)."""
    found = find(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(_games)}")
    return found


def games() -> list[GameSpec]:
    """Every registered game, in the order registered."""
    return list(_games.values())


def names() -> tuple[str, ...]:
    return tuple(_games)


def default_name() -> str:
    """The game a client gets when it names none."""
    return _default[0] if _default else next(iter(_games))


def length(game: str, target: int | None) -> int:
    """The protocol's ``length`` of a table of ``game`` (0 for an unknown game)."""
    found = find(game)
    return found.length(target) if found is not None else 0
