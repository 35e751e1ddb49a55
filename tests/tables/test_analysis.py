"""GET /api/tables/<id>/analysis?hand=N (docs/TABLE_PROTOCOL.md, "Analysis"): the same
access as the hand's record, 404 until the hand is over, computed once and stored (the
second request reads the row and calls no solver), reasons in the asker's language."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from game.courtpiece import doubledummy, knowable
from game.models import HandAnalysis, Table
from game.tables import analysis, due, lifecycle, moves, presence
from game.tables.store import replay
from tests.tables.live import owner

pytestmark = pytest.mark.django_db


def _finish_first_hand(table: Table, player: Any) -> Any:
    rng = random.Random(2)
    table.refresh_from_db()
    while not replay.load(table).hands:
        match = replay.load(table)
        if table.seats.get(number=match.to_move).bot:
            due.fire(table.pk, table.version, Table.BOT)
        else:
            legal = [a for a in match.legal_actions() if a not in ("redeal", "claim")]
            moves.apply_action(table_id=table.pk, owner=owner(player),
                               action=rng.choice(legal or match.legal_actions()),
                               expected_version=table.version)
        table.refresh_from_db()
    return replay.load(table).hands[0]


def _table(user: Any, variant: str = "single_sar", **kwargs: Any) -> Table:
    table = lifecycle.create_table(
        game="courtpiece", owner=owner(user), bots=[1, 2, 3], variant=variant, **kwargs
    )
    presence.seat_connected(table_id=table.pk, seat=0)
    return table


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_not_over_is_404_then_the_double_dummy_analysis(users: list[Any]) -> None:
    table = _table(users[0])
    url = f"/api/tables/{table.pk}/analysis"
    client = Client()
    assert client.get(url + "?hand=1").status_code == 404  # not over yet
    assert client.get(url + "?hand=x").status_code == 400
    assert client.get(url + "?hand=0").status_code == 400
    assert client.get("/api/tables/999999/analysis?hand=1").status_code == 404
    hand = _finish_first_hand(table, users[0])
    answer = client.get(url + "?hand=1")
    assert answer.status_code == 200
    data = answer.json()
    assert data["hand"] == 1 and data["game"] == "courtpiece" and data["variant"] == "single_sar"
    if not hand.trump or not doubledummy.plays(hand):  # a redeal: nothing to judge
        assert data["kind"] == "unsupported"
        return
    assert data["kind"] == "double_dummy" and data["trump"] == hand.trump
    assert data["cards"] == doubledummy.analyse(hand)["cards"]
    for entry in data["cards"]:
        assert set(entry) == {"trick", "seat", "card", "best", "played", "cost", "best_cards"}
    assert client.get(url + "?hand=2").status_code == 404
    assert client.post(url + "?hand=1").status_code == 405


def test_the_analysis_is_stored_and_reused_without_the_solver(
    users: list[Any], monkeypatch: pytest.MonkeyPatch, django_assert_max_num_queries: Any
) -> None:
    table = _table(users[0], variant="rung")
    _finish_first_hand(table, users[0])
    url = f"/api/tables/{table.pk}/analysis?hand=1"
    first = Client().get(url).json()
    assert HandAnalysis.objects.filter(table=table, hand=1).count() == 1

    def no_solver(*args: Any) -> Any:
        raise AssertionError("the stored analysis was computed again")

    monkeypatch.setattr(doubledummy, "solve", no_solver)
    monkeypatch.setattr(analysis, "compute", no_solver)
    with django_assert_max_num_queries(4):  # the table, its seats, the stored row
        again = Client().get(url).json()
    assert again == first
    assert HandAnalysis.objects.count() == 1


def test_a_private_tables_analysis_is_for_its_players_host_and_invite_only(
    users: list[Any],
) -> None:
    table = _table(users[0], private=True, move_seconds=None)
    _finish_first_hand(table, users[0])
    url = f"/api/tables/{table.pk}/analysis?hand=1"
    stranger = _signed_in(users[1])
    assert stranger.get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert stranger.get(url + "&invite=wrong").status_code == 404
    assert not HandAnalysis.objects.exists()  # nothing computed for those refused
    assert _signed_in(users[0]).get(url).status_code == 200
    # once stored, the refusals stand
    assert stranger.get(url).status_code == 404
    assert stranger.get(url + f"&invite={table.invite}").status_code == 200


@pytest.mark.parametrize(
    ("lang", "word"), [("en", "hidden"), ("ur", "چھپا"), ("hi", "छिपा")]
)
def test_an_unsupported_hand_says_why_in_the_askers_language(
    users: list[Any], lang: str, word: str
) -> None:
    table = _table(users[0], variant="hidden")
    _finish_first_hand(table, users[0])
    url = f"/api/tables/{table.pk}/analysis?hand=1"
    data = Client().get(url + f"&lang={lang}").json()
    assert data["kind"] == "unsupported" and "why" not in data
    assert word in data["reason"], data["reason"]
    by_header = Client().get(url, headers={"Accept-Language": lang}).json()
    assert by_header["reason"] == data["reason"]


def test_the_knowable_part_is_the_askers_own_seat_and_stored(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(knowable, "SAMPLES", 2)  # fewer deals: the same code, quicker
    table = _table(users[0], variant="rung")
    hand = _finish_first_hand(table, users[0])
    url = f"/api/tables/{table.pk}/analysis?hand=1&knowable=1"
    watcher = Client().get(url).json()
    assert watcher["kind"] == "knowable" and watcher["seat"] is None and watcher["cards"] == []
    mine = _signed_in(users[0]).get(url).json()
    assert mine["kind"] == "knowable" and mine["seat"] == 0
    played = [a[5:] for s, a in hand.history if s == 0 and a.startswith("play:")]
    assert {c["card"] for c in mine["cards"]} <= set(played)
    assert all(c["seat"] == 0 for c in mine["cards"])
    assert HandAnalysis.objects.filter(table=table, hand=1, part="knowable:0").count() == 1
    # the everyone-answer carries no seat's verdicts
    assert "knowable" not in json.dumps(Client().get(url.replace("&knowable=1", "")).json())
    monkeypatch.setattr(analysis, "compute", None)  # a second compute would fail
    assert _signed_in(users[0]).get(url).json() == mine


def test_a_solver_failure_answers_503_and_stores_nothing(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(users[0], variant="rung")
    _finish_first_hand(table, users[0])

    def broken(*args: Any) -> Any:
        raise RuntimeError("the gnubg worker died")  # as bot.BotUnavailable would

    monkeypatch.setattr(analysis, "compute", broken)
    answer = Client().get(f"/api/tables/{table.pk}/analysis?hand=1")
    assert answer.status_code == 503 and answer.json()["code"] == "unavailable"
    assert not HandAnalysis.objects.exists()
