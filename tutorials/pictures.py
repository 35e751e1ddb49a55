"""Pictures for lesson steps, drawn with the guide's own card and board drawing.

Everything that draws goes through guide.figures (card faces, the trick table, the
board), so a lesson looks like the rules pages; this module only turns an engine view
into the figures' inputs. The only import of guide.figures in the app is here, so if the
drawing moves, one line changes.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from game.courtpiece.words import card_name
from guide import figures as fig


def face(card: str) -> tuple[str, str]:
    """("10", "S") for "TS": ranks as printed on cards."""
    rank = "10" if card[0] == "T" else card[0]
    return rank, card[1]


def suit_name(suit: str) -> str:
    return fig.suit_names()[suit]


def card_label(card: str) -> str:
    # The live table's own card names: one phrase per rank, so that Urdu and Hindi make
    # the possessive agree with the rank (see game.courtpiece.words.card_name).
    return card_name(card)


def seat_name(seat: int, me: int) -> str:
    """The seat as the learner sees it: the learner always sits at the bottom (South)."""
    return fig.seat_names()[(seat - me) % 4]


def card_svg(card: str) -> str:
    """One card face, its own small SVG (inside a button, the button carries the name)."""
    rank, suit = face(card)
    body = fig.card(rank, suit, 2, 2)
    return (
        f'<svg class="card-face" viewBox="0 0 {fig.CARD_W + 4} {fig.CARD_H + 4}" '
        f'aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg" '
        f'direction="ltr">{body}</svg>'
    )


def trick_svg(cards: list[dict[str, Any]], me: int, winner: int | None, trump: str | None) -> str:
    """The trick table (guide.figures), turned so the learner sits at the bottom."""
    plays = [fig.TrickPlay((c["seat"] - me) % 4, face(c["card"])[0] + c["card"][1]) for c in cards]
    shown_winner = -1 if winner is None else (winner - me) % 4
    title = _("The cards on the table")
    if trump is None:
        # No trump yet (Hidden Rung before the reveal, Be-Ranga): no trump pip in the corner.
        svg = fig.trick_svg(title, plays, shown_winner, "S", "")
        corner_pip = fig.pip("S", 58, 40, 24).replace(f'fill="{fig.BLACK}"', 'fill="#fff"')
        return svg.replace(corner_pip, "")
    return fig.trick_svg(title, plays, shown_winner, trump, _("Trump"))


def board_svg(board: dict[str, Any], title: str) -> str:
    """A board from a backgammon view's `board` (the learner's side is light)."""
    points = board["points"]
    light = {i + 1: n for i, n in enumerate(points) if n > 0}
    dark = {i + 1: -n for i, n in enumerate(points) if n < 0}
    pos = fig.BgPosition(
        light=light,
        dark=dark,
        light_bar=board["bar"][0],
        dark_bar=board["bar"][1],
        light_off=board["off"][0],
        dark_off=board["off"][1],
    )
    return fig.board_svg(title, pos)
