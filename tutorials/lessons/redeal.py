"""Asking for a redeal (CP-RUNG-1, CP-RUNG-5a)."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, HandOutcome, MayI

LOW = "TS 9H 8D 7C 2S"  # nothing above a ten

LESSON = Lesson(
    slug="redeal",
    game="courtpiece",
    rules_page="rung",
    steps=(
        MayI("low-five", Deal.of("rung", [LOW, "", "", ""]), action="redeal"),
        MayI("jack-in-five", Deal.of("rung", ["TS 9H JD 7C 2S", "", "", ""]), action="redeal"),
        HandOutcome(
            "redeal-points",
            Deal.of("rung", [LOW, "", "", ""], "redeal"),
            choices=(0, 7, 13),
            play_out=False,
        ),
        MayI("house-rule-off", Deal.of("rung", [LOW, "", "", ""], redeal=False), action="redeal"),
    ),
)
