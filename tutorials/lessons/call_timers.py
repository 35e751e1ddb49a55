"""The calling timer and passing to partner (CP-SS-4). A timeout is applied by the table
when the clock runs out; here the lesson applies it, as the table would."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, MayI, TrumpSuit, WhoIsToMove

# The first chooser's cards: the sixth (9D) is the card turned up if nobody calls.
FIRST = "AS KS 7S 4H 2D 9D 8C 3H 5D 6S 2S TC QC"

LESSON = Lesson(
    slug="call-timers",
    game="courtpiece",
    rules_page="single-sar",
    steps=(
        MayI("first-may-pass", Deal.of("single_sar", [FIRST, "", "", ""]), action="pass"),
        MayI("partner-may-not", Deal.of("single_sar", [FIRST, "", "", ""], "pass"), action="pass"),
        WhoIsToMove("timeout-passes", Deal.of("single_sar", [FIRST, "", "", ""], "timeout")),
        TrumpSuit("turned-card", Deal.of("single_sar", [FIRST, "", "", ""], "pass timeout")),
        WhoIsToMove("partner-leads", Deal.of("single_sar", [FIRST, "", "", "AH"], "pass call:H")),
    ),
)
