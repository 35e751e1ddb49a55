"""The backgammon board of a live table: our own SVG, drawn on the server.

``render_board(view, turn=None, home="right")`` draws a ``bg.Game``/``bg.Match``
``view(seat)`` (and, while the viewer is moving, the ``game.backgammon.moves.Turn`` with the steps
made so far) as HTML: the SVG, a status line, an ``aria-live`` sentence and the Undo and
Confirm buttons. The palette and checkers are the guide's figures' (``guide.figures``);
the geometry here is larger and has both home-board sides.

- Points are numbered from the viewer's side (a spectator sees seat 0's side). Seat 0's
  checkers are light and seat 1's dark, whoever looks, so both players name the same
  colour. The viewer's home board is at the bottom, on the right or on the left
  (``home``): the drawing itself is placed by the option, never mirrored by CSS, and the
  SVG keeps ``direction:ltr`` on right-to-left pages.
- Interactive (``turn`` given): every checker the planner lets move is a focusable
  ``role="button"`` group carrying ``data-from``; every place it may go is a group carrying
  ``data-from``, ``data-to`` and ``data-dice``. Nothing else is sent to the browser: the
  planner decides what is offered, ``game/static/game/backgammon/board.js`` only shows a
  checker's destinations and raises ``bg:step`` / ``bg:undo`` / ``bg:confirm`` events.
- A view holds nothing secret in backgammon but the future dice and the unrevealed seed;
  only the board, the dice on it, the cube and the score are read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.backgammon.moves import BAR, OFF, Turn
from game.backgammon.telling import (
    announcement,
    finished_turns,
    last_turn_text,
    turn_status,
)
from game.backgammon.words import describe_target
from game.engine import backgammon as bg
from guide.figures import BLACK, DARK, LATIN_FONT, LIGHT

# --- geometry (viewBox units) ----------------------------------------------------------------
FRAME, SIDE, PW, BAR_W, NUM = 10, 64, 48, 56, 24
R = 21  # checker radius: five fill a point
PH = 5 * 2 * R
GAP = 56  # between the two rows, where the dice lie
FIELD_TOP = FRAME + NUM
FIELD_H = 2 * PH + GAP
FIELD_BOTTOM = FIELD_TOP + FIELD_H
WIDTH = 2 * FRAME + 2 * SIDE + 12 * PW + BAR_W
HEIGHT = FIELD_BOTTOM + NUM + FRAME
MID_Y = FIELD_TOP + FIELD_H / 2

WOOD, FIELD, BAR_WOOD = "#6b4a2b", "#e8d9b5", "#57391f"  # the guide figures' board
POINT_RED, POINT_GREEN = "#b5472f", "#3f6e57"
FOCUS = "#1565c0"
PAPER = "#fbf7f0"


@dataclass(frozen=True)
class _Layout:
    home: str  # "right" | "left"

    @property
    def half_left(self) -> float:
        return FRAME + SIDE

    @property
    def half_right(self) -> float:
        return FRAME + SIDE + 6 * PW + BAR_W

    @property
    def bar_x(self) -> float:
        return FRAME + SIDE + 6 * PW

    @property
    def tray_x(self) -> float:
        """The column of the borne-off trays: on the home board's side."""
        return WIDTH - FRAME - SIDE if self.home == "right" else FRAME

    @property
    def cube_x(self) -> float:
        """The other side column: the cube and the pip counts."""
        return FRAME if self.home == "right" else WIDTH - FRAME - SIDE

    def col(self, point: int) -> int:
        """Column 0..11 from the left; home on the right puts point 1 bottom right."""
        c = 12 - point if point <= 12 else point - 13
        return c if self.home == "right" else 11 - c

    def x(self, point: int) -> float:
        c = self.col(point)
        return FRAME + SIDE + c * PW + PW / 2 + (BAR_W if c >= 6 else 0)

    def outer_half_x(self) -> float:
        """Centre x of the half without the viewer's home board (the dice go there)."""
        left_centre = self.half_left + 3 * PW
        right_centre = self.half_right + 3 * PW
        return left_centre if self.home == "right" else right_centre


