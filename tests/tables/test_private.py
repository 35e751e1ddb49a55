"""Private means private (docs/TABLE_PROTOCOL.md): a private table is a 404 to everyone
without its invite (its host and its seated players excepted) on every path: its page, the
API's summary, record, seats and the other writes, the replay, the summary, the .mat file,
the board, the socket (refused at the handshake). A stranger walking the ids finds nothing
private, whatever invite they try (a non-ASCII or malformed one is simply wrong, never a
500), and changes nothing (issue 26)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.models import Seat, Table
from game.tables import access, lifecycle
from tests.tables.live import four_player_table, guest_session, owner, run, session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)

BAD_INVITES = [None, "", "wrong", "é", "ünïcödé-ınvıte", "x" * 10_000, "../../", "\x00",
               "invite\u202e", "🂡"]
HAND = 1


def _tables(users: list[Any]) -> dict[str, Table]:
    guest = access.Owner(user=None, guest_key="guest-" + "k" * 20)  # guest_session()'s key
    made = {
        "public": lifecycle.create_table(owner=owner(users[0]), game="courtpiece", bots=[1, 2, 3]),
        "private_waiting": lifecycle.create_table(
            owner=owner(users[0]), game="courtpiece", private=True, move_seconds=None
        ),
        "private_playing": four_player_table(users, private=True),
        "private_backgammon": lifecycle.create_table(
            owner=owner(users[0]), game="backgammon", private=True, bots=[1]
        ),
        "private_of_a_guest": lifecycle.play_now(owner=guest, game="courtpiece"),
    }
    return {name: Table.objects.get(pk=t.pk) for name, t in made.items()}


def _state() -> list[tuple[Any, ...]]:
    """Everything a write could change: each table's version and status, who sits where."""
    tables = [(t.pk, t.version, t.status, t.private) for t in Table.objects.order_by("pk")]
    seats = list(Seat.objects.order_by("table_id", "number").values_list(
        "table_id", "number", "user_id", "guest_key", "bot"
    ))
    return [*tables, *seats]


def _gets(table_id: int, invite: str | None) -> list[str]:
    query = f"?invite={invite}" if invite is not None else ""
    amp = f"&invite={invite}" if invite is not None else ""
    return [
        f"/en/play/{table_id}/{query}",
        f"/en/play/{table_id}/seats/{query}",
        f"/en/play/{table_id}/replay/{HAND}/{query}",
        f"/en/play/{table_id}/summary/{HAND}/{query}",
        f"/en/play/{table_id}/replay/{HAND}/again/{query}",
        f"/en/play/{table_id}/replay/{HAND}/mat/{query}",
        f"/en/play/{table_id}/board/?version=0&steps={amp}",
        f"/api/tables/{table_id}{query}",
        f"/api/tables/{table_id}/record?hand={HAND}{amp}",
    ]


def _posts(table_id: int, invite: str | None) -> list[tuple[str, dict[str, Any], bool]]:
    """(url, body, as JSON) of every write a stranger could try."""
    form_invite = {"invite": invite} if invite is not None else {}
    return [
        (f"/en/play/{table_id}/sit/", {"seat": "1", **form_invite}, False),
        (f"/en/play/{table_id}/leave/", form_invite, False),
        (f"/en/play/{table_id}/start/", form_invite, False),
        (f"/en/play/{table_id}/replay/{HAND}/again/", {"with": "bots", **form_invite}, False),
        (f"/api/tables/{table_id}/seats/1", form_invite, True),
        (f"/api/tables/{table_id}/seed", {"client_seed": "mine"}, True),
        (f"/api/tables/{table_id}/leave", {}, True),
        (f"/api/tables/{table_id}/start", {}, True),
    ]


def _answers(client: Client, table_id: int, invite: str | None) -> list[tuple[str, int]]:
    out = []
    for url in _gets(table_id, invite):
        out.append((url, client.get(url).status_code))
    for url, body, as_json in _posts(table_id, invite):
        if as_json:
            answer = client.post(url, data=json.dumps(body), content_type="application/json")
        else:
            answer = client.post(url, body)
        out.append((url, answer.status_code))
        if url.startswith("/api/"):
            assert answer["Content-Type"] == "application/json", url
    return out


