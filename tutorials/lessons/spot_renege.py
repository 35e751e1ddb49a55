"""Spotting a renege in a finished list of tricks (CP-10). Recorded games: the lists may
break the rules, so they are read by cp.find_reneges, not replayed. Seat 0 calls hearts."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import SpotRenege

HANDS = (
    "AS KS QS AH KH 2D 3D 4D 5C 6C 7C 8C 9C",
    "2S 3S 4S 2H 3H AD KD QD JD AC KC QC JC",
    "5S 6S 7S 4H 5H TD 9D 8D 7D TC 2C 3C 4C",
    "8S 9S TS 6H 7H JS 8H 9H TH JH QH 6D 5D",
)

LESSON = Lesson(
    slug="spot-renege",
    game="courtpiece",
    rules_page="rung",
    steps=(
        SpotRenege(
            "trumped-with-spade",
            hands=HANDS,
            history=(
                "0 call:H, 0 play:AS, 1 play:2S, 2 play:5S, 3 play:8S,"
                " 0 play:KS, 1 play:3S, 2 play:4H, 3 play:9S,"
                " 2 play:7S, 3 play:TS, 0 play:QS, 1 play:4S"
            ),
        ),
        SpotRenege(
            "discard-with-suit",
            hands=HANDS,
            history=(
                "0 call:H, 0 play:5C, 1 play:AC, 2 play:TD, 3 play:6D,"
                " 1 play:KC, 2 play:2C, 3 play:5D, 0 play:6C,"
                " 1 play:QC, 2 play:3C, 3 play:JS, 0 play:7C"
            ),
        ),
        SpotRenege(
            "trump-lead",
            hands=HANDS,
            history=(
                "0 call:H, 0 play:AH, 1 play:2H, 2 play:4H, 3 play:6H,"
                " 0 play:KH, 1 play:AD, 2 play:5H, 3 play:7H,"
                " 0 play:2D, 1 play:KD, 2 play:TD, 3 play:5D,"
                " 1 play:3H, 2 play:TC, 3 play:8H, 0 play:3D"
            ),
        ),
        SpotRenege(
            "late-proof",
            hands=HANDS,
            history=(
                "0 call:H, 0 play:2D, 1 play:AD, 2 play:7D, 3 play:5D,"
                " 1 play:KD, 2 play:8D, 3 play:8H, 0 play:3D,"
                " 1 play:QD, 2 play:9D, 3 play:6D, 0 play:4D"
            ),
        ),
    ),
)
