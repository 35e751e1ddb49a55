"""Hidden Rung (CP-HID-1..6): the face-down card, asking, trumping after asking, and the
caller revealing on a lead."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import ChooseAction, Deal, MayI, PlayCard, TrumpSuit

CALLER = "AS KS 7S 9H 2D 9D 8C 3H 5D 6S 2S TC QC"
NO_SPADES = "2H 4H 6D 7D 8D TD JD QD KD AD 3C 4C 5C"
ONE_SPADE = "3S 2H 4H 6D 7D 8D TD JD QD KD AD 4C 5C"
FOLLOW = [CALLER, "3S", "4S", "5S"]
ROUND = "hide:9H play:AS play:3S play:4S play:5S"

LESSON = Lesson(
    slug="hidden-rung",
    game="courtpiece",
    rules_page="hidden-rung",
    steps=(
        ChooseAction(
            "what-to-hide",
            Deal.of("hidden", [CALLER, "", "", ""]),
            choices=("hide:9H", "hide:AS", "hide:QC"),
        ),
        MayI(
            "void-may-ask",
            Deal.of("hidden", [CALLER, NO_SPADES, "", ""], "hide:9H play:AS"),
            action="ask",
        ),
        MayI(
            "holding-may-not-ask",
            Deal.of("hidden", [CALLER, ONE_SPADE, "", ""], "hide:9H play:AS"),
            action="ask",
        ),
        PlayCard(
            "must-trump-after-asking",
            Deal.of("hidden", [CALLER, NO_SPADES, "", ""], "hide:9H play:AS ask"),
        ),
        TrumpSuit(
            "after-reveal",
            Deal.of("hidden", [CALLER, NO_SPADES, "", ""], "hide:9H play:AS ask"),
            seat=2,
        ),
        MayI("caller-may-reveal", Deal.of("hidden", FOLLOW, ROUND), action="reveal"),
        PlayCard("lead-trump-after-reveal", Deal.of("hidden", FOLLOW, ROUND + " reveal")),
    ),
)
