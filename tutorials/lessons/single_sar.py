"""Single Sar and kot (CP-SS-2, -3, -5): the hand stops at seven tricks."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, HandOutcome, IsOver

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
WEAK = "2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
STRONG = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AH"
KINDS = ("win", "kot", "gone_kot")

LESSON = Lesson(
    slug="single-sar",
    game="courtpiece",
    rules_page="single-sar",
    steps=(
        IsOver("six-is-not-enough", Deal.of("single_sar", [SPADES, "", "", ""], "call:S", auto=24)),
        IsOver("ends-at-seven", Deal.of("single_sar", [SPADES, "", "", ""], "call:S", auto=28)),
        HandOutcome(
            "kot",
            Deal.of("single_sar", [SPADES, "", "", ""], "call:S"),
            measure="kind",
            kinds=KINDS,
        ),
        HandOutcome(
            "gone-kot",
            Deal.of("single_sar", [WEAK, STRONG, "", ""], "call:C"),
            measure="kind",
            kinds=KINDS,
        ),
        HandOutcome(
            "ordinary",
            Deal.of("single_sar", ["QS JH 9D 8C 2S", "", "", ""], "call:S"),
            measure="kind",
            kinds=KINDS,
        ),
        HandOutcome(
            "one-point", Deal.of("single_sar", [SPADES, "", "", ""], "call:S"), choices=(1, 7, 13)
        ),
    ),
)
