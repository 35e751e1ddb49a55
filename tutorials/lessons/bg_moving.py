"""Backgammon: moving (BG-3, BG-4) and counting pips, from the start position."""

from tutorials.steps.backgammon import BgMove, BgPips, BgPlay
from tutorials.steps.base import Lesson

START = "4HPwATDgc/ABMA"

LESSON = Lesson(
    slug="bg-moving",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgPlay(
            "make-a-point",
            position=START,
            dice=((3, 1),),
            choices=("8/5 6/5", "13/10 24/21", "6/3 6/5 8/7"),
        ),
        BgPlay(
            "blocked-point",
            position=START,
            dice=((6, 5),),
            choices=("24/18 24/19", "24/13", "13/7 13/8"),
        ),
        BgPlay(
            "one-checker-both-dice",
            position=START,
            dice=((5, 1),),
            choices=("24/18", "24/19 24/23", "13/12 24/23"),
        ),
        BgMove("move-by-hand", position=START, dice=((6, 1),), want="point", point=7),
        BgPips("count-start", position=START, dice=((2, 1),)),
    ),
)
