"""Following suit (CP-5, CP-6). Seat 3 calls hearts and leads; the learner is seat 0."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, MayI, PlayCard

LEADER = "KS AH 5H 3D 6C"
MINE = "QS 9S 4S 2H 7D JD 8C 3C 6D 5C TC 9D 4C"

LESSON = Lesson(
    slug="follow-suit",
    game="courtpiece",
    rules_page="rung",
    steps=(
        PlayCard(
            "follow-spade", Deal.of("rung", [MINE, "", "", LEADER], "call:H play:KS", dealer=2)
        ),
        PlayCard(
            "only-one",
            Deal.of(
                "rung",
                ["9S 2H 3H 7D JD 8C 3C 6D 5C TC 9D 4C KH", "", "", LEADER],
                "call:H play:KS",
                dealer=2,
            ),
        ),
        MayI(
            "no-trump-while-following",
            Deal.of("rung", [MINE, "", "", LEADER], "call:H play:KS", dealer=2),
            action="play:2H",
        ),
        MayI(
            "void-anything",
            Deal.of(
                "rung",
                ["2H 3H 7D JD 8C 3C 6D 5C TC 9D 4C KH QD", "", "", LEADER],
                "call:H play:KS",
                dealer=2,
            ),
            action="play:7D",
        ),
        PlayCard(
            "follow-diamond",
            Deal.of("rung", [MINE, "", "", "3D AH 5H KS 6C"], "call:H play:3D", dealer=2),
        ),
    ),
)
