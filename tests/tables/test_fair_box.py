"""The fair deal in the player's hands (issue 27): before the first card the table page
shows the commitment (short, and whole on demand) and the player's own seed, which a
seated player may change until the start; the seed they chose deals the cards (the
recipe of docs/TABLES.md "Fairness"); bad seeds are refused and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game.engine import fair
from game.models import Seat, Table
from game.tables import lifecycle
from game.tables.store import replay
from tests.tables.live import owner

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _box(html: str) -> str:
    return html.split('id="fair-box"', 1)[1].split("</details>", 1)[0]


def test_a_waiting_table_shows_the_promise_and_the_players_seed(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", private=True)
    seed = Seat.objects.get(table=table, number=0).client_seed
    assert lifecycle.CLIENT_SEED.fullmatch(seed)  # one is chosen for them, to change
    box = _box(_client(users[0]).get(f"/en/play/{table.pk}/").content.decode())
    assert f">{table.commitment[:12]}…</code>" in box
    assert f">{table.commitment}</code>" in box  # in full, on demand
    assert f'data-testid="my-seed">{seed}</code>' in box
    assert f'action="/en/play/{table.pk}/seed/"' in box and 'name="seed"' in box


def test_the_seed_a_player_chooses_deals_the_cards(users: list[Any]) -> None:
    host, friend = users[0], users[1]
    table = lifecycle.create_table(owner=owner(host), game="courtpiece", variant="rung")
    lifecycle.take_seat(table_id=table.pk, owner=owner(friend), seat=2)
    response = _client(friend).post(f"/en/play/{table.pk}/seed/", {"seed": "my-own_seed42"})
    assert response.status_code == 302
    assert Seat.objects.get(table=table, number=2).client_seed == "my-own_seed42"
    box = _box(_client(friend).get(f"/en/play/{table.pk}/").content.decode())
    assert 'data-testid="my-seed">my-own_seed42</code>' in box
    lifecycle.start_table(table_id=table.pk, owner=owner(host))
    table.refresh_from_db()
    assert table.client_seeds[2] == "my-own_seed42"
    first_seed = fair.chain(table.seed_top, table.chain_length)[0]
    assert fair.commitment(first_seed) == table.commitment
    expected = fair.deal(first_seed, table.client_seeds, 0)
    assert [list(h) for h in replay.load(table).hand.deal] == expected
    # Started: the seed shows, fixed; no form any more.
    box = _box(_client(friend).get(f"/en/play/{table.pk}/").content.decode())
    assert 'data-testid="my-seed">my-own_seed42</code>' in box and "<form" not in box


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "ünï", "a:b"])
def test_a_bad_seed_is_refused_and_changes_nothing(users: list[Any], bad: str) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece")
    before = Seat.objects.get(table=table, number=0).client_seed
    response = _client(users[0]).post(f"/en/play/{table.pk}/seed/", {"seed": bad})
    assert response.status_code == 400
    assert "1 to 64" in response.content.decode()
    assert Seat.objects.get(table=table, number=0).client_seed == before


def test_seeds_are_fixed_once_the_table_starts(users: list[Any]) -> None:
    table = lifecycle.play_now(owner=owner(users[0]))
    assert table.status == Table.PLAYING
    response = _client(users[0]).post(f"/en/play/{table.pk}/seed/", {"seed": "late"})
    assert response.status_code == 409
    table.refresh_from_db()
    assert "late" not in table.client_seeds


def test_only_a_seated_player_sets_a_seed(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece")
    response = _client(users[1]).post(f"/en/play/{table.pk}/seed/", {"seed": "intruder"})
    assert response.status_code in (403, 409, 400)
    assert not Seat.objects.filter(table=table, client_seed="intruder").exists()
    spectator = _box(_client(users[1]).get(f"/en/play/{table.pk}/").content.decode())
    assert table.commitment in spectator and "my-seed" not in spectator


@pytest.mark.parametrize(("path", "fields"), [
    ("/en/play/new/", {"variant": "be_ranga", "bots": ["1", "2", "3"],
                                  "move_seconds": "30", "spectators": "on"}),
    ("/en/play/new/backgammon/", {"bot": "on", "length": "1", "move_seconds": "30",
                                  "bot_level": "intermediate", "start": "standard",
                                  "auto_doubles": "0", "spectators": "on"}),
])
def test_a_table_against_bots_takes_the_players_seed_from_the_form(
    users: list[Any], path: str, fields: dict[str, Any]
) -> None:
    """Such a table starts the moment it is made: the form is where the seed is chosen."""
    client = _client(users[0])
    form = client.get(path).content.decode()
    assert 'name="client_seed"' in form
    answer = client.post(path, {**fields, "client_seed": "from-the-form"})
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    table = Table.objects.get()
    assert table.status == Table.PLAYING and table.client_seeds[0] == "from-the-form"
    refused = client.post(path, {**fields, "client_seed": "not a seed"})
    assert refused.status_code == 200 and "A seed is 1 to 64" in refused.content.decode()
    assert Table.objects.count() == 1
