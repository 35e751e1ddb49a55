"""Who wins a trick (CP-7, CP-8). The caller (seat 0) leads; the learner is seat 0."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, PickWinner

LESSON = Lesson(
    slug="trick-winner",
    game="courtpiece",
    rules_page="rung",
    steps=(
        PickWinner(
            "highest-of-suit",
            Deal.of(
                "rung",
                ["KS AH 5H 3D 6C", "3S", "AS", "9S"],
                "call:H play:KS play:3S play:AS play:9S",
            ),
        ),
        PickWinner(
            "off-suit-wins-nothing",
            Deal.of(
                "rung",
                ["QD AH 5H 3C 6C", "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "5D", "JD"],
                "call:H play:QD play:AC play:5D play:JD",
            ),
        ),
        PickWinner(
            "trump-wins",
            Deal.of(
                "rung",
                ["AS AH 5H 3C 6C", "4S", "2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "KS"],
                "call:H play:AS play:4S play:2H play:KS",
            ),
        ),
        PickWinner(
            "small-trump",
            Deal.of(
                "rung",
                ["AD AH 5H 3C 6C", "4H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "2D", "KD"],
                "call:H play:AD play:4H play:2D play:KD",
            ),
        ),
        PickWinner(
            "trump-led",
            Deal.of(
                "rung",
                ["2H AS 5S 3D 6C", "AC KC QC JC TC 9C 8C 7C 2S 3S 4S 6S 7S", "KH", "QH"],
                "call:H play:2H play:AC play:KH play:QH",
            ),
        ),
    ),
)
