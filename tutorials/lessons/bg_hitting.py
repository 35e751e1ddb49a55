"""Backgammon: hitting blots (BG-4, BG-7). Which plays hit is read from the engine: the
opponent's bar after the play."""

from tutorials.steps.backgammon import BgMove, BgPips, BgPlay
from tutorials.steps.base import Lesson

BLOT_ON_9 = "4DP4CDDgc/ABMA"  # a dark blot on your 9-point
BLOT_ON_11 = "4DP4AjDgc/ABMA"  # a dark blot on your 11-point
TWO_BLOTS = "4BN8BDHgc/ABMA"  # dark blots on your 9- and 4-points
BLOTS_10_4 = "4DN4AjHgc/ABMA"  # dark blots on your 10- and 4-points

LESSON = Lesson(
    slug="bg-hitting",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgPlay(
            "hit-a-blot",
            position=BLOT_ON_9,
            dice=((4, 2),),
            choices=("13/11 13/9*", "24/20 24/22", "6/2 6/4"),
            want="hit",
        ),
        BgPlay(
            "hit-on-the-way",
            position=BLOT_ON_11,
            dice=((2, 1),),
            choices=("13/11*/10", "24/22 24/23", "6/4 6/5"),
            want="hit",
        ),
        BgPlay(
            "two-blots",
            position=TWO_BLOTS,
            dice=((4, 4),),
            choices=("13/9*(2) 8/4*(2)", "6/2(4)", "24/16(2)"),
            want="hit",
        ),
        BgMove("hit-on-the-board", position=BLOTS_10_4, dice=((6, 3),), want="hit"),
        BgPips(
            "hit-checker-goes-back",
            position=BLOT_ON_9,
            dice=((4, 2),),
            actions=("roll", "move:13/11 13/9*"),
            side=0,
        ),
    ),
)
