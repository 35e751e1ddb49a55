"""Hukum bidding and scoring (CP-HK-1..6)."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import ChooseAction, Deal, HandOutcome, MayI, WhoIsToMove

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
WEAK = "2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
STRONG = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AH"
ANY = ["", "", "", ""]

LESSON = Lesson(
    slug="hukum",
    game="courtpiece",
    rules_page="hukum",
    steps=(
        ChooseAction(
            "higher-number",
            Deal.of("hukum", ANY, "bid:8H"),
            choices=("bid:7S", "bid:8S", "bid:9S", "pass"),
        ),
        MayI("same-number", Deal.of("hukum", ANY, "bid:8H"), action="bid:8S"),
        WhoIsToMove("thirteen-ends", Deal.of("hukum", [SPADES, "", "", ""], "bid:13S")),
        WhoIsToMove("all-pass", Deal.of("hukum", ANY, "pass pass pass pass")),
        HandOutcome(
            "made", Deal.of("hukum", [SPADES, "", "", ""], "bid:13S"), choices=(7, 13, -26, 26)
        ),
        HandOutcome(
            "set",
            Deal.of("hukum", [WEAK, STRONG, "", ""], "bid:8C pass pass pass"),
            choices=(8, -8, -16, 0),
        ),
        HandOutcome(
            "other-team-unchanged",
            Deal.of("hukum", [WEAK, STRONG, "", ""], "bid:8C pass pass pass"),
            team=1,
            choices=(8, 16, 0, -16),
        ),
    ),
)
