"""Our own SVG figures for the guide: card faces, example tricks, backgammon boards.

Drawn on the server as inline SVG (no images to fetch, works without JavaScript). Every
word in a figure goes through gettext, so call `render` inside `translation.override(lang)`
(content.py does); card ranks (A K Q J 10 … 2) and suit pips are drawn as on real cards.

Backgammon boards are drawn from small position tables here (point -> checkers), not from
the engine: the figures only need to show a position, never to play one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from django.utils import translation
from django.utils.translation import gettext as _

# --- cards -------------------------------------------------------------------------------

SUITS = "SHDC"
RED = "#b3261e"
BLACK = "#1f1a14"
WIN = "#d89b00"
LATIN_FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"

# Pips drawn as paths in a 100×100 box, so they never depend on a font having ♠♥♦♣.
_PIP_PATHS = {
    "S": (
        '<path d="M50 0C40 20 0 40 0 62C0 78 12 88 26 88C36 88 43 83 46 77C45 88 40 95 32 100'
        'H68C60 95 55 88 54 77C57 83 64 88 74 88C88 88 100 78 100 62C100 40 60 20 50 0Z"/>'
    ),
    "H": (
        '<path d="M50 92C20 66 0 46 0 27C0 10 13 0 27 0C38 0 46 7 50 17C54 7 62 0 73 0'
        'C87 0 100 10 100 27C100 46 80 66 50 92Z"/>'
    ),
    "D": '<path d="M50 0L86 50L50 100L14 50Z"/>',
    "C": (
        '<circle cx="50" cy="24" r="23"/><circle cx="24" cy="58" r="23"/>'
        '<circle cx="76" cy="58" r="23"/>'
        '<path d="M45 55C45 80 40 92 31 100H69C60 92 55 80 55 55Z"/>'
    ),
}


def suit_names() -> dict[str, str]:
    """Each suit's name ("S": Spades ...) in the active language."""
    return {"S": _("Spades"), "H": _("Hearts"), "D": _("Diamonds"), "C": _("Clubs")}


def _rank_names() -> list[tuple[str, str]]:
    return [
        ("A", _("Ace")),
        ("K", _("King")),
        ("Q", _("Queen")),
        ("J", _("Jack")),
        ("10", _("Ten")),
        ("9", _("Nine")),
        ("8", _("Eight")),
        ("7", _("Seven")),
        ("6", _("Six")),
        ("5", _("Five")),
        ("4", _("Four")),
        ("3", _("Three")),
        ("2", _("Two")),
    ]


def _colour(suit: str) -> str:
    return RED if suit in "HD" else BLACK


def pip(suit: str, x: float, y: float, size: float) -> str:
    """A suit pip whose top-left corner is (x, y), `size` wide."""
    scale = size / 100
    return (
        f'<g fill="{_colour(suit)}" transform="translate({x:g} {y:g}) scale({scale:g})">'
        f"{_PIP_PATHS[suit]}</g>"
    )


CARD_W, CARD_H = 56, 80


def card(rank: str, suit: str, x: float, y: float, highlight: bool = False) -> str:
    """A card face: rank and small pip in the corner, a large pip in the middle."""
    thin = 'stroke="#5b5247" stroke-width="1"'
    stroke = f'stroke="{WIN}" stroke-width="4"' if highlight else thin
    colour = _colour(suit)
    return (
        f'<g class="card">'
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" '
        f'fill="#fff" {stroke}/>'
        f'<text x="{x + 6:g}" y="{y + 17:g}" font-family="{LATIN_FONT}" font-size="15" '
        f'font-weight="700" fill="{colour}">{rank}</text>'
        f"{pip(suit, x + 6, y + 21, 12)}"
        f"{pip(suit, x + CARD_W / 2 - 13, y + CARD_H / 2 - 8, 26)}"
        f"</g>"
    )


def _text(
    x: float, y: float, text: str, size: int = 13, weight: int = 400, fill: str = BLACK
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="middle" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>'
    )


# How far a line of text reaches above and below its baseline, in ems, as Chromium draws
# the page's font: Nastaliq's tall letters and deep descenders need about twice the room of
# Devanagari or Latin. Labels are stacked from these, so no two lines (and no label and a
# card) overlap in any language (tests/browser/test_finish.py measures every <text>).
_ASCENT_EM = {"ur": 2.0}
_DESCENT_EM = {"ur": 0.75}
_GAP = 3  # between a card and its first label, and between two labels


def _extent(size: float) -> tuple[float, float]:
    """(ascent, descent) in px of a `size` px line in the active language."""
    lang = translation.get_language() or "en"
    return size * _ASCENT_EM.get(lang, 1.15), size * _DESCENT_EM.get(lang, 0.4)


