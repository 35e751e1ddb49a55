"""Counting trumps (RULES.md "trump counting", CP-7). Seat 0 calls hearts and leads."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import CountTrumps, Deal

HANDS = (
    "AH KH 9H 2S 3D 4C 5C 6C 7C 8C 9C TC JC",
    "QH 2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
    "JH 3H AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
    "TH 4H 5H 6H 7H 8H 3S AC KC QC 2C 3C 2D",
)

LESSON = Lesson(
    slug="count-trumps",
    game="courtpiece",
    rules_page="rung",
    steps=(
        CountTrumps("before-play", Deal.of("rung", HANDS, "call:H"), seat=0),
        CountTrumps(
            "one-round", Deal.of("rung", HANDS, "call:H play:AH play:2H play:3H play:4H"), seat=0
        ),
        CountTrumps(
            "second-round",
            Deal.of(
                "rung",
                HANDS,
                "call:H play:AH play:2H play:3H play:4H play:KH play:QH play:JH play:5H",
            ),
            seat=0,
        ),
        CountTrumps(
            "mid-trick",
            Deal.of(
                "rung",
                HANDS,
                "call:H play:AH play:2H play:3H play:4H play:KH play:QH play:JH play:5H"
                " play:9H play:AS play:AD",
            ),
            seat=0,
        ),
    ),
)