def _strangers(users: list[Any]) -> list[Client]:
    User = get_user_model()
    stranger = User.objects.create_user("stranger", password="pw")
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(stranger)
    return [Client(raise_request_exception=False), signed_in]


def test_a_stranger_walking_the_ids_finds_nothing_private(users: list[Any]) -> None:
    tables = _tables(users)
    private = {t.pk for t in tables.values() if t.private}
    assert len(private) == 4 and not tables["public"].private
    before = _state()
    last = max(t.pk for t in tables.values())
    for client, invites in zip(_strangers(users), [BAD_INVITES[:4], BAD_INVITES], strict=True):
        for table_id in range(1, last + 3):
            for invite in invites:
                answers = _answers(client, table_id, invite)
                if table_id in private or table_id > last:
                    wrong = [(url, status) for url, status in answers if status != 404]
                    assert wrong == [], (table_id, invite, wrong)
    assert _state() == before
    # The public table is there for the same stranger (the walk can tell).
    public = tables["public"].pk
    assert Client().get(f"/en/play/{public}/").status_code == 200
    assert Client().get(f"/api/tables/{public}").status_code == 200


def test_a_lone_surrogate_invite_in_a_json_body_is_simply_wrong(users: list[Any]) -> None:
    """json.loads makes a lone surrogate of "\\ud800", which str.encode refuses."""
    tables = _tables(users)
    client = _strangers(users)[1]
    for table in tables.values():
        answer = client.post(
            f"/api/tables/{table.pk}/seats/1", data='{"invite": "\\ud800"}',
            content_type="application/json",
        )
        assert answer.status_code == (409 if not table.private else 404), answer.content
        assert answer.json()["code"] in ("not_found", "conflict")


def test_its_host_players_and_invite_see_it(users: list[Any]) -> None:
    tables = _tables(users)
    waiting, playing = tables["private_waiting"], tables["private_playing"]
    host = Client()
    host.force_login(users[0])
    player = Client()
    player.force_login(users[2])
    invited = _strangers(users)[1]
    for client, table, invite in [
        (host, waiting, ""), (player, playing, ""), (invited, waiting, waiting.invite),
        (invited, playing, playing.invite),
    ]:
        query = f"?invite={invite}" if invite else ""
        assert client.get(f"/en/play/{table.pk}/{query}").status_code == 200
        assert client.get(f"/api/tables/{table.pk}{query}").status_code == 200
    # With the invite a stranger sits down (and only with it).
    url = f"/api/tables/{waiting.pk}/seats/1"
    assert invited.post(url, data="{}", content_type="application/json").status_code == 404
    seated = invited.post(url, data=json.dumps({"invite": waiting.invite}),
                          content_type="application/json")
    assert seated.status_code == 200 and seated.json()["your_seat"] == 1


def test_the_socket_of_a_private_table_is_refused_at_the_handshake(users: list[Any]) -> None:
    tables = _tables(users)
    stranger = get_user_model().objects.create_user("stranger", password="pw")
    cookie = session_cookie(stranger)
    _key, guest_cookie = guest_session()
    playing = tables["private_playing"]
    player_cookie = session_cookie(users[1])

    async def body() -> None:
        for table in tables.values():
            for invite in BAD_INVITES:
                extra = f"&invite={invite}" if invite is not None else ""
                comm = socket(table.pk, cookie, extra=extra)
                connected, _code = await comm.connect()
                assert connected == (not table.private), (table.pk, invite)
                await comm.disconnect()
        # The invite, a seat, or the guest who made it open it.
        for cookie_, table, extra in [
            (cookie, playing, f"&invite={playing.invite}"),
            (player_cookie, playing, ""),
            (guest_cookie, tables["private_of_a_guest"], ""),
        ]:
            comm = socket(table.pk, cookie_, extra=extra)
            assert (await comm.connect())[0]
            assert (await comm.receive_json_from(timeout=10))["type"] == "state"
            await comm.disconnect()

    run(body)
