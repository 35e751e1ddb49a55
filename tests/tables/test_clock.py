"""The clock's own path (``game.clock.fire_round``): bots decide concurrently, outside
any lock or transaction and off the sockets' database thread, and still every deadline
fires exactly once, also when two clocks race (two server processes, say)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.db import connection

from game import clock, services, state
from game.games import GAMES
from game.models import Action, Table

from .conftest import owner, run


def _tables_waiting_on_bots(users: list[Any], count: int) -> list[Table]:
    """Play-now tables (seat 0 a player, three bots) whose next move is a bot's."""
    tables: list[Table] = []
    while len(tables) < count:
        table = services.play_now(owner=owner(users[len(tables) % len(users)]))
        services.seat_connected(table_id=table.pk, seat=0)
        table.refresh_from_db()
        if table.deadline_kind == Table.BOT:
            tables.append(table)
    return tables


def test_two_racing_clocks_fire_each_bot_deadline_once(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock (two of them)
    tables = _tables_waiting_on_bots(users, 6)
    before = {t.pk: t.version for t in tables}

    async def body() -> None:
        await asyncio.gather(clock.fire_round(), clock.fire_round())

    run(body)
    for table in tables:
        table.refresh_from_db()
        rows = list(Action.objects.filter(table=table, number__gt=before[table.pk]))
        # Each round fires what was due once: the bot's move at this version, applied
        # once, whichever clock got there first; the log has no gap and no repeat.
        assert [r.number for r in rows] == list(
            range(before[table.pk] + 1, table.version + 1)
        )
        assert rows and rows[0].source == Action.BOT
        assert len({r.number for r in rows}) == len(rows)
        state.clear_cache()
        assert state.load(table).view(0)  # the log replays: every action was legal


def test_bots_think_outside_any_transaction_and_off_the_database_thread(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    tables = _tables_waiting_on_bots(users, 3)
    seen: list[tuple[str, bool]] = []
    spec = GAMES["courtpiece"]
    original = spec.bot_action

    def watched(game_state: Any, seat: int, options: dict[str, Any] | None = None) -> str:
        seen.append((threading.current_thread().name, connection.in_atomic_block))
        return original(game_state, seat, options)

    monkeypatch.setattr(type(spec), "bot_action", lambda self, *a: watched(*a))
    database_thread = threading.current_thread().name  # where the tests' DB calls run

    run(clock.fire_round)
    assert len(seen) >= len(tables)
    for thread, in_transaction in seen:
        assert thread.startswith("tables-bot") and thread != database_thread
        assert not in_transaction
    for table in tables:
        table.refresh_from_db()
        assert Action.objects.filter(table=table, source=Action.BOT).exists()


def test_a_decision_made_for_an_old_version_is_not_applied(users: list[Any]) -> None:
    [table] = _tables_waiting_on_bots(users, 1)
    due = services.Due(table.pk, table.version, Table.BOT)
    question = services.bot_question(due)
    assert question is not None
    choice = services.bot_choice(question)
    assert services.fire(table.pk, table.version, Table.BOT, choice)
    # The same decision again (a second clock that thought at the same time): refused.
    assert not services.fire(table.pk, due.version, Table.BOT, choice)
    assert services.bot_question(due) is None  # the table has moved on: nothing to ask
    assert Action.objects.filter(table=table, number=due.version + 1).count() == 1
