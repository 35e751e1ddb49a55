"""Cards drawn for the table: each face is the guide's own SVG (``guide.figures.card``),
one small ``<svg>`` per card, decorative (the button or image around it names it)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe

from game.courtpiece.words import card_name
from guide import figures

SUIT_ORDER = "SHDC"
RANK_ORDER = "AKQJT98765432"


def card_svg(code: str) -> SafeString:
    """One card face as its own small SVG (decorative: the button or image names it).

    Drawn left to right whatever the page's direction: on an Urdu page the inherited
    ``direction: rtl`` makes the rank's ``<text>`` end at its x instead of starting
    there, so the letter hung off the card's top-left corner (a newcomer's screenshot)."""
    rank = "10" if code[0] == "T" else code[0]
    face = figures.card(rank, code[1], 1, 1)
    return mark_safe(
        f'<svg class="card-face" viewBox="0 0 58 82" direction="ltr" aria-hidden="true" '
        f'focusable="false" xmlns="http://www.w3.org/2000/svg">{face}</svg>'
    )


def card_back_svg() -> SafeString:
    """The back of a card: it shows nothing, so it may be drawn for any seat."""
    return mark_safe(
        '<svg class="card-back" viewBox="0 0 58 82" direction="ltr" aria-hidden="true" '
        'focusable="false" xmlns="http://www.w3.org/2000/svg">'
        '<rect x="1" y="1" width="56" height="80" rx="6" '
        'fill="#7a2e2a" stroke="#5b5247"/><rect x="6" y="6" width="46" height="70" rx="4" '
        'fill="none" stroke="#e8c170" stroke-width="2"/><path d="M29 18L44 41L29 64L14 41Z" '
        'fill="none" stroke="#e8c170" stroke-width="2"/></svg>'
    )


def pip_svg(suit: str) -> SafeString:
    return mark_safe(
        '<svg class="pip" viewBox="0 0 100 100" direction="ltr" aria-hidden="true" '
        'focusable="false" '
        f'xmlns="http://www.w3.org/2000/svg">{figures.pip(suit, 0, 0, 100)}</svg>'
    )


def sort_hand(cards: list[str]) -> list[tuple[str, list[str]]]:
    """Cards grouped by suit (spades, hearts, diamonds, clubs), high to low in each."""
    groups: list[tuple[str, list[str]]] = []
    for suit in SUIT_ORDER:
        mine = sorted((c for c in cards if c[1] == suit), key=lambda c: RANK_ORDER.index(c[0]))
        if mine:
            groups.append((suit, mine))
    return groups


def card(code: str | None) -> dict[str, Any] | None:
    """A card for the templates: its code, its name in words and its face."""
    if not code:
        return None
    return {"code": code, "name": card_name(code), "svg": card_svg(code)}