def _label_lines(top: float, sizes: list[float]) -> tuple[list[float], float]:
    """Baselines for lines of these sizes stacked from `top`, and the y where they end."""
    baselines = []
    y = top
    for size in sizes:
        ascent, descent = _extent(size)
        baselines.append(y + _GAP + ascent)
        y = baselines[-1] + descent
    return baselines, y


_ids = itertools.count(1)


def _svg(title: str, width: int, height: int, body: str, css_class: str) -> str:
    # direction="ltr" (an SVG attribute: the CSP refuses style=""): coordinates are
    # absolute; Urdu labels still shape correctly inside.
    tid = f"fig-title-{next(_ids)}"
    return (
        f'<svg class="{css_class}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{tid}" xmlns="http://www.w3.org/2000/svg" direction="ltr">'
        f'<title id="{tid}">{escape(title)}</title>{body}</svg>'
    )


def figure_suits() -> str:
    names = suit_names()
    parts = []
    (baseline,), bottom = _label_lines(8 + CARD_H, [15])
    for i, suit in enumerate(SUITS):
        x = 10 + i * 90
        parts.append(card("A", suit, x + 12, 8))
        parts.append(_text(x + 40, baseline, names[suit], size=15, weight=700, fill=_colour(suit)))
    return _svg(_("The four suits"), 370, round(bottom + 6), "".join(parts), "fig-cards")


def figure_ranks() -> str:
    parts = []
    (label_dy,), row_bottom = _label_lines(CARD_H, [13])
    row_h = row_bottom + 10
    for i, (rank, name) in enumerate(_rank_names()):
        col, row = i % 7, i // 7
        x, y = 8 + col * 66, 8 + row * row_h
        parts.append(card(rank, "S", x + 5, y))
        parts.append(_text(x + 33, y + label_dy, name, size=13))
    title = _("The thirteen cards of a suit, highest first")
    return _svg(title, 470, round(8 + row_h + row_bottom + 6), "".join(parts), "fig-cards")


@dataclass(frozen=True)
class TrickPlay:
    """One card on the trick table (:func:`trick_svg`): who played it (0 sits at the
    bottom), the card, and a note under the seat's name."""

    seat: int
    card: str  # "KS", "10S"
    note: str = ""


# Seat 0 sits at the bottom; play goes anticlockwise (CP-3): bottom, right, top, left. The
# top and bottom cards share the middle column; the side cards and their labels stay in the
# outer columns (x 11..113 and 227..329), so only the middle column is stacked by height.
_SEAT_X = {0: 142, 1: 250, 2: 142, 3: 34}
_TRICK_W = 340


def seat_names() -> dict[int, str]:
    """The trick table's seats by compass point (0 = South, at the bottom, then
    anticlockwise), in the active language."""
    return {0: _("South"), 1: _("East"), 2: _("North"), 3: _("West")}


def trick_svg(title: str, plays: list[TrickPlay], winner: int, trump: str, trump_label: str) -> str:
    """The trick table as an <svg role=img>: ``plays`` in the order played, ``winner``'s
    card marked (-1: none yet), and ``trump``'s pip under ``trump_label`` in the corner."""
    names = seat_names()
    # Seat name, then "wins" on a line of its own (never glued to the name: word order
    # differs between languages), then any note.
    labels: dict[int, list[tuple[str, int, int, str]]] = {}
    for play in plays:
        won = play.seat == winner
        lines = [(names[play.seat], 13, 700 if won else 400, "#fff")]
        if won:
            lines.append((_("Wins"), 12, 700, "#ffd54a"))
        if play.note:
            lines.append((play.note, 11, 400, "#ffe9a8"))
        labels[play.seat] = lines

    def block(seat: int, card_y: float) -> tuple[list[float], float]:
        # A trick still being played (the lessons draw those) has seats with no card yet.
        return _label_lines(card_y + CARD_H, [line[1] for line in labels.get(seat, [])])

    top_y = 20.0
    top_end = block(2, top_y)[1]
    bottom_y = top_end + 2 * _GAP
    side_y = (top_y + bottom_y) / 2
    ends = [block(0, bottom_y)[1], block(1, side_y)[1], block(3, side_y)[1]]
    height = round(max(ends) + 10)
    card_y = {0: bottom_y, 1: side_y, 2: top_y, 3: side_y}

    parts = [
        f'<rect x="1" y="1" width="{_TRICK_W - 2}" height="{height - 2}" rx="14" fill="#2f6b46"/>'
    ]
    for order, play in enumerate(plays, start=1):
        x, y = _SEAT_X[play.seat], card_y[play.seat]
        rank, suit = play.card[:-1], play.card[-1]
        parts.append(card(rank, suit, x, y, highlight=play.seat == winner))
        # The order the cards were played, in a small disc beside the card's top corner
        # (outside the card, so the number never sits on its border); the top card's disc
        # is on its right, away from the trump label in the top-left corner.
        cx, cy = (x + CARD_W + 13 if play.seat == 2 else x - 13), y + 11
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="10" fill="#fbf7f0" stroke="#1f1a14"/>'
            f'<text x="{cx:g}" y="{cy + 4:g}" text-anchor="middle" font-size="12" '
            f'font-family="{LATIN_FONT}" font-weight="700">{order}</text>'
        )
        baselines = block(play.seat, y)[0]
        for (text, size, weight, fill), baseline in zip(labels[play.seat], baselines, strict=True):
            parts.append(_text(x + CARD_W / 2, baseline, text, size, weight, fill))
    # The trump of the hand, in the free top-left corner.
    (trump_baseline,), trump_end = _label_lines(8, [12])
    parts.append(_text(70, trump_baseline, trump_label, 12, 400, "#fff"))
    parts.append(pip(trump, 58, trump_end + 4, 24).replace(f'fill="{BLACK}"', 'fill="#fff"'))
    return _svg(title, _TRICK_W, height, "".join(parts), "fig-trick")


