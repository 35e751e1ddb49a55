"""Why a card of the player's hand may not be played now, in words: what a tap on a dimmed
card says at the table ("You must follow hearts") instead of nothing.

Worked out from the seat's own view, as the rest of the table is: the engine refuses an
illegal card with its reason in English (``Hand._why_play``: follow suit, CP-5; a trump
after asking for the reveal, CP-HID-5; a trump led after revealing, CP-HID-6), and each
reason here is one of those, said in the player's language (tests/courtpiece/
test_refusals.py plays hands and checks every refused card against the engine's reason).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from game.courtpiece.seats import Seats
from game.courtpiece.words import suit_name

# The kinds of refusal, each matching one of the engine's reasons.
FOLLOW, TRUMP_AFTER_ASK, LEAD_TRUMP, NOT_YOUR_TURN, NOT_YET, NOT_HIDDEN = (
    "follow", "trump_after_ask", "lead_trump", "not_your_turn", "not_yet", "not_hidden",
)  # fmt: skip


def refusal_kind(view: dict[str, Any], me: int | None, legal: list[str], code: str) -> str:
    """Which refusal applies to card ``code`` of seat ``me``'s hand; "" if it may be
    played (or hidden) now, or the hand is over."""
    phase = view.get("phase")
    if me is None or phase in (None, "over") or f"play:{code}" in legal or f"hide:{code}" in legal:
        return ""
    if view.get("to_move") != me:
        return NOT_YOUR_TURN
    if any(a.startswith("hide:") for a in legal):
        return NOT_HIDDEN  # CP-HID-1: one of the first five goes face down
    if phase != "play":
        return NOT_YET  # calling or bidding: no card is played yet (CP-4)
    led = view.get("led")
    if view.get("trick") and led:
        held = [str(c) for c in view.get("hand") or []]
        if any(c[1] == led for c in held) and code[1] != led:
            return FOLLOW  # CP-5
        return TRUMP_AFTER_ASK  # CP-HID-5
    return LEAD_TRUMP  # CP-HID-6


def refusal_text(kind: str, view: dict[str, Any], seats: Seats) -> str:
    """The words for one kind of refusal, in the active language."""
    if not kind:
        return ""
    trump = view.get("trump")
    trump_name = suit_name(trump) if trump else ""
    if kind == FOLLOW:
        return _("You must follow %(suit)s.") % {"suit": suit_name(str(view.get("led")))}
    if kind == TRUMP_AFTER_ASK:
        return _("You asked to see the trump, so you must play a trump (%(suit)s).") % {
            "suit": trump_name
        }
    if kind == LEAD_TRUMP:
        return _("After showing the trump you must lead a trump (%(suit)s).") % {"suit": trump_name}
    if kind == NOT_HIDDEN:
        return _("Place one of your first five cards face down first.")
    if kind == NOT_YET:
        if view.get("phase") == "bid":
            return _("Cards are played once the bidding is over.")
        return _("Cards are played once trump is chosen.")
    to_move = view.get("to_move")
    if to_move is None:
        return ""
    return _("Not your turn yet: %(who)s is to move.") % {"who": seats.name(int(to_move))}
