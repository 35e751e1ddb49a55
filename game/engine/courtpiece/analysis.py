"""Helpers the lessons, replays and the table share: renege detection and trump counting."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import CARD_STR, RANKS, SUITS, card_index
from .rules import Rules


def find_reneges(
    history: Sequence[Sequence[Any]],
    deal: Sequence[Sequence[str]],
    rules: Rules | None = None,
) -> list[tuple[int, int, str]]:
    """Every (trick_no, seat, card) where a player did not follow suit while able to (CP-10).

    ``history`` is ``(seat, action)`` pairs as in ``Hand.history`` and may hold plays the
    engine would refuse (a recorded physical game). Trick numbers start at 0. A card hidden
    face down in Hidden Rung does not count for following suit until it is revealed
    (CP-HID-2); pass ``rules`` so that a blind card placed after two timeouts (CP-HID-7) is
    recognised too.
    """
    holdings = [{card_index(c) for c in row} for row in deal]
    face_down: dict[int, int] = {}
    timeouts = 0
    first_chooser: int | None = None
    trick: list[tuple[int, int]] = []
    trick_no = 0
    found: list[tuple[int, int, str]] = []
    for seat, action in history:
        if first_chooser is None:
            first_chooser = seat
        kind, _, arg = str(action).partition(":")
        if kind == "hide":
            card = card_index(arg)
            holdings[seat].discard(card)
            face_down[seat] = card
        elif kind == "timeout":
            timeouts += 1
            if timeouts == 2 and rules is not None and rules.calling.hides:
                card = card_index(deal[first_chooser][5])
                holdings[first_chooser].discard(card)
                face_down[first_chooser] = card
        elif kind in ("ask", "reveal"):
            for owner, card in face_down.items():
                holdings[owner].add(card)
            face_down.clear()
        elif kind == "play":
            card = card_index(arg)
            if trick:
                led = trick[0][1] // 13
                if card // 13 != led and any(c // 13 == led for c in holdings[seat]):
                    found.append((trick_no, seat, CARD_STR[card]))
            holdings[seat].discard(card)
            trick.append((seat, card))
            if len(trick) == 4:
                trick = []
                trick_no += 1
    return found


def trumps_out(view: Mapping[str, Any]) -> list[str]:
    """Trumps that seat has not yet seen, high to low, as a player counts them.

    A player counts their own trumps and every trump that has fallen (plus any trump card
    shown to the table). Returns [] while that seat does not know the trump suit.
    """
    trump = view.get("trump")
    hidden = view.get("hidden") or {}
    if trump is None and hidden.get("card"):
        trump = hidden["card"][1]  # the Hidden Rung caller knows the suit they hid
    if trump is None:
        return []
    seen: set[str] = set(view.get("hand") or [])
    for trick in view.get("completed_tricks") or []:
        seen.update(entry["card"] for entry in trick["cards"])
    seen.update(entry["card"] for entry in view.get("trick") or [])
    for key in ("thirteenth_card", "turned_card"):
        if view.get(key):
            seen.add(view[key])
    for opened in view.get("open_hands") or []:
        seen.update(opened["cards"])
    if hidden.get("card"):
        seen.add(hidden["card"])
    assert trump in SUITS
    return [r + trump for r in reversed(RANKS) if r + trump not in seen]
