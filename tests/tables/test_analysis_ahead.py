"""Analyses computed ahead (game.tables.ahead) and claimed once (game.tables.analysis):
a hand's analysis is stored as soon as the hand ends on the real table path, before any
request; two that want it at once compute it once; a request that finds it being
computed waits for the row, or answers 503 with Retry-After; a dead computer's claim is
taken over. Transactional: the background thread and the racing threads use
connections of their own, which see only what is committed (this module also runs on
PostgreSQL: tests/tables/test_fastmoves_postgres.py)."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from game.courtpiece import doubledummy
from game.models import HandAnalysis, Table
from game.tables import ahead, analysis, due, fastmoves, lifecycle, moves, notices, presence
from game.tables.errors import TableError
from game.tables.store import replay, rows
from tests.tables.live import four_player_table, owner, run

pytestmark = pytest.mark.django_db(transaction=True)


def _table(user: Any) -> Table:
    table = lifecycle.create_table(
        game="courtpiece", owner=owner(user), bots=[1, 2, 3], variant="rung"
    )
    presence.seat_connected(table_id=table.pk, seat=0)
    return table


def _play_until_a_hand_ends(table: Table, player: Any) -> Any:
    """Moves through the table's own paths (the player's apply_action, the bots' and
    timers' deadlines) until the first hand is over (CP-RUNG-2: seven tricks decide)."""
    rng = random.Random(5)
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