def _checker_y(point: int, index: int) -> float:
    if point <= 12:  # bottom row, stacked upwards
        return FIELD_BOTTOM - R - index * 2 * R
    return FIELD_TOP + R + index * 2 * R


# --- reading the view -------------------------------------------------------------------------
@dataclass(frozen=True)
class _Board:
    """Counts on the viewer's point numbers: mine[p], theirs[p] for p in 1..24."""

    mine: tuple[int, ...]  # index = point (0 unused)
    theirs: tuple[int, ...]
    bar: tuple[int, int]  # (viewer, opponent)
    off: tuple[int, int]
    pips: tuple[int, int]


def _from_view(board: Mapping[str, Any]) -> _Board:
    points = list(board["points"])
    if len(points) != 24:
        raise ValueError("a board has 24 points")
    mine = (0, *(max(n, 0) for n in points))
    theirs = (0, *(max(-n, 0) for n in points))
    return _Board(mine, theirs, tuple(board["bar"]), tuple(board["off"]), tuple(board["pips"]))  # type: ignore[arg-type]


def _from_position(pos: bg.Position) -> _Board:
    """A position seen by its player on roll (the mover is the viewer)."""
    their_own, mine_own = pos.board()
    mine = (0, *mine_own[:24])
    theirs = (0, *(their_own[24 - p] for p in range(1, 25)))  # their q is our 25 - q
    return _Board(mine, theirs, (mine_own[24], their_own[24]), pos.off(), pos.pips())


# --- words ---------------------------------------------------------------------------------------
def _point_list(counts: tuple[int, ...]) -> str:
    return ", ".join(f"{p}: {counts[p]}" for p in range(24, 0, -1) if counts[p]) or "–"


# --- drawing -----------------------------------------------------------------------------------
def _checker(x: float, y: float, light: bool, label: str = "", cls: str = "") -> str:
    fill, stroke, ink = (LIGHT, "#3b332b", BLACK) if light else (DARK, "#000", "#fff")
    c = f' class="{cls}"' if cls else ""
    out = (
        f'<circle{c} cx="{x:g}" cy="{y:g}" r="{R}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="2"/>'
        f'<circle cx="{x:g}" cy="{y:g}" r="{R - 6}" fill="none" stroke="{stroke}" '
        f'stroke-opacity=".35" stroke-width="1.5"/>'
    )
    if label:
        out += (
            f'<text x="{x:g}" y="{y + 6:g}" text-anchor="middle" font-size="17" '
            f'font-family="{LATIN_FONT}" font-weight="700" fill="{ink}">{label}</text>'
        )
    return out


def _stack(lay: _Layout, point: int, count: int, mine: bool, light: bool) -> str:
    x = lay.x(point)
    shown = min(count, 5)
    parts = []
    for i in range(shown):
        label = str(count) if count > 5 and i == shown - 1 else ""
        parts.append(_checker(x, _checker_y(point, i), light, label))
    side = "mine" if mine else "theirs"
    return (
        f'<g class="bg-stack" data-point="{point}" data-side="{side}" data-count="{count}">'
        f"{''.join(parts)}</g>"
    )


def _bar_y(mine: bool, index: int) -> float:
    """The viewer's bar checkers below the middle, the opponent's above."""
    step = 2 * R + 2
    if mine:
        return MID_Y + GAP / 2 + R + index * step
    return MID_Y - GAP / 2 - R - index * step


def _bar_stack(lay: _Layout, count: int, mine: bool, light: bool) -> str:
    x = lay.bar_x + BAR_W / 2
    shown = min(count, 4)
    checkers = "".join(
        _checker(x, _bar_y(mine, i), light, str(count) if count > 4 and i == shown - 1 else "")
        for i in range(shown)
    )
    side = "mine" if mine else "theirs"
    return f'<g class="bg-bar" data-side="{side}" data-count="{count}">{checkers}</g>'


