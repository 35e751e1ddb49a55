"""The backgammon board in words: the last turn in standard notation and as a sentence,
the aria-live announcement, what the cube's latest action says, and the viewer's move so
far in one line. ``game.backgammon.board`` draws; this module says (the board's SVG
carries the same facts for the eye)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from game.backgammon.moves import BAR, OFF, Turn
from game.backgammon.words import describe_roll, describe_step
from game.engine import backgammon as bg


def named_by_viewer(view: Mapping[str, Any], seat: int) -> str:
    """How the viewer names ``seat``: "you" / "opponent", or a spectator's "light" /
    "dark"."""
    if view.get("seat") is None:
        return "light" if seat == 0 else "dark"
    return "you" if seat == view["seat"] else "opponent"


@dataclass(frozen=True)
class LastTurn:
    """A finished turn, on the VIEWER's point numbers (a spectator sees seat 0's): the
    engine's history writes every play on its mover's own numbers (both players move
    from 24 down to 1), so the opponent's "24/20" is the viewer's 1 to 5."""

    seat: int
    dice: tuple[int, int]
    steps: tuple[tuple[int, int, bool], ...]  # (src, dst, hit); none if the roll was lost
    # The whole play in standard notation ("13/7*/5 24/18"), on the viewer's numbers: one
    # checker's hops joined, as the engine's history writes it.
    notation: str = ""


def _on_viewer_side(point: int, mover: int, viewer: int) -> int:
    if mover == viewer or point in (BAR, OFF):
        return point
    return 25 - point


def notation_for_viewer(notation: str, mover: int, viewer: int) -> str:
    """A play's standard notation ("24/18 13/9", "13/7*/5", "8/5(2)") on the viewer's
    point numbers, the ones the board shows: the opponent's 24 is the viewer's 1. Only the
    points change; "bar", "off", the hits' stars and the counts stay as written."""
    if mover == viewer:
        return notation

    def point(text: str) -> str:
        star = "*" if text.endswith("*") else ""
        bare = text.rstrip("*")
        if not bare.isdigit():
            return text  # bar, off
        return f"{_on_viewer_side(int(bare), mover, viewer)}{star}"

    tokens = []
    for token in notation.split():
        path, paren, count = token.partition("(")
        tokens.append("/".join(point(p) for p in path.split("/")) + paren + count)
    return " ".join(tokens)


def finished_turns(view: Mapping[str, Any]) -> list[LastTurn]:
    """Every finished turn of the game on the board, oldest first. ``rolls`` holds every
    throw (the opening one has no "roll" action in ``history``); a throw followed by no
    move before the next throw or double was lost (no legal play, BG-8). The roll whose
    dice are on the board now is not finished."""
    seat = view.get("seat")
    viewer = 0 if seat is None else int(seat)
    rolls = [(int(s), (int(d[0]), int(d[1]))) for s, d in view.get("rolls") or []]
    history = [(int(s), str(a)) for s, a in view.get("history") or []]
    thrown = sum(1 for _s, a in history if a == "roll")
    if len(rolls) - thrown not in (0, 1):
        return []  # not a shape this reader knows: say nothing rather than something wrong
    turns: list[LastTurn] = []
    open_roll = 0 if len(rolls) > thrown else None
    k = len(rolls) - thrown - 1
    for mover, action in history:
        if action in ("roll", "double") and open_roll is not None:
            turns.append(LastTurn(rolls[open_roll][0], rolls[open_roll][1], ()))
            open_roll = None
        if action == "roll":
            k += 1
            open_roll = k
        elif action.startswith("move:") and open_roll is not None:
            steps = tuple(
                (_on_viewer_side(a, mover, viewer), _on_viewer_side(b, mover, viewer), hit)
                for a, b, hit in bg.parse_notation(action[5:])
            )
            notation = notation_for_viewer(action[5:], mover, viewer) if steps else ""
            turns.append(LastTurn(mover, rolls[open_roll][1], steps, notation))
            open_roll = None
    if open_roll is not None and not view.get("dice") and view.get("phase") != "over":
        turns.append(LastTurn(rolls[open_roll][0], rolls[open_roll][1], ()))
    return turns


