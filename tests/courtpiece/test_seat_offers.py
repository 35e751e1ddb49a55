"""Each seat of a waiting Court Piece table as someone choosing it reads it: its compass
name, its partner across the table and its opponents either side (CP-3: play goes
anticlockwise, partners sit opposite)."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from game.courtpiece.seats import seat_offers


def _row(seat: int, player: str | None = None, bot: bool = False, guest: bool = False) -> Any:
    return {"seat": seat, "player": player, "bot": bot, "guest": guest, "connected": True}


def test_each_seat_names_its_partner_and_opponents() -> None:
    rows = [_row(0, "asma"), _row(1, bot=True), _row(2), _row(3, bot=True)]
    with translation.override("en"):
        offers = {o["seat"]: o for o in seat_offers(rows)}
    assert [offers[n]["name"] for n in range(4)] == ["South", "East", "North", "West"]
    assert offers[2]["text"] == "partner of asma, against two bots"
    assert offers[1]["text"] == "partner of a bot, against an empty seat and asma"
    assert offers[0]["text"] == "no partner yet, against two bots"


def test_a_table_with_only_its_host() -> None:
    rows = [_row(0, "asma"), _row(1), _row(2), _row(3)]
    with translation.override("en"):
        offers = {o["seat"]: o for o in seat_offers(rows)}
    assert offers[2]["text"] == "partner of asma, against two empty seats"
    assert offers[1]["text"] == "no partner yet, against an empty seat and asma"
    rows[3] = _row(3, "guest", guest=True)
    with translation.override("en"):
        offers = {o["seat"]: o for o in seat_offers(rows)}
    assert offers[2]["text"] == "partner of asma, against a guest and an empty seat"


def test_the_offers_in_urdu_and_hindi() -> None:
    rows = [_row(0, "asma"), _row(1, bot=True), _row(2), _row(3, bot=True)]
    with translation.override("ur"):
        north = seat_offers(rows)[2]
    assert north["name"] == "شمال" and "asma" in north["text"] and "بوٹ" in north["text"]
    with translation.override("hi"):
        north = seat_offers(rows)[2]
    assert north["name"] == "उत्तर" and "asma" in north["text"] and "बॉट" in north["text"]
