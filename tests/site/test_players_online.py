""""Players online" on the home page counts the visitor reading it: a newcomer saw
"Players online 0" while on the page. The people at tables are counted from the seats'
``connections`` (every server process writes them to the database, so the figure is the
same whichever process answers); the visitor is added once, unless they are already one
of them (a table open in another tab)."""

from __future__ import annotations

import re

import pytest
from baithak import home
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from game.models import Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_figures() -> None:
    cache.delete(home.LIVE_CACHE_KEY)


def _players(client: Client, lang: str = "en") -> int:
    found = re.search(r'data-live="players">(\d+)<', client.get(f"/{lang}/").content.decode())
    assert found is not None
    return int(found.group(1))


def _playing() -> Table:
    return Table.objects.create(
        game="courtpiece", variant="rung", status=Table.PLAYING, seed_top="0" * 64,
        commitment="1" * 64, chain_length=8,
    )


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_a_first_visitor_on_an_empty_site_is_one_player_online(lang: str) -> None:
    assert _players(Client(), lang) == 1


def test_a_guest_at_a_table_in_another_tab_is_counted_once() -> None:
    guest = Client()
    guest.get("/en/")
    session = guest.session
    session["guest_key"] = "guest-at-a-table"
    session.save()
    table = _playing()
    seat = Seat.objects.create(table=table, number=0, guest_key="guest-at-a-table")
    assert _players(guest) == 1  # no socket open: the visitor alone
    Seat.objects.filter(pk=seat.pk).update(connections=1)
    cache.delete(home.LIVE_CACHE_KEY)
    assert _players(guest) == 1  # at the table and on the home page: one person
    assert _players(Client()) == 2  # another visitor sees them and themself


def test_a_signed_in_player_at_a_table_is_counted_once() -> None:
    user = get_user_model().objects.create_user("farah", password="x-very-long-pass")
    Seat.objects.create(table=_playing(), number=0, user=user, connections=1)
    Seat.objects.create(table=_playing(), number=1, bot=True, connections=1)  # never counted
    client = Client()
    client.force_login(user)
    assert _players(client) == 1
