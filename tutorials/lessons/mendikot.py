"""Mendi Coat tens (CP-MK-1, -2): every hand is played out by the engine; the tens each
team captured and the winner are its result."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, HandOutcome

ONE_TEN = ["TS TH TD TC AS", "", "", ""]
ALL_TENS = ["TS TH AS AH KS", "", "", ""]

LESSON = Lesson(
    slug="mendikot",
    game="courtpiece",
    rules_page="mendikot",
    steps=(
        HandOutcome("count-tens", Deal.of("mendikot", ONE_TEN), measure="tens"),
        HandOutcome("who-wins", Deal.of("mendikot", ONE_TEN), measure="winner"),
        HandOutcome("four-tens", Deal.of("mendikot", ALL_TENS), measure="tens"),
        HandOutcome(
            "mendikot", Deal.of("mendikot", ALL_TENS), measure="kind", kinds=("win", "mendikot")
        ),
    ),
)
