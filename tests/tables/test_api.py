"""The JSON HTTP API: docs/TABLE_PROTOCOL.md's shapes, CSRF, and 400/403/404/409 with
{"error": …} that change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from accounts.models import GameStats
from game.engine import courtpiece as cp
from game.engine import fair
from game.models import Seat, Table
from game.tables import due, lifecycle, moves, presence
from game.tables.store import replay
from tests.tables.live import owner

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> tuple[Client, str]:
    """A program's client: the csrftoken cookie from the login page, then signed in."""
    client = Client(enforce_csrf_checks=True)
    client.get("/en/accounts/login/")
    if user is not None:
        client.force_login(user)
        client.get("/en/accounts/login/")  # the login rotates the token
    return client, client.cookies["csrftoken"].value


def _post(client: Client, token: str | None, url: str, body: Any = None) -> Any:
    headers = {"X-CSRFToken": token} if token else {}
    return client.post(url, data=json.dumps(body or {}), content_type="application/json",
                       headers=headers)


def test_create_a_table_with_bots_answers_the_protocols_shape(users: list[Any]) -> None:
    client, token = _client(users[0])
    answer = _post(client, token, "/api/tables",
                   {"game": "courtpiece", "variant": "rung", "options": {"court": "first7"},
                    "private": False, "bots": [1, 2, 3]})
    assert answer.status_code == 201
    data = answer.json()
    assert {"id", "page", "socket", "seats", "status"} <= set(data)
    assert data["status"] == "playing"  # every seat filled: it starts at once
    assert data["socket"] == f"/ws/tables/{data['id']}/"
    assert [s["bot"] for s in data["seats"]] == [False, True, True, True]
    assert data["seats"][0]["player"] == "player0"
    got = client.get(f"/api/tables/{data['id']}").json()
    assert {"id", "game", "variant", "options", "seats", "status", "version"} <= set(got)
    assert got["options"] == {"court": "first7"} and got["version"] == 0
    assert {"seat", "player", "bot"} <= set(got["seats"][0])
    assert "seed_top" not in json.dumps(got)
    assert Table.objects.get(pk=data["id"]).seed_top not in json.dumps(got)