def _on_loop(table_id: int, user: Any, action: str, version: int) -> Any:
    """The move as a socket plays it (game.tables.fastmoves), or its refusal."""

    async def body() -> Any:
        try:
            return await fastmoves.apply_action(
                table_id=table_id, owner=owner(user), action=action, expected_version=version
            )
        except (fastmoves.Fallback, TableError) as exc:
            return exc
        finally:
            await fastmoves.close_all()

    return run(body)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The real ``analysis.compute``, counted."""
    calls: list[int] = []
    real = analysis.compute

    def compute(pending: analysis.Pending) -> dict[str, Any]:
        calls.append(pending.hand)
        return real(pending)

    monkeypatch.setattr(analysis, "compute", compute)
    return calls


def test_the_analysis_is_stored_as_soon_as_the_hand_ends(
    users: list[Any], settings: Any, counted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TABLES_ANALYSIS_AHEAD = True
    table = _table(users[0])
    hand = _play_until_a_hand_ends(table, users[0])
    ahead.drain(timeout=120)
    # computed once, in the background, before any request: the hand's analysis, then
    # the knowable part of seat 0, the only seat a person holds (the bots' are not)
    assert counted == [1, 1]
    assert set(HandAnalysis.objects.values_list("part", flat=True)) == {"", "knowable:0"}
    mine = HandAnalysis.objects.get(table=table, hand=1, part="knowable:0").data
    assert mine["kind"] == "knowable" and mine["seat"] == 0
    row = HandAnalysis.objects.get(table=table, hand=1, part="")
    assert not analysis.is_claim(row.data)
    expected = {"hand": 1, "game": "courtpiece", "variant": "rung", **doubledummy.analyse(hand)}
    assert row.data == expected

    def no_solver(*args: Any) -> Any:
        raise AssertionError("the analysis computed ahead was computed again")

    monkeypatch.setattr(doubledummy, "solve", no_solver)
    answer = Client().get(f"/api/tables/{table.pk}/analysis?hand=1")
    assert answer.status_code == 200
    assert answer.json() == analysis.words(expected)  # the protocol's answer, exactly
    client = Client()
    client.force_login(users[0])
    knowable = client.get(f"/api/tables/{table.pk}/analysis?hand=1&knowable=1")
    assert knowable.status_code == 200 and knowable.json()["cards"] == mine["cards"]
    assert counted == [1, 1]  # both read from their rows


def test_no_analysis_ahead_when_it_is_off(
    users: list[Any], settings: Any, counted: list[int]
) -> None:
    settings.TABLES_ANALYSIS_AHEAD = False
    table = _table(users[0])
    _play_until_a_hand_ends(table, users[0])
    ahead.drain(timeout=120)
    assert counted == []
    assert not HandAnalysis.objects.exists()


def test_a_request_finding_the_hand_claimed_waits_for_it_and_computes_nothing(
    users: list[Any], counted: list[int]
) -> None:
    table = _table(users[0])
    _play_until_a_hand_ends(table, users[0])
    pending = analysis.stored_or_pending(table, 1)
    assert isinstance(pending, analysis.Pending)
    assert analysis.claim(pending)  # another process is computing it
    assert not analysis.claim(pending)  # so nobody else may

    answers: list[dict[str, Any]] = []
    asker = threading.Thread(
        target=lambda: answers.append(analysis.analysis(table.pk, 1, owner(users[0]), ""))
    )
    asker.start()
    data = analysis.compute(pending)  # the claimer's computation (one call)
    analysis.store(pending, data)
    asker.join(timeout=60)
    assert answers == [data]
    assert counted == [1]  # the waiting request computed nothing
    assert HandAnalysis.objects.filter(table=table, hand=1).count() == 1


def test_two_racing_requests_compute_once(users: list[Any], counted: list[int]) -> None:
    if connection.vendor != "postgresql":
        # The tests' in-memory SQLite shares one cache between threads, whose table locks
        # fail at once instead of waiting (no busy timeout): two writers cannot race.
        pytest.skip("two connections racing need PostgreSQL (test_fastmoves_postgres.py)")
    table = _table(users[0])
    _play_until_a_hand_ends(table, users[0])
    start = threading.Barrier(2)
    answers: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def ask() -> None:
        start.wait()
        try:
            answers.append(analysis.analysis(table.pk, 1, owner(users[0]), ""))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert len(answers) == 2 and answers[0] == answers[1]
    assert counted == [1]
    assert HandAnalysis.objects.filter(table=table, hand=1).count() == 1


def test_a_claim_not_stored_in_time_answers_503_then_a_stale_one_is_taken_over(
    users: list[Any], counted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(users[0])
    _play_until_a_hand_ends(table, users[0])
    pending = analysis.stored_or_pending(table, 1)
    assert isinstance(pending, analysis.Pending) and analysis.claim(pending)
    monkeypatch.setattr(analysis, "WAIT_SECONDS", 0.3)
    url = f"/api/tables/{table.pk}/analysis?hand=1"
    busy = Client().get(url)
    assert busy.status_code == 503
    assert busy.json()["code"] == "unavailable" and busy["Retry-After"] == "2"
    assert counted == []
    # The claimer died: once its claim is stale, the next request computes it.
    HandAnalysis.objects.filter(table=table, hand=1).update(
        created_at=timezone.now() - timedelta(seconds=analysis.STALE_SECONDS + 1)
    )
    answer = Client().get(url)
    assert answer.status_code == 200 and answer.json()["kind"] in ("double_dummy", "unsupported")
    assert counted == [1]
    assert not analysis.is_claim(HandAnalysis.objects.get(table=table, hand=1).data)


def test_a_failed_computation_releases_its_claim(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(users[0])
    _play_until_a_hand_ends(table, users[0])

    def broken(pending: analysis.Pending) -> dict[str, Any]:
        raise RuntimeError("the solver failed")

    monkeypatch.setattr(analysis, "compute", broken)
    assert ahead.run(table.pk, 1) is False
    assert not HandAnalysis.objects.exists()  # no claim left behind
    monkeypatch.undo()
    assert ahead.run(table.pk, 1) is True
    assert ahead.run(table.pk, 1) is False  # stored: not computed again


def test_a_hand_ending_on_the_loop_goes_to_the_thread_which_computes_it_ahead(
    users: list[Any], settings: Any, counted: list[int]
) -> None:
    # Four people playing: their common moves run on the loop (game.tables.fastmoves);
    # the one that ends the hand is handed to the thread's path before anything is
    # written, and that path has the analysis computed ahead.
    settings.TABLES_ANALYSIS_AHEAD = True
    table = four_player_table(users, variant="rung")
    rng = random.Random(3)
    on_loop = handed_over = 0
    while True:
        row = Table.objects.get(pk=table.pk)
        notices.notice(row, rows.seats_of(row))  # names cached, as at a table in play
        state = replay.load(row)
        if state.hands:
            break
        legal = [a for a in state.legal_actions() if a not in ("redeal", "claim")]
        action = rng.choice(legal or state.legal_actions())
        seat = state.to_move

        result = _on_loop(table.pk, users[seat], action, row.version)
        if isinstance(result, fastmoves.Fallback):
            handed_over += 1
            assert Table.objects.get(pk=table.pk).version == row.version  # nothing written
            moves.apply_action(table_id=table.pk, owner=owner(users[seat]), action=action,
                               expected_version=row.version)
        else:
            assert not isinstance(result, Exception), result
            on_loop += 1
            assert not replay.load(Table.objects.get(pk=table.pk)).hands  # no hand ended here
    assert on_loop > 10 and handed_over >= 1
    ahead.drain(timeout=120)
    assert counted == [1] * 5  # the hand's analysis, then each of the four people's part
    parts = set(HandAnalysis.objects.values_list("part", flat=True))
    assert parts == {"", "knowable:0", "knowable:1", "knowable:2", "knowable:3"}
    row = HandAnalysis.objects.get(table=table, hand=1, part="")
    assert not analysis.is_claim(row.data) and row.data["hand"] == 1


def test_at_most_max_queued_hands_wait_for_the_background_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pool's one thread is held by the first hand; the queue stops at MAX_QUEUED and
    # a hand past it is left for its first request (None), never queued without bound.
    release = threading.Event()
    monkeypatch.setattr(ahead, "run", lambda table_id, hand: release.wait(30))
    futures = [ahead.schedule(1, n) for n in range(1, ahead.MAX_QUEUED + 6)]
    try:
        assert all(f is not None for f in futures[: ahead.MAX_QUEUED])
        assert futures[ahead.MAX_QUEUED:] == [None] * 5
    finally:
        release.set()
        ahead.drain(timeout=30)
    assert ahead.schedule(1, 99) is not None  # room again once they are done
    ahead.drain(timeout=30)
