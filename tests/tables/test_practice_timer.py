"""A person alone with bots is not hurried: the "new table" forms' default timer gives a
table where every other seat is a bot no move timer when it is private, and the longest
timer offered when it is public (only a private table may play without one); a table with
a seat for a person keeps the usual timer. ``POST /api/tables`` is unchanged (its
``move_seconds`` means what docs/TABLE_PROTOCOL.md says). The rules' own calling timer
(docs/RULES.md CP-SS-4, CP-SS-4a) still runs at a practice table."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from game.models import Table
from game.tables import presence

pytestmark = pytest.mark.django_db(transaction=True)

CP = {"variant": "rung", "bots": ["1", "2", "3"], "spectators": "on", "bot_level": "medium"}
BG = {"bot": "on", "length": "1", "bot_level": "intermediate", "start": "standard",
      "auto_doubles": "0", "spectators": "on"}


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _made(client: Client, path: str, fields: dict[str, Any]) -> Table:
    answer = client.post(path, fields)
    assert answer.status_code == 302, answer.content.decode()[-1500:]
    return Table.objects.order_by("-pk").first()  # type: ignore[return-value]


@pytest.mark.parametrize("path", ["/en/play/new/", "/en/play/new/backgammon/"])
def test_the_forms_default_timer_is_the_no_hurry_choice(users: list[Any], path: str) -> None:
    form = _signed_in(users[0]).get(path).content.decode()
    select = form.split('name="move_seconds"', 1)[1].split("</select>", 1)[0]
    assert re.search(r'<option value="auto" selected>[^<]*no hurry against bots only', select)
    assert "seconds a move." in form  # what the default means, said under the field


@pytest.mark.parametrize(
    ("path", "fields", "relaxed"),
    [("/en/play/new/", CP, 90), ("/en/play/new/backgammon/", BG, 120)],
)
def test_a_table_against_bots_only_gets_no_timer_or_a_relaxed_one(
    users: list[Any], path: str, fields: dict[str, Any], relaxed: int
) -> None:
    client = _signed_in(users[0])
    form = {**fields, "move_seconds": "auto"}
    private = _made(client, path, {**form, "private": "on"})
    assert private.status == Table.PLAYING and private.move_seconds is None
    public = _made(client, path, form)
    assert not public.private and public.move_seconds == relaxed
    chosen = _made(client, path, {**fields, "move_seconds": "45"})
    assert chosen.move_seconds == 45  # a timer the player chose is theirs


def test_a_guest_alone_with_bots_is_not_hurried() -> None:
    guest = Client()
    table = _made(guest, "/en/play/new/", {**CP, "move_seconds": "auto"})
    assert table.host_guest and table.move_seconds == 90  # public: the relaxed timer


@pytest.mark.parametrize(
    ("path", "fields", "usual"),
    [
        ("/en/play/new/", {**CP, "bots": ["1", "3"]}, 30),
        ("/en/play/new/backgammon/", {k: v for k, v in BG.items() if k != "bot"}, 60),
    ],
)
def test_a_table_with_a_seat_for_a_person_keeps_the_usual_timer(
    users: list[Any], path: str, fields: dict[str, Any], usual: int
) -> None:
    table = _made(_signed_in(users[0]), path, {**fields, "move_seconds": "auto"})
    assert table.status == Table.WAITING and table.move_seconds == usual


def test_the_api_keeps_its_meaning(users: list[Any]) -> None:
    """POST /api/tables: no ``move_seconds`` is the API's own default (30 s), and null is
    refused for a public table, bots or not (docs/TABLE_PROTOCOL.md)."""
    client = _signed_in(users[0])
    body = {"game": "courtpiece", "variant": "rung", "bots": [1, 2, 3]}
    made = client.post("/api/tables", json.dumps(body), content_type="application/json")
    assert made.status_code == 201, made.content
    assert Table.objects.get(pk=made.json()["id"]).move_seconds == 30
    refused = client.post(
        "/api/tables", json.dumps({**body, "move_seconds": None}), content_type="application/json"
    )
    assert refused.status_code == 400


def test_cp_ss_4_the_calling_timer_still_runs_at_a_practice_table(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No move timer, but Single Sar's caller still has the rules' 20 s (10 s in a first
    game) to call (CP-SS-4, CP-SS-4a): the table's clock is the rules' one."""
    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_CALL_SECONDS, settings.TABLES_FIRST_CALL_SECONDS = 20, 10
    client = _signed_in(users[0])
    for n in range(12):
        table = _made(client, "/en/play/new/", {
            **CP, "variant": "single_sar", "private": "on", "move_seconds": "auto",
            "client_seed": f"practice{n}",
        })
        assert table.move_seconds is None
        presence.seat_connected(table_id=table.pk, seat=0)
        table.refresh_from_db()
        if table.deadline_kind == Table.CALL:
            break  # the person is the one to call
    else:
        pytest.fail("the person was never the first to call in twelve deals")
    assert (table.deadline_at - table.moved_at).total_seconds() in (10, 20)