def test_post_without_the_csrf_header_is_refused_in_json(users: list[Any]) -> None:
    client, _token = _client(users[0])
    answer = _post(client, None, "/api/tables", {"bots": [1, 2, 3]})
    assert answer.status_code == 403 and "error" in answer.json()
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"variant": "whist"}, "unknown variant"),
        ({"options": {"redeal": "yes"}}, "bad value"),
        ({"options": {"colour": True}}, "unknown option"),
        ({"bots": [0]}, "bots"),
        ({"bots": [1, 1]}, "bots"),
        ({"bots": [4]}, "bots"),
        ({"move_seconds": None}, "private"),
        ({"move_seconds": 100000}, "move_seconds"),
        ({"target": 0}, "target"),
        ({"length": 3}, "length"),
        ({"nonsense": 1}, "unknown field"),
        ({"client_seed": "has spaces"}, "client seed"),
    ],
)
def test_bad_input_is_400_and_creates_nothing(users: list[Any], body: Any, words: str) -> None:
    client, token = _client(users[0])
    answer = _post(client, token, "/api/tables", body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert not Table.objects.exists()


def test_a_body_that_is_not_a_json_object_is_400(users: list[Any]) -> None:
    client, token = _client(users[0])
    for raw in ("not json", "[1]"):
        answer = client.post("/api/tables", data=raw, content_type="application/json",
                             headers={"X-CSRFToken": token})
        assert answer.status_code == 400 and "error" in answer.json()


def test_seats_start_and_their_errors(users: list[Any]) -> None:
    host, host_token = _client(users[0])
    table = _post(host, host_token, "/api/tables", {"bots": [3]}).json()
    url = f"/api/tables/{table['id']}"
    second, token = _client(users[1])
    assert _post(second, token, f"{url}/seats/1", {"client_seed": "mine-1"}).status_code == 200
    third, token3 = _client(users[2])
    assert _post(third, token3, f"{url}/seats/1").status_code == 409  # taken
    assert _post(third, token3, f"{url}/seats/9").status_code == 400
    assert _post(third, token3, f"{url}/start").status_code == 403  # not the host
    assert _post(third, token3, "/api/tables/9999/seats/2").status_code == 404
    assert _post(third, token3, f"{url}/seats/2").status_code == 200
    anonymous, anon_token = _client()
    answer = _post(anonymous, anon_token, f"{url}/seats/2")
    assert answer.status_code == 403 and answer.json()["code"] == "needs_account"
    started = _post(host, host_token, f"{url}/start")
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert _post(host, host_token, f"{url}/start").status_code == 409
    row = Table.objects.get(pk=table["id"])
    # The client seeds are fixed at the start; the one given is kept, the others chosen.
    assert row.client_seeds[1] == "mine-1" and all(row.client_seeds)
    assert not row.rated  # a bot at seat 3


def test_a_private_table_needs_its_invite(users: list[Any]) -> None:
    host, token = _client(users[0])
    created = _post(host, token, "/api/tables", {"private": True, "move_seconds": None}).json()
    assert created["invite"]
    url = f"/api/tables/{created['id']}/seats/1"
    guest, gtoken = _client(users[1])
    # Without its invite a private table is not there at all (docs/TABLE_PROTOCOL.md): 404.
    assert _post(guest, gtoken, url).status_code == 404
    assert _post(guest, gtoken, url, {"invite": "guess"}).status_code == 404
    assert guest.get(f"/api/tables/{created['id']}").status_code == 404
    with_invite = guest.get(f"/api/tables/{created['id']}?invite={created['invite']}").json()
    assert "invite" not in with_invite
    assert _post(guest, gtoken, url, {"invite": created["invite"]}).status_code == 200
    assert Seat.objects.get(table_id=created["id"], number=1).user == users[1]


def test_anonymous_may_read_and_play_bots_but_not_sit_with_people(users: list[Any]) -> None:
    client, token = _client()
    answer = _post(client, token, "/api/tables", {"bots": [1]})
    assert answer.status_code == 403 and answer.json()["code"] == "needs_account"
    answer = _post(client, token, "/api/tables", {"bots": [1, 2, 3]})
    assert answer.status_code == 201
    assert answer.json()["seats"][0]["guest"] and answer.json()["your_seat"] == 0
    assert client.get("/api/tables/12345").status_code == 404
    assert client.get("/api/tables").status_code == 200


def _finish_first_hand(table: Table, player: Any) -> None:
    rng = random.Random(2)
    table.refresh_from_db()
    while not replay.load(table).hands:
        match = replay.load(table)
        if table.seats.get(number=match.to_move).bot:
            due.fire(table.pk, table.version, Table.BOT)
        else:
            moves.apply_action(table_id=table.pk, owner=owner(player),
                                  action=rng.choice(match.legal_actions()),
                                  expected_version=table.version)
        table.refresh_from_db()


def test_a_private_tables_records_are_for_its_players_host_and_invite_only(
    users: list[Any],
) -> None:
    table = lifecycle.create_table(
        game="courtpiece",
        owner=owner(users[0]), bots=[1, 2, 3], variant="single_sar", private=True,
        move_seconds=None,
    )
    presence.seat_connected(table_id=table.pk, seat=0)
    _finish_first_hand(table, users[0])
    url = f"/api/tables/{table.pk}/record?hand=1"
    stranger, _t = _client(users[1])
    assert stranger.get(url).status_code == 404  # as if the table did not exist
    assert _client()[0].get(url).status_code == 404  # a guest neither
    assert stranger.get(url + "&invite=wrong").status_code == 404
    assert stranger.get(url + f"&invite={table.invite}").status_code == 200
    assert _client(users[0])[0].get(url).json()["hand"] == 1


def test_the_record_of_a_finished_hand_recomputes_its_deal(users: list[Any]) -> None:
    table = lifecycle.create_table(
        game="courtpiece", owner=owner(users[0]), bots=[1, 2, 3], variant="single_sar"
    )
    presence.seat_connected(table_id=table.pk, seat=0)  # the clock runs only with someone there
    client, _token = _client()
    url = f"/api/tables/{table.pk}/record"
    assert client.get(url + "?hand=1").status_code == 404  # not over yet
    assert client.get(url + "?hand=x").status_code == 400
    _finish_first_hand(table, users[0])
    data = client.get(url + "?hand=1").json()
    assert set(data) >= {"record", "server_seed", "commitment", "client_seeds", "counter"}
    assert data["counter"] == 0 and data["commitment"] == table.commitment
    assert fair.verify(data["server_seed"], data["commitment"])
    hand = cp.from_record(data["record"])
    assert [list(cards) for cards in hand.deal] == fair.deal(
        data["server_seed"], data["client_seeds"], 0
    )
    assert client.get(url + "?hand=2").status_code == 404


def test_fairness_the_commitment_is_public_before_seeds_are_fixed(users: list[Any]) -> None:
    host, token = _client(users[0])
    created = _post(host, token, "/api/tables", {}).json()
    row = Table.objects.get(pk=created["id"])
    assert created["commitment"] == row.commitment and not row.client_seeds
    assert row.commitment == fair.commitment(fair.chain(row.seed_top, row.chain_length)[0])
    seed_url = f"/api/tables/{row.pk}/seed"
    assert _post(host, token, seed_url, {"client_seed": "abc"}).status_code == 200
    assert _post(host, token, seed_url, {"client_seed": "a:b"}).status_code == 400
    _post(host, token, f"/api/tables/{row.pk}/start")
    row.refresh_from_db()
    assert row.client_seeds[0] == "abc" and row.commitment == created["commitment"]
    assert _post(host, token, seed_url, {"client_seed": "x"}).status_code == 409


def test_ratings_a_player_who_leaves_a_rated_match_is_recorded_as_abandoning(
    users: list[Any],
) -> None:
    from tests.tables.live import four_player_table

    table = four_player_table(users, variant="be_ranga", target=1)
    assert table.rated
    presence.seat_connected(table_id=table.pk, seat=0)
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    seat = Seat.objects.get(table=table, number=1)
    assert seat.bot and seat.abandoned_by == users[1] and seat.user is None
    rng = random.Random(4)
    table.refresh_from_db()
    while table.status == Table.PLAYING:
        match = replay.load(table)
        if match.to_move == 1:
            due.fire(table.pk, table.version, Table.BOT)
        else:
            moves.apply_action(table_id=table.pk, owner=owner(users[match.to_move]),
                                  action=rng.choice(match.legal_actions()),
                                  expected_version=table.version)
        table.refresh_from_db()
    rows = {r.user_id: r for r in GameStats.objects.filter(game="be_ranga")}
    assert rows[users[1].pk].abandoned == 1 and rows[users[1].pk].lost == 1
    assert all(rows[u.pk].played == 1 and rows[u.pk].abandoned == 0
               for u in (users[0], users[2], users[3]))


def test_a_table_nobody_sits_at_cannot_start(users: list[Any]) -> None:
    host, token = _client(users[0])
    created = _post(host, token, "/api/tables", {"bots": [2]}).json()
    assert _post(host, token, f"/api/tables/{created['id']}/leave").status_code == 200
    answer = _post(host, token, f"/api/tables/{created['id']}/start")
    assert answer.status_code == 409 and "nobody" in answer.json()["error"]
    assert Table.objects.get(pk=created["id"]).status == Table.WAITING