def _die(x: float, y: float, value: int, size: float, light: bool, used: bool) -> str:
    fill, ink = (LIGHT, BLACK) if light else (DARK, "#fff")
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.25, 0.25), (0.75, 0.75)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
    }[value]
    op = ' opacity=".35"' if used else ""
    cls = "bg-die bg-die-used" if used else "bg-die"
    dots = "".join(
        f'<circle cx="{x + sx * size:g}" cy="{y + sy * size:g}" r="{size * 0.09:g}" fill="{ink}"/>'
        for sx, sy in spots
    )
    return (
        f'<g class="{cls}" data-value="{value}"{op}><rect x="{x:g}" y="{y:g}" width="{size:g}" '
        f'height="{size:g}" rx="{size * 0.18:g}" fill="{fill}" stroke="#000" stroke-width="1.5"/>'
        f"{dots}</g>"
    )


def _dice(lay: _Layout, dice: list[int], left: tuple[int, ...] | None, light: bool) -> str:
    values = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True)
    size = 34.0 if len(values) == 4 else 42.0
    gap = 10
    total = len(values) * size + (len(values) - 1) * gap
    x = lay.outer_half_x() - total / 2
    y = MID_Y - size / 2
    pool = list(left) if left is not None else list(values)
    parts = []
    for v in values:
        used = v not in pool
        if not used:
            pool.remove(v)
        parts.append(_die(x, y, v, size, light, used))
        x += size + gap
    return "".join(parts)


def _cube(lay: _Layout, cube: Mapping[str, Any], viewer: int) -> str:
    if not cube.get("enabled", True):
        return ""
    value, owner = int(cube["value"]), cube["owner"]
    size = 46
    x = lay.cube_x + (SIDE - size) / 2
    if owner is None:
        y, where = MID_Y - size / 2, "centre"
    elif owner == viewer:
        y, where = FIELD_BOTTOM - 70 - size, "mine"
    else:
        y, where = FIELD_TOP + 70, "theirs"
    # The face says the stake, as the line beside the board does ("Cube at 1, in the
    # middle"): a real cube has no 1 and shows 64 in the middle, and newcomers read that 64
    # as the stake. A centred cube is still told by its place.
    shown = value
    label = {
        "centre": _("Doubling cube at %(value)s, in the middle"),
        "mine": _("Doubling cube at %(value)s, yours"),
        "theirs": _("Doubling cube at %(value)s, your opponent's"),
    }[where] % {"value": value}
    return (
        f'<g class="bg-cube" data-value="{value}" data-owner="{where}" role="img" '
        f'aria-label="{escape(label)}"><rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" '
        f'rx="7" fill="{PAPER}" stroke="#000" stroke-width="2"/>'
        f'<text x="{x + size / 2:g}" y="{y + size / 2 + 7:g}" text-anchor="middle" font-size="'
        f'{20 if shown < 10 else 18}" font-weight="700" font-family="{LATIN_FONT}" fill="{BLACK}">'
        f"{shown}</text></g>"
    )


def _trays(lay: _Layout, off: tuple[int, int], light_me: bool) -> str:
    x = lay.tray_x + 8
    w = SIDE - 16
    parts = [
        f'<rect x="{lay.tray_x + 4:g}" y="{FIELD_TOP:g}" width="{SIDE - 8}" height="{PH}" '
        f'fill="{BAR_WOOD}" rx="4"/>',
        f'<rect x="{lay.tray_x + 4:g}" y="{FIELD_BOTTOM - PH:g}" width="{SIDE - 8}" '
        f'height="{PH}" fill="{BAR_WOOD}" rx="4"/>',
    ]
    for mine, n in ((True, off[0]), (False, off[1])):
        side = "mine" if mine else "theirs"
        parts.append(f'<g class="bg-off" data-side="{side}" data-count="{n}">')
        light = light_me if mine else not light_me
        fill, stroke = (LIGHT, "#3b332b") if light else (DARK, "#000")
        for i in range(n):
            y = FIELD_BOTTOM - 4 - (i + 1) * 12 if mine else FIELD_TOP + 4 + i * 12
            parts.append(
                f'<rect x="{x:g}" y="{y:g}" width="{w}" height="10" rx="3" fill="{fill}" '
                f'stroke="{stroke}"/>'
            )
        if n:
            ty = FIELD_BOTTOM - PH - 8 if mine else FIELD_TOP + PH + 20
            parts.append(
                f'<text class="bg-off-count" x="{lay.tray_x + SIDE / 2:g}" y="{ty:g}" '
                f'text-anchor="middle" font-size="15" font-weight="700" '
                f'font-family="{LATIN_FONT}" fill="{PAPER}">{n}</text>'
            )
        parts.append("</g>")
    return "".join(parts)