def figure_trick_follow_suit() -> str:
    plays = [TrickPlay(0, "KS"), TrickPlay(1, "3S"), TrickPlay(2, "AS"), TrickPlay(3, "9S")]
    return trick_svg(_("A trick where everyone follows suit"), plays, 2, "H", _("Trump"))


def figure_trick_trump_cut() -> str:
    plays = [TrickPlay(0, "AS"), TrickPlay(1, "4S"), TrickPlay(2, "2H"), TrickPlay(3, "KS")]
    return trick_svg(_("A trick won with a trump"), plays, 2, "H", _("Trump"))


def figure_trick_off_suit() -> str:
    plays = [TrickPlay(0, "QD"), TrickPlay(1, "AC"), TrickPlay(2, "5D"), TrickPlay(3, "JD")]
    title = _("A trick where a card of another suit wins nothing")
    return trick_svg(title, plays, 0, "H", _("Trump"))


def figure_trick_hidden_reveal() -> str:
    plays = [
        TrickPlay(0, "7D"),
        TrickPlay(1, "KC", _("Before the reveal")),
        TrickPlay(2, "9D"),
        TrickPlay(3, "3C", _("Asked for the reveal")),
    ]
    return trick_svg(
        _("A Hidden Rung trick with the reveal"), plays, 3, "C", _("Rung after the reveal")
    )


# --- backgammon ----------------------------------------------------------------------------

# Points are numbered from the light player's side: light moves 24 -> 1 and bears off from
# its home board 1-6; dark moves 1 -> 24, home board 19-24.


@dataclass(frozen=True)
class BgPosition:
    light: dict[int, int]
    dark: dict[int, int]
    light_bar: int = 0
    dark_bar: int = 0
    light_off: int = 0
    dark_off: int = 0

    def __post_init__(self) -> None:
        for side, points, bar, off in (
            ("light", self.light, self.light_bar, self.light_off),
            ("dark", self.dark, self.dark_bar, self.dark_off),
        ):
            if sum(points.values()) + bar + off != 15:
                raise ValueError(f"{side} must have 15 checkers")
        if set(self.light) & set(self.dark):
            raise ValueError("a point holds checkers of one side only")


START = BgPosition(light={24: 2, 13: 5, 8: 3, 6: 5}, dark={1: 2, 12: 5, 17: 3, 19: 5})
# Light played 13/9*: the dark blot on light's 9-point went to the bar.
HIT = BgPosition(
    light={24: 2, 13: 4, 9: 1, 8: 3, 6: 5}, dark={1: 1, 12: 5, 17: 3, 19: 5}, dark_bar=1
)
# Light is on the bar and rolled a 3: it enters on dark's home-board point 22.
BAR_ENTRY = BgPosition(
    light={24: 2, 13: 4, 8: 3, 6: 5},
    dark={19: 3, 20: 2, 21: 2, 23: 2, 12: 4, 17: 2},
    light_bar=1,
)
# All light checkers are home; three are already off; a 5 bears off from the 5-point.
BEAR_OFF = BgPosition(
    light={6: 2, 5: 3, 4: 2, 3: 3, 2: 1, 1: 1},
    dark={19: 4, 20: 3, 22: 2, 24: 3, 17: 1, 18: 2},
    light_off=3,
)

