"""The Court Piece replay page (game/courtpiece/templates/courtpiece/replay.html): one
number per trick, a trick's four cards on one row, and at the top who the hakim was and
where trump came from (a newcomer could tell neither)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from game.courtpiece.seats import Seats
from game.courtpiece.views import trump_origin
from game.models import Table
from game.tables.store import replay
from tests.courtpiece.play import bots_without_pause, play_out_first_hand  # noqa: F401
from tests.language import english_left

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

SEATS = Seats({"seat": 0, "seats": [
    {"seat": 0, "player": "asma", "bot": False},
    {"seat": 1, "player": None, "bot": True},
    {"seat": 2, "player": None, "bot": True},
    {"seat": 3, "player": None, "bot": True},
]})


def test_trump_origin_names_the_hakim_and_the_thirteenth_card() -> None:
    full = {"caller": 3, "trump": "S", "thirteenth_card": "4S",
            "history": [[3, "thirteenth"], [3, "play:6C"]]}
    with translation.override("en"):
        assert trump_origin(SEATS, full) == (
            "Hakim (who chose trump): Bot (West). Trump: Spades, the suit of the hakim's "
            "thirteenth card, the Four of Spades."
        )
        called = {"caller": 0, "trump": "H", "history": [[0, "call:H"]]}
        assert trump_origin(SEATS, called) == (
            "Hakim (who chose trump): You. Trump: Hearts, chosen from the hakim's hand."
        )
        assert trump_origin(SEATS, {"caller": None, "trump": None}) == ""
    for lang in ("ur", "hi"):
        with translation.override(lang):
            assert english_left(f"<p>{trump_origin(SEATS, full)}</p>", lang) == []


def test_replay_numbers_each_trick_once_and_says_the_hakim_at_the_top(client: Client) -> None:
    for _attempt in range(8):
        client.post("/en/play/now/")
        table = Table.objects.order_by("-pk").first()
        play_out_first_hand(table)
        if replay.load(table).hands[0].trick_count:
            break
    html = client.get(f"/en/play/{table.pk}/replay/1/").content.decode()
    top = re.search(r'<p class="replay-trump" data-testid="trump-origin">([^<]+)</p>', html)
    assert top is not None
    assert top.group(1).startswith("Hakim (")
    # above the hands and the tricks
    assert html.index("replay-trump") < html.index("replay-hands")
    # the list carries no number of its own: the heading's "Trick 1" is the only one
    css = (ROOT / "static" / "css" / "table.css").read_text(encoding="utf-8")
    rule = re.search(r"\.replay-tricks \{([^}]*)\}", css)
    assert rule is not None and "list-style: none" in rule.group(1)
    assert "Trick 1: won by" in html
    # the four cards of a trick stay on one row
    assert re.search(r"\.replay-tricks \.replay-trick \{[^}]*flex-wrap: nowrap", css)
    for lang in ("ur", "hi"):
        page = client.get(f"/{lang}/play/{table.pk}/replay/1/").content.decode()
        line = re.search(r'<p class="replay-trump"[^>]*>([^<]+)</p>', page)
        assert line is not None and english_left(line.group(0), lang) == []