def _pips(lay: _Layout, pips: tuple[int, int]) -> str:
    cx = lay.cube_x + SIDE / 2
    label = escape(_("Pips"))
    out = []
    for mine, n in ((True, pips[0]), (False, pips[1])):
        # room above the number for Nastaliq's tall letters
        y = FIELD_BOTTOM - 40 if mine else FIELD_TOP + 22
        out.append(
            f'<text x="{cx:g}" y="{y:g}" text-anchor="middle" font-size="15" '
            f'fill="{PAPER}">{label}</text>'
            f'<text class="bg-pips" data-side="{"mine" if mine else "theirs"}" x="{cx:g}" '
            f'y="{y + 30:g}" text-anchor="middle" font-size="21" font-weight="700" '
            f'font-family="{LATIN_FONT}" fill="{PAPER}">{n}</text>'
        )
    return "".join(out)


def _frame(lay: _Layout) -> str:
    parts = [
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="12" fill="{WOOD}"/>',
        f'<rect x="{lay.half_left:g}" y="{FIELD_TOP}" width="{12 * PW + BAR_W}" '
        f'height="{FIELD_H}" fill="{FIELD}"/>',
        f'<rect x="{lay.bar_x:g}" y="{FIELD_TOP}" width="{BAR_W}" height="{FIELD_H}" '
        f'fill="{BAR_WOOD}"/>',
        f'<rect x="{lay.cube_x + 4:g}" y="{FIELD_TOP}" width="{SIDE - 8}" height="{FIELD_H}" '
        f'fill="{BAR_WOOD}" rx="4"/>',
    ]
    for point in range(1, 25):
        x = lay.x(point)
        colour = POINT_RED if point % 2 else POINT_GREEN
        if point <= 12:
            tip, base, ny = FIELD_BOTTOM - PH + 8, FIELD_BOTTOM, FIELD_BOTTOM + 19
        else:
            tip, base, ny = FIELD_TOP + PH - 8, FIELD_TOP, FIELD_TOP - 5
        parts.append(
            f'<polygon points="{x - PW / 2 + 1:g},{base} {x + PW / 2 - 1:g},{base} {x:g},{tip}" '
            f'fill="{colour}"/>'
            f'<text class="bg-num" x="{x:g}" y="{ny}" text-anchor="middle" font-size="19" '
            f'font-family="{LATIN_FONT}" fill="{PAPER}">{point}</text>'
        )
    return "".join(parts)


LAST_MARK = "#f2c14e"  # a warm gold, faint on the field, under the checkers


def last_move_points(view: Mapping[str, Any]) -> tuple[set[int], set[int]]:
    """(from, to) points of the last move the line under the board names (the
    opponent's, or for a spectator whoever moved last), on the viewer's numbers; the bar
    and the trays are left out. A point passed through and hit there ("12/15*/20") is a
    "to": a checker landed on it."""
    turns = finished_turns(view)
    seat = view.get("seat")
    if not turns or (seat is not None and turns[-1].seat == int(seat)):
        return set(), set()
    steps = turns[-1].steps
    to = {b for _a, b, _h in steps if 1 <= b <= 24}
    src = {a for a, _b, _h in steps if 1 <= a <= 24} - to
    return src, to