_PW, _PH, _R = 26, 118, 11  # point width, point height, checker radius
_LEFT, _TOP, _BOTTOM = 12, 24, 296  # board inner edges
_BAR_X = _LEFT + 6 * _PW  # bar's left edge
_BAR_W = 26
_TRAY_X = _BAR_X + _BAR_W + 6 * _PW + 6
LIGHT, DARK = "#f6f1e7", "#2b2622"


def _point_x(point: int) -> float:
    """The centre x of a point (1..24)."""
    # Bottom row: 12 at the far left, 1 at the right; top row: 13 at the left, 24 at the right.
    col = 12 - point if point <= 12 else point - 13
    x = _LEFT + col * _PW + _PW / 2
    return x + (_BAR_W if col >= 6 else 0)


def _checker_y(point: int, index: int) -> float:
    if point <= 12:
        return _BOTTOM - _R - 1 - index * 2 * _R
    return _TOP + _R + 1 + index * 2 * _R


def _checker(x: float, y: float, light: bool, label: str = "") -> str:
    fill, stroke, ink = (LIGHT, "#3b332b", BLACK) if light else (DARK, "#000", "#fff")
    out = (
        f'<circle cx="{x:g}" cy="{y:g}" r="{_R}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="1.5"/>'
    )
    if label:
        out += (
            f'<text x="{x:g}" y="{y + 4:g}" text-anchor="middle" font-size="11" '
            f'font-family="{LATIN_FONT}" font-weight="700" fill="{ink}">{label}</text>'
        )
    return out


def _stack(point: int, count: int, light: bool) -> str:
    shown = min(count, 5)
    parts = [_checker(_point_x(point), _checker_y(point, i), light) for i in range(shown)]
    if count > 5:  # more than five: the top checker carries the number
        parts[-1] = _checker(_point_x(point), _checker_y(point, 4), light, str(count))
    return "".join(parts)


