"""Partner signals (RULES.md "signals"): the engine plays the trick out for every card,
so "keeps the trick for partner" and "cheapest winner" are its answers, not ours."""

from tutorials.steps.base import Lesson
from tutorials.steps.courtpiece import Deal, PlayCard

LESSON = Lesson(
    slug="partner-signals",
    game="courtpiece",
    rules_page="rung",
    steps=(
        PlayCard(
            "partner-winning",
            Deal.of(
                "rung",
                ["KS 9S 3S 7D JD 8C 3C 6D 5C TC 9D 4C 2H", "5S AH", "AS", "7S"],
                "call:H play:5S play:AS play:7S",
                dealer=0,
            ),
            want="partner",
        ),
        PlayCard(
            "win-cheaply",
            Deal.of(
                "rung",
                ["AS KS QS 4S 7D JD 8C 3C 6D 5C TC 9D 2H", "JS AH", "2S", "5S"],
                "call:H play:JS play:2S play:5S",
                dealer=0,
            ),
            want="cheap",
        ),
        PlayCard(
            "do-not-trump-partner",
            Deal.of(
                "rung",
                ["2H 3H QH 7D JD 8C 3C 6D 5C TC 9D 4C QD", "5S AH", "AS", "7S"],
                "call:H play:5S play:AS play:7S",
                dealer=0,
            ),
            want="partner",
        ),
        PlayCard(
            "weak-lead-take-high",
            Deal.of(
                "rung",
                ["QS 9S 5S 7D JD 8C 3C 6D 5C TC 9D 4C 2H", "", "4S AH", "8S"],
                "call:H play:4S play:8S",
                dealer=1,
            ),
            want="highest",
        ),
    ),
)
