"""When you may trump (CP-6, CP-7). Hearts are trump."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, MayI, PlayCard

VOID = "2H 3H QH 7D JD 8C 3C 6D 5C TC 9D 4C QD"  # no spades
HOLDS = "4S 2H 3H 7D JD 8C 3C 6D 5C TC 9D 4C QD"  # one spade

LESSON = Lesson(
    slug="when-to-trump",
    game="courtpiece",
    rules_page="rung",
    steps=(
        MayI(
            "void-may-trump",
            Deal.of("rung", [VOID, "", "", "KS AH 5H 3D 6C"], "call:H play:KS", dealer=2),
            action="play:2H",
        ),
        MayI(
            "holding-suit",
            Deal.of("rung", [HOLDS, "", "", "KS AH 5H 3D 6C"], "call:H play:KS", dealer=2),
            action="play:2H",
        ),
        MayI(
            "not-compulsory",
            Deal.of("rung", [VOID, "", "", "KS AH 5H 3D 6C"], "call:H play:KS", dealer=2),
            action="play:7D",
        ),
        PlayCard(
            "trump-to-win",
            Deal.of(
                "rung",
                [VOID, "AS 9H 8S 2D 2C", "7S", "6S"],
                "call:H play:AS play:7S play:6S",
                dealer=0,
            ),
            want="win",
        ),
        PlayCard(
            "over-trump",
            Deal.of(
                "rung",
                [VOID, "AS 4H 8S 2D 2C", "7S", "9H KD 3D 4D 5D 8D TD AD 6C 5H 6H 7H 7C"],
                "call:H play:AS play:7S play:9H",
                dealer=0,
            ),
            want="win",
        ),
    ),
)
