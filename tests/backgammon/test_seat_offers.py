"""A waiting backgammon table's two seats as someone choosing one reads them: the colour
of its checkers, and whom it plays against."""

from __future__ import annotations

from django.utils import translation

from game.backgammon.render import seat_offers


def test_the_two_seats_by_colour_and_opponent() -> None:
    rows = [
        {"seat": 0, "player": "asma", "bot": False, "guest": False},
        {"seat": 1, "player": None, "bot": False, "guest": False},
    ]
    with translation.override("en"):
        light, dark = seat_offers(rows)
    assert (light["name"], light["text"]) == ("Light", "no opponent yet")
    assert (dark["name"], dark["text"]) == ("Dark", "against asma")
    with translation.override("ur"):
        assert seat_offers(rows)[1]["text"] == "مقابلہ asma سے"
