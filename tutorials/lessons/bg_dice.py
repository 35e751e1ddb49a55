"""Backgammon: using both dice, the higher die, doubles (BG-5, BG-6)."""

from tutorials.steps.backgammon import BgCanMove, BgMove, BgPlay
from tutorials.steps.base import Lesson

START = "4HPwATDgc/ABMA"

LESSON = Lesson(
    slug="bg-dice",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgPlay("both-numbers", position=START, dice=((5, 3),), choices=("8/3 6/3", "13/8", "6/1")),
        BgPlay(
            "only-one-fits",
            position="tu0MAMD/DwAACA",
            dice=((6, 1),),
            choices=("24/18", "24/23", "24/17"),
        ),
        BgPlay(
            "the-higher-die", position="7m7AAMD/DwAACA", dice=((6, 5),), choices=("24/18", "24/19")
        ),
        BgPlay(
            "doubles-four-times",
            position=START,
            dice=((4, 4),),
            choices=("13/9(2) 24/20(2)", "13/9 24/20", "13/1"),
        ),
        BgMove("double-on-the-board", position=START, dice=((4, 4),), want="point", point=5),
        BgCanMove("no-move-at-all", position="tu0GAMD/DwAACA", dice=((6, 1),)),
    ),
)