def _last_marks(lay: _Layout, view: Mapping[str, Any]) -> str:
    """A faint band along the whole point of each from/to point of the last move, drawn
    under the checkers (the words under the board say the move; the marks only help the
    eye find it, so they are hidden from screen readers)."""
    src, to = last_move_points(view)
    if not src and not to:
        return ""
    parts = []
    for point, cls, opacity in [(p, "bg-last-from", ".18") for p in sorted(src)] + [
        (p, "bg-last-to", ".34") for p in sorted(to)
    ]:
        x = lay.x(point) - PW / 2
        y = FIELD_TOP if point > 12 else FIELD_BOTTOM - PH
        parts.append(
            f'<rect class="{cls}" data-point="{point}" x="{x:g}" y="{y:g}" width="{PW}" '
            f'height="{PH}" fill="{LAST_MARK}" fill-opacity="{opacity}" stroke="{LAST_MARK}" '
            f'stroke-width="2" stroke-opacity=".8" rx="3"/>'
        )
    return f'<g class="bg-last" aria-hidden="true">{"".join(parts)}</g>'


def _landing(lay: _Layout, board: _Board, dst: int) -> tuple[float, float]:
    """Where a checker moved to dst would stand."""
    if dst == OFF:
        return lay.tray_x + SIDE / 2, FIELD_BOTTOM - PH / 2
    index = min(board.mine[dst], 4)
    return lay.x(dst), _checker_y(dst, index)


def _top_of(lay: _Layout, board: _Board, src: int) -> tuple[float, float]:
    if src == BAR:
        return lay.bar_x + BAR_W / 2, _bar_y(True, min(board.bar[0], 4) - 1)
    return lay.x(src), _checker_y(src, min(board.mine[src], 5) - 1)


def _hit_area(lay: _Layout, src: int) -> str:
    """The whole half-point (or the viewer's half of the bar) takes the click, so the
    target stays large on a phone, where a checker is a few millimetres wide."""
    if src == BAR:
        x, y, w, h = lay.bar_x, MID_Y, BAR_W, FIELD_H / 2
    else:
        x, w, h = lay.x(src) - PW / 2, PW, PH
        y = FIELD_TOP if src > 12 else FIELD_BOTTOM - PH
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="transparent"/>'


def _interactive(lay: _Layout, board: _Board, turn: Turn, selected: int | None) -> str:
    srcs, dsts = [], []
    for src, targets in turn.movable().items():
        x, y = _top_of(lay, board, src)
        where = (
            _("Checker on the bar") if src == BAR else _("Checker on %(point)s") % {"point": src}
        )
        pressed = "true" if selected == src else "false"
        srcs.append(
            f'<g class="bg-src" data-from="{src}" tabindex="0" role="button" '
            f'aria-pressed="{pressed}" aria-label="{escape(where)}">'
            f'<circle class="bg-ring" cx="{x:g}" cy="{y:g}" r="{R + 3}" fill="none" '
            f'stroke="{FOCUS}" stroke-width="4"/>'
            f"{_hit_area(lay, src)}</g>"
        )
        # several targets at one place (bearing off with one die or another, or with
        # both): side by side, each with its dice
        at: dict[int, int] = {}
        for t in targets:
            k = at.get(t.dst, 0)
            at[t.dst] = k + 1
            lx, ly = _landing(lay, board, t.dst)
            if t.dst == OFF:
                ly += (k - 1) * 2.4 * R
            dice = "+".join(str(d) for d in t.dice)
            on = " bg-on" if selected == src else ""
            tab = "0" if selected == src else "-1"
            area = ""
            if t.dst != OFF:
                top = FIELD_TOP if t.dst > 12 else FIELD_BOTTOM - PH
                area = (
                    f'<rect class="bg-dst-area" x="{lay.x(t.dst) - PW / 2:g}" y="{top:g}" '
                    f'width="{PW}" height="{PH}" fill="{FOCUS}" fill-opacity=".12"/>'
                )
            # On a full point the marker rings the top checker and its dice go on a tag
            # towards the middle of the board, so neither hides the other.
            full = t.dst != OFF and board.mine[t.dst] >= 5
            tx, ty = lx, ly
            if full:
                ty = ly + (0.8 * R if t.dst > 12 else -0.8 * R)
            fill = "none" if full else PAPER
            tag = (
                f'<rect x="{tx - 17:g}" y="{ty - 10:g}" width="34" height="20" rx="6" '
                f'fill="{PAPER}" stroke="{FOCUS}" stroke-width="2"/>'
                if full
                else ""
            )
            dsts.append(
                f'<g class="bg-dst{on}" data-from="{src}" data-to="{t.dst}" '
                f'data-dice="{",".join(str(d) for d in t.dice)}" tabindex="{tab}" role="button" '
                f'aria-label="{escape(describe_target(t))}">{area}'
                f'<circle class="bg-mark" cx="{lx:g}" cy="{ly:g}" r="{R - 1}" fill="{fill}" '
                f'fill-opacity=".9" stroke="{FOCUS}" stroke-width="3" stroke-dasharray="6 4"/>'
                f'{tag}<text x="{tx:g}" y="{ty + 5:g}" text-anchor="middle" font-size="15" '
                f'font-weight="700" font-family="{LATIN_FONT}" fill="{FOCUS}">{dice}</text></g>'
            )
    # sources first: the Tab order; destinations drawn over them take the click
    return f'<g class="bg-srcs">{"".join(srcs)}</g><g class="bg-dsts">{"".join(dsts)}</g>'


