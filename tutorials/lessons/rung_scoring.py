"""Rung scoring: 7, 13 (court), 52 (baawan), 82 (biyasi) (CP-RUNG-2, -3, -5). Each hand
is played out by the engine; the points are the engine's result."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, HandOutcome

POINTS = (0, 7, 13, 52, 82)
SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
# The caller (seat 0) holds one club and twelve hearts; East holds the other twelve
# clubs and the ace of hearts, so the other team takes every trick.
WEAK = "2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
STRONG = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AH"
ORDINARY = ["AH KS 2C 3D 9H", "", "", ""]

LESSON = Lesson(
    slug="rung-scoring",
    game="courtpiece",
    rules_page="rung",
    steps=(
        HandOutcome("ordinary-win", Deal.of("rung", ORDINARY, "call:S"), choices=POINTS),
        HandOutcome("losers-score", Deal.of("rung", ORDINARY, "call:S"), team=1, choices=POINTS),
        HandOutcome("court", Deal.of("rung", [SPADES, "", "", ""], "call:S"), choices=POINTS),
        HandOutcome(
            "baawan", Deal.of("rung", [WEAK, STRONG, "", ""], "call:C"), team=1, choices=POINTS
        ),
        HandOutcome(
            "biyasi", Deal.of("rung", [SPADES, "", "", ""], "call:S claim"), choices=POINTS
        ),
    ),
)
