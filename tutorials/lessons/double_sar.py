"""Double Sar piles (CP-DS-1, CP-DS-4): the engine's pile and collected counts."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, HandOutcome

HANDS = [
    "AS KS QS 2H 3H 4D 5D 6D 7C 8C 9C TC JC",
    "2S 3S 4S 5H 6H 7D 8D 9D 2C 3C 4C 5C 6C",
    "6S 7S 8S AH KH TD JD QD KD AD QC KC AC",
    "",
]
FIRST = "call:S play:AS play:2S play:6S play:9S"  # you win the first trick
PARTNER = " play:2H play:5H play:AH play:4H"  # your partner wins the second


LESSON = Lesson(
    slug="double-sar",
    game="courtpiece",
    rules_page="double-sar",
    steps=(
        HandOutcome(
            "pile-after-one", Deal.of("double_sar", HANDS, FIRST), measure="pile", play_out=False
        ),
        HandOutcome(
            "two-in-a-row",
            Deal.of("double_sar", HANDS, FIRST + " play:KS play:3S play:7S play:TS"),
            measure="collected",
            play_out=False,
        ),
        HandOutcome(
            "partner-is-not-you",
            Deal.of("double_sar", HANDS, FIRST + PARTNER),
            measure="pile",
            play_out=False,
        ),
        HandOutcome(
            "partner-twice",
            Deal.of("double_sar", HANDS, FIRST + PARTNER + " play:KH play:7H play:3H play:6H"),
            measure="collected",
            play_out=False,
        ),
        HandOutcome(
            "ace-rule",
            Deal.of(
                "double_sar",
                HANDS,
                "call:S play:KS play:2S play:6S play:9S play:AS play:3S play:7S play:TS",
                ace_rule=True,
            ),
            measure="pile",
            play_out=False,
        ),
    ),
)