def last_turn_text(view: Mapping[str, Any], *, spoken: bool = False) -> str:
    """ "Last move: your opponent rolled 6 and 2 and played 13/5." for the board's visible
    line: the opponent's turn if it is the latest finished one (a spectator: whoever moved
    last), the whole play in standard notation (every checker, one checker's hops joined:
    "13/7*/5 24/18"), on the viewer's point numbers. ``spoken``: the play in words, one
    hop after another ("13 to 7, hitting a blot; 7 to 5"), for the live region (a screen
    reader says "13/7" badly)."""
    turns = finished_turns(view)
    if not turns:
        return ""
    last = turns[-1]
    seat = view.get("seat")
    if seat is not None and last.seat == int(seat):
        return ""  # the viewer's own move: the board shows it
    who = named_by_viewer(view, last.seat)
    notation = not spoken and bool(last.notation)
    # The notation goes in as a marker first: the sentence is escaped, then the marker
    # becomes the notation in a left-to-right span that declares no language (lang="zxx"),
    # as the replay shows a Position ID: "13/7*/5" reads the same in every language.
    marker = "\x00move\x00"
    values = {
        "a": last.dice[0],
        "b": last.dice[1],
        "move": marker
        if notation
        else pgettext("list separator", "; ").join(
            describe_step(a, b, h) for a, b, h in last.steps
        ),
    }
    if who == "opponent":
        if not last.steps:
            text = _("Last move: your opponent rolled %(a)s and %(b)s and could not move.")
        else:
            text = _("Last move: your opponent rolled %(a)s and %(b)s and played %(move)s.")
    elif who == "light":
        if not last.steps:
            text = _("Last move: light rolled %(a)s and %(b)s and could not move.")
        else:
            text = _("Last move: light rolled %(a)s and %(b)s and played %(move)s.")
    elif not last.steps:
        text = _("Last move: dark rolled %(a)s and %(b)s and could not move.")
    else:
        text = _("Last move: dark rolled %(a)s and %(b)s and played %(move)s.")
    said = text % values
    if not notation:
        return said
    span = f'<span class="bg-notation" dir="ltr" lang="zxx">{escape(last.notation)}</span>'
    return mark_safe(escape(said).replace(marker, span))  # every other text escaped


def announcement(view: Mapping[str, Any], turn: Turn | None = None) -> str:
    """The sentence for the aria-live region: the checker just moved this turn (all its
    hops), else the cube's latest action, else the roll on the board, else the last move
    of the game."""
    if turn is not None and turn.steps:
        # The checker just moved, all its hops this turn (13 to 7; 7 to 5 when a 6-2 took
        # one checker from 13 to 5), not only the last one.
        hops = [turn.steps[-1]]
        for s in reversed(turn.steps[:-1]):
            if s.dst != hops[0].src:
                break
            hops.insert(0, s)
        return pgettext("list separator", "; ").join(
            describe_step(s.src, s.dst, s.hit) for s in hops
        )
    history = view.get("history") or []
    if history and not view.get("dice"):
        # The latest action was the cube's (or a resignation's answer): say it, not the
        # play before it once more.
        said = cube_sentence(view, int(history[-1][0]), str(history[-1][1]))
        if said:
            return said
    last = last_turn_text(view, spoken=True)
    turns = finished_turns(view)
    seat = view.get("seat")
    if not last and turns and turns[-1].steps and seat is not None and turns[-1].seat == seat:
        # the viewer's own play, just sent: said back (it is on the board already)
        return _("%(who)s played %(move)s") % {
            "who": _("You"),
            "move": pgettext("list separator", "; ").join(
                describe_step(a, b, h) for a, b, h in turns[-1].steps
            ),
        }
    if view.get("dice"):
        roll = describe_roll(view["dice"], named_by_viewer(view, int(view.get("turn", 0))))
        # The opponent's move is said before the viewer's own roll (the bot moves and the
        # viewer rolls quickly: the region would otherwise only ever say the roll).
        return f"{last} {roll}" if last else roll
    return last


def cube_sentence(view: Mapping[str, Any], seat: int, action: str) -> str:
    """ "Your opponent doubles." and the like: a cube action, or the answer to an offer to
    resign, in words ("" for any other action)."""
    if named_by_viewer(view, seat) == "you":
        mine = {
            "double": _("You double."),
            "take": _("You take the double."),
            "beaver": _("You beaver: you take and double at once."),
            "drop": _("You drop the double."),
            "reject": _("You reject the resignation."),
        }
        return mine.get(action, "")
    theirs = {
        "double": _("%(who)s doubles."),
        "take": _("%(who)s takes the double."),
        "beaver": _("%(who)s beavers: takes and doubles at once."),
        "drop": _("%(who)s drops the double."),
        "reject": _("%(who)s rejects the resignation."),
    }.get(action)
    if theirs is None:
        return ""
    subject = {"opponent": _("Your opponent"), "light": _("Light"), "dark": _("Dark")}
    return theirs % {"who": subject[named_by_viewer(view, seat)]}


def turn_status(turn: Turn) -> str:
    """The viewer's move so far, in one line (under the board and in the table bar)."""
    if turn.complete:
        return _("Move complete: confirm it or undo.")
    return _("Your move: pick a checker, then where it goes.")
