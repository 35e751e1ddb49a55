"""Backgammon: entering from the bar (BG-8)."""

from tutorials.steps.backgammon import BgCanMove, BgMove, BgPlay
from tutorials.steps.base import Lesson

ON_BAR = "tm3ABwDgc/ABUA"  # one of yours on the bar; dark holds your 19- to 23-points
ON_BAR_2 = "2Ab8BwDgc/ABUA"
BAR_BLOT_20 = "0HPwATDgc/ABUA"  # one of yours on the bar; a dark blot on your 20-point

LESSON = Lesson(
    slug="bg-bar",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgCanMove("closed-points", position=ON_BAR, dice=((6, 5),)),
        BgCanMove("one-number-enters", position=ON_BAR, dice=((6, 1),)),
        BgPlay(
            "enter-then-move",
            position=ON_BAR,
            dice=((6, 1),),
            choices=("bar/24 13/7", "13/7 13/12", "bar/19 24/23"),
        ),
        BgPlay(
            "enter-first",
            position=ON_BAR_2,
            dice=((5, 3),),
            choices=("bar/22 13/8", "13/10 13/8", "bar/20 6/3"),
        ),
        BgMove("enter-and-hit", position=BAR_BLOT_20, dice=((5, 3),), want="hit"),
    ),
)
