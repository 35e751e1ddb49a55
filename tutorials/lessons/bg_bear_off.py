"""Backgammon: bearing off (BG-9)."""

from tutorials.steps.backgammon import BgMove, BgPlay
from tutorials.steps.base import Lesson

SIX_LEFT = "dwcAAGgWAAAAAA"  # six of yours left: on the 6-, 5-, 3- and 2-points

LESSON = Lesson(
    slug="bg-bear-off",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgPlay(
            "exact-numbers",
            position="u7sNAAC72w0AAA",
            dice=((6, 5),),
            choices=("6/off 5/off", "6/1 5/off"),
        ),
        BgPlay(
            "higher-than-highest",
            position="u7sNAAC7GwAAAA",
            dice=((6, 5),),
            choices=("4/off(2)", "4/off 3/off", "4/2 3/off"),
        ),
        BgPlay(
            "move-inside",
            position="u7sNAAB25wAAAA",
            dice=((5, 1),),
            choices=("6/1 6/5", "6/off 4/3", "4/off 6/5"),
        ),
        BgPlay(
            "all-home-first",
            position="u7sNAAB2dxcAAA",
            dice=((6, 1),),
            choices=("7/6 6/off", "7/1 6/off", "6/off 6/5"),
        ),
        BgMove(
            "most-off-with-a-double",
            position=SIX_LEFT,
            dice=((3, 3),),
            want="most-off",
        ),
    ),
)