def board_svg(
    view: Mapping[str, Any],
    turn: Turn | None = None,
    *,
    home: str = "right",
    selected: int | None = None,
    counts: bool = True,
) -> str:
    """The board alone, as an SVG string (see ``render_board`` for the whole fragment).

    ``counts=False`` leaves out the pip counts and the cube (a lesson's board: its
    questions ask for the count, and a newcomer took the cube for a number to read)."""
    if home not in ("left", "right"):
        raise ValueError("home is 'left' or 'right'")
    lay = _Layout(home)
    seat = view.get("seat")
    viewer = 0 if seat is None else int(seat)
    if turn is not None:
        if seat is None or view.get("to_move") != seat or view.get("phase") != "move":
            raise ValueError("a planner belongs to the seat whose move it is")
        if turn.pos.to_id() != view["position_id"] or list(turn.dice) != list(view["dice"]):
            raise ValueError("the planner is for another position or roll than the view's")
        board = _from_position(turn.position())
    else:
        board = _from_view(view["board"])
    light_me = viewer == 0
    parts = [_frame(lay), _last_marks(lay, view), _trays(lay, board.off, light_me)]
    if counts:
        parts.append(_pips(lay, board.pips))
    for p in range(1, 25):
        if board.mine[p]:
            parts.append(_stack(lay, p, board.mine[p], True, light_me))
        if board.theirs[p]:
            parts.append(_stack(lay, p, board.theirs[p], False, not light_me))
    parts.append(_bar_stack(lay, board.bar[0], True, light_me))
    parts.append(_bar_stack(lay, board.bar[1], False, not light_me))
    if view.get("dice"):
        roller = view.get("turn", viewer)
        left = turn.remaining if turn is not None else None
        parts.append(_dice(lay, list(view["dice"]), left, (roller == 0)))
    if counts:
        parts.append(_cube(lay, view.get("cube", {"enabled": False}), viewer))
    if turn is not None:
        parts.append(_interactive(lay, board, turn, selected))
    me, them = ("you", "opponent") if seat is not None else ("light", "dark")
    summary = _summary(board, me, them, counts)
    title = escape(_("Backgammon board"))
    return (
        f'<svg class="bg-svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="group" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg" direction="ltr" '
        f'data-home="{home}"><title>{title}</title><desc>{escape(summary)}</desc>'
        f"{''.join(parts)}</svg>"
    )