def _top_of(point: int, count: int) -> tuple[float, float]:
    return _point_x(point), _checker_y(point, max(0, min(count, 5) - 1))


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    """A curved arrow with its head drawn as a polygon (no marker ids to clash)."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2 - 40 if abs(y1 - y2) < 40 else (y1 + y2) / 2
    if abs(y1 - y2) >= 40:
        mx = (x1 + x2) / 2 + 30
    # Direction of the last segment, for the head.
    dx, dy = x2 - mx, y2 - my
    length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / length, dy / length
    hx, hy = x2 - ux * 12, y2 - uy * 12
    left = (hx - uy * 6, hy + ux * 6)
    right = (hx + uy * 6, hy - ux * 6)
    return (
        f'<path d="M{x1:g} {y1:g}Q{mx:g} {my:g} {hx:g} {hy:g}" fill="none" stroke="#1565c0" '
        f'stroke-width="3.5"/>'
        f'<polygon points="{x2:g},{y2:g} {left[0]:g},{left[1]:g} {right[0]:g},{right[1]:g}" '
        f'fill="#1565c0"/>'
    )


BOARD_W, BOARD_H = int(_TRAY_X + 40), 320


def board_body(pos: BgPosition, overlay: str = "") -> str:
    """A board's SVG elements (BOARD_W x BOARD_H, from the origin), without the <svg>, so
    another picture (the home page's) can place it among its own."""
    width = BOARD_W
    parts = [
        f'<rect x="0" y="0" width="{width}" height="320" rx="10" fill="#6b4a2b"/>',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{12 * _PW + _BAR_W}" height="{_BOTTOM - _TOP}" '
        f'fill="#e8d9b5"/>',
        f'<rect x="{_BAR_X}" y="{_TOP}" width="{_BAR_W}" height="{_BOTTOM - _TOP}" '
        f'fill="#57391f"/>',
        f'<rect x="{_TRAY_X}" y="{_TOP}" width="30" height="{_BOTTOM - _TOP}" fill="#57391f"/>',
    ]
    for point in range(1, 25):
        x = _point_x(point)
        colour = "#b5472f" if point % 2 else "#3f6e57"
        if point <= 12:
            tri = f"{x - _PW / 2:g},{_BOTTOM} {x + _PW / 2:g},{_BOTTOM} {x:g},{_BOTTOM - _PH}"
            ny = _BOTTOM + 16
        else:
            tri = f"{x - _PW / 2:g},{_TOP} {x + _PW / 2:g},{_TOP} {x:g},{_TOP + _PH}"
            ny = _TOP - 8
        parts.append(f'<polygon points="{tri}" fill="{colour}"/>')
        parts.append(
            f'<text x="{x:g}" y="{ny}" text-anchor="middle" font-size="10" '
            f'font-family="{LATIN_FONT}" fill="#fbf7f0">{point}</text>'
        )
    for point, count in pos.light.items():
        parts.append(_stack(point, count, light=True))
    for point, count in pos.dark.items():
        parts.append(_stack(point, count, light=False))
    bar_cx = _BAR_X + _BAR_W / 2
    for i in range(pos.light_bar):
        parts.append(_checker(bar_cx, 200 + i * 2 * _R, light=True))
    for i in range(pos.dark_bar):
        parts.append(_checker(bar_cx, 120 - i * 2 * _R, light=False))
    if pos.light_bar or pos.dark_bar:
        parts.append(
            f'<text x="{bar_cx:g}" y="{(_TOP + _BOTTOM) / 2 + 5:g}" text-anchor="middle" '
            f'font-size="11" fill="#fbf7f0">{escape(_("Bar"))}</text>'
        )
    for i in range(pos.light_off):
        parts.append(
            f'<rect x="{_TRAY_X + 3}" y="{_BOTTOM - 8 - i * 9}" width="24" height="7" rx="2" '
            f'fill="{LIGHT}" stroke="#3b332b"/>'
        )
    for i in range(pos.dark_off):
        parts.append(
            f'<rect x="{_TRAY_X + 3}" y="{_TOP + 1 + i * 9}" width="24" height="7" rx="2" '
            f'fill="{DARK}" stroke="#000"/>'
        )
    if pos.light_off or pos.dark_off:
        parts.append(
            f'<text x="{_TRAY_X + 15}" y="{(_TOP + _BOTTOM) / 2 + 5:g}" text-anchor="middle" '
            f'font-size="11" fill="#fbf7f0">{escape(_("Off"))}</text>'
        )
    parts.append(overlay)
    return "".join(parts)


def board_svg(title: str, pos: BgPosition, overlay: str = "") -> str:
    """A board as an <svg role=img> titled ``title`` (:func:`board_body`, then
    ``overlay`` drawn over it)."""
    return _svg(title, BOARD_W, BOARD_H, board_body(pos, overlay), "fig-board")


def svg_image(title: str, width: int, height: int, body: str, css_class: str) -> str:
    """An <svg role=img> titled `title` (unique title id), as every figure here is drawn."""
    return _svg(title, width, height, body, css_class)


def figure_bg_start() -> str:
    return board_svg(_("Backgammon: the starting position"), START)


def figure_bg_hit() -> str:
    x1, y1 = _top_of(13, 5)
    x2, y2 = _top_of(9, 1)
    bar_x = _BAR_X + _BAR_W / 2
    # Two arrows: light's checker moving in, the hit dark checker going to the bar.
    overlay = _arrow(x1, y1 + 14, x2, y2 - 14) + _arrow(x2 + 10, y2 - 8, bar_x, 132)
    return board_svg(_("Backgammon: hitting a blot"), HIT, overlay)


def figure_bg_bar_entry() -> str:
    bar_x = _BAR_X + _BAR_W / 2
    x2, y2 = _top_of(22, 1)
    return board_svg(
        _("Backgammon: entering from the bar"), BAR_ENTRY, _arrow(bar_x, 190, x2, y2 + 12)
    )


def figure_bg_bear_off() -> str:
    x1, y1 = _top_of(5, 3)
    return board_svg(
        _("Backgammon: bearing off"), BEAR_OFF, _arrow(x1, y1 - 14, _TRAY_X + 15, _BOTTOM - 50)
    )


FIGURES: dict[str, Callable[[], str]] = {
    "suits": figure_suits,
    "ranks": figure_ranks,
    "trick-follow-suit": figure_trick_follow_suit,
    "trick-trump-cut": figure_trick_trump_cut,
    "trick-off-suit": figure_trick_off_suit,
    "trick-hidden-reveal": figure_trick_hidden_reveal,
    "bg-start": figure_bg_start,
    "bg-hit": figure_bg_hit,
    "bg-bar-entry": figure_bg_bar_entry,
    "bg-bear-off": figure_bg_bear_off,
}


def render(name: str, lang: str) -> str:
    """The figure's SVG, every word in it in `lang`."""
    try:
        draw = FIGURES[name]
    except KeyError:
        raise ValueError(f"unknown figure {name!r}; known: {', '.join(FIGURES)}") from None
    with translation.override(lang):
        return draw()
