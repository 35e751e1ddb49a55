"""Be-Ranga (CP-BR-1): no call; the first card of a player who cannot follow fixes trump."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, PickWinner, PlayCard, TrumpSuit

LEAD = "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"  # you lead the ace of spades
NO_SPADES = "2H 3H 4H 5H 6H 7H 8H 9H TH 2D 3D 4D 5D"
NO_SPADES_2 = "JH QH KH AH 6D 7D 8D 9D TD JD QD KD AD"

LESSON = Lesson(
    slug="be-ranga",
    game="courtpiece",
    rules_page="be-ranga",
    steps=(
        TrumpSuit(
            "first-void-card", Deal.of("be_ranga", [LEAD, NO_SPADES, "", ""], "play:AS play:2H")
        ),
        PickWinner(
            "trump-in-its-own-trick",
            Deal.of("be_ranga", [LEAD, NO_SPADES, "3S", "4S"], "play:AS play:2H play:3S play:4S"),
        ),
        PickWinner(
            "later-cards-too",
            Deal.of(
                "be_ranga", [LEAD, NO_SPADES, "", NO_SPADES_2], "play:AS play:2H play:3S play:JH"
            ),
        ),
        TrumpSuit(
            "diamond-discard", Deal.of("be_ranga", [LEAD, NO_SPADES, "", ""], "play:AS play:2D")
        ),
        PlayCard("still-follow", Deal.of("be_ranga", [LEAD, NO_SPADES, "", ""], "play:AS play:2H")),
    ),
)