def _summary(board: _Board, me: str, them: str, counts: bool = True) -> str:
    values = {
        "mine": _point_list(board.mine),
        "theirs": _point_list(board.theirs),
        "bar_mine": board.bar[0],
        "bar_theirs": board.bar[1],
        "off_mine": board.off[0],
        "off_theirs": board.off[1],
        "pips_mine": board.pips[0],
        "pips_theirs": board.pips[1],
    }
    if me == "you" and not counts:
        return (
            _(
                "Your checkers: %(mine)s. Your opponent's checkers: %(theirs)s. On the bar: "
                "yours %(bar_mine)s, theirs %(bar_theirs)s. Borne off: yours %(off_mine)s, "
                "theirs %(off_theirs)s."
            )
            % values
        )
    if me == "you":
        return (
            _(
                "Your checkers: %(mine)s. Your opponent's checkers: %(theirs)s. On the bar: "
                "yours %(bar_mine)s, theirs %(bar_theirs)s. Borne off: yours %(off_mine)s, "
                "theirs %(off_theirs)s. Pips: yours %(pips_mine)s, theirs %(pips_theirs)s."
            )
            % values
        )
    return (
        _(
            "Light checkers: %(mine)s. Dark checkers: %(theirs)s. On the bar: light "
            "%(bar_mine)s, dark %(bar_theirs)s. Borne off: light %(off_mine)s, dark "
            "%(off_theirs)s. Pips: light %(pips_mine)s, dark %(pips_theirs)s."
        )
        % values
    )


def turn_pips(turn: Turn) -> tuple[int, int]:
    """(viewer's, opponent's) pip counts after the steps made so far."""
    return _from_position(turn.position()).pips


def render_board(
    view: Mapping[str, Any],
    turn: Turn | None = None,
    *,
    home: str = "right",
    selected: int | None = None,
    announce: str | None = None,
    counts: bool = True,
) -> SafeString:
    """The board fragment (template ``backgammon/board.html``): SVG, status line,
    aria-live sentence, and while ``turn`` is given the Undo and Confirm buttons
    (``counts``: see :func:`board_svg`)."""
    svg = board_svg(view, turn, home=home, selected=selected, counts=counts)
    last_move = last_turn_text(view)
    status = turn_status(turn) if turn is not None else ""
    match, crawford = "", False
    if view.get("length"):
        seat = view.get("seat")
        score = list(view.get("score", [0, 0]))
        mine, theirs = (score[1], score[0]) if seat == 1 else (score[0], score[1])
        values = {"length": view["length"], "mine": mine, "theirs": theirs}
        if seat is None:
            match = ngettext(
                "Match to %(length)s point. Light %(mine)s, dark %(theirs)s.",
                "Match to %(length)s points. Light %(mine)s, dark %(theirs)s.",
                int(view["length"]),
            ) % values
        else:
            match = ngettext(
                "Match to %(length)s point. You %(mine)s, your opponent %(theirs)s.",
                "Match to %(length)s points. You %(mine)s, your opponent %(theirs)s.",
                int(view["length"]),
            ) % values
        crawford = bool(view.get("crawford_game"))
    html = render_to_string(
        "backgammon/board.html",
        {
            "svg": mark_safe(svg),  # built here, every text in it escaped
            "home": home,
            "turn": turn,
            "status": status,
            "announce": announcement(view, turn) if announce is None else announce,
            "last_move": last_move,
            # "*" explained beside the notation that uses it (a newcomer read "12/15*/20*"
            # and did not know the star).
            "hit_note": "*" in last_move and "bg-notation" in last_move,
            "can_undo": bool(turn and turn.steps),
            "can_confirm": bool(turn and turn.complete and turn.play is not None),
            "play": turn.notation if turn is not None else "",
            "steps": ";".join(",".join(map(str, s.code())) for s in turn.steps) if turn else "",
            "match": match,
            "crawford": crawford,
        },
    )
    return mark_safe(html)  # a template's output, autoescaped
