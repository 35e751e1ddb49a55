"""Calling trump from five cards, and the thirteenth card (CP-4, CP-11a, CP-RUNG-1)."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import ChooseAction, Deal, MayI, TrumpSuit

# The caller's cards in the order received: the first five, then eight more; the last
# one is the thirteenth card.
CALLER = "AS KS 7S 4H 2D 9C 8C 3H 5D 6S 2S TC QC"

LESSON = Lesson(
    slug="call-trump",
    game="courtpiece",
    rules_page="rung",
    steps=(
        ChooseAction(
            "which-suits",
            Deal.of("rung", [CALLER, "", "", ""]),
            choices=("call:S", "call:H", "call:D", "call:C"),
        ),
        ChooseAction("call-longest", Deal.of("rung", [CALLER, "", "", ""]), want="longest"),
        MayI("may-thirteenth", Deal.of("rung", [CALLER, "", "", ""]), action="thirteenth"),
        TrumpSuit("thirteenth-suit", Deal.of("rung", [CALLER, "", "", ""], "thirteenth")),
        MayI(
            "house-rule-off",
            Deal.of("rung", [CALLER, "", "", ""], thirteenth=False),
            action="thirteenth",
        ),
    ),
)
