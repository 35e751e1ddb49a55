"""The invite link is shown to the host of a private table only while a person could take a
seat: never at a table of bots only, nor once the table has started (issue 27)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game.tables import lifecycle
from tests.tables.live import owner

pytestmark = pytest.mark.django_db(transaction=True)


def _page(user: Any, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/en/play/{table_id}/").content.decode()


def test_a_private_table_with_an_empty_seat_shows_its_invite(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", private=True)
    html = _page(users[0], table.pk)
    assert "Invite link:" in html and table.invite in html


def test_no_invite_at_a_table_against_bots_only(users: list[Any]) -> None:
    table = lifecycle.create_table(
        owner=owner(users[0]), game="courtpiece", private=True, bots=[1, 2, 3]
    )
    table.refresh_from_db()
    assert table.status != "waiting"  # every seat filled: it started at once
    html = _page(users[0], table.pk)
    assert "Invite link:" not in html and table.invite not in html


def test_no_invite_once_the_host_started_with_bots(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="backgammon", private=True)
    assert "Invite link:" in _page(users[0], table.pk)
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    assert "Invite link:" not in _page(users[0], table.pk)
