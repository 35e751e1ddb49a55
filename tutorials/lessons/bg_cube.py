"""Backgammon: the doubling cube (BG-11). Take or drop is worked out by the engine over
every throw of a last-roll race (tutorials.steps.backgammon.BgTakeOrDrop)."""

from tutorials.steps.backgammon import BgCubeValue, BgMayI, BgTakeOrDrop
from tutorials.steps.base import Lesson

START = "4HPwATDgc/ABMA"

LESSON = Lesson(
    slug="bg-cube",
    game="backgammon",
    rules_page="backgammon",
    steps=(
        BgMayI("may-double", position=START, dice=((3, 1),), action="double"),
        BgCubeValue("cube-after-take", position=START, dice=((3, 1),), actions=("double", "take")),
        BgMayI(
            "no-redouble",
            position=START,
            dice=((3, 1),),
            actions=("double", "take"),
            action="double",
        ),
        BgCubeValue("drop-costs", position=START, dice=((3, 1),), actions=("double",), then="drop"),
        BgTakeOrDrop("sure-thing", position="AQAADAAAAAAAAA"),
        BgTakeOrDrop("two-big-checkers", position="AQAAgAEAAAAAAA"),
    ),
)
