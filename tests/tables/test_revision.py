"""Table.revision moves forward on every write of a table row or one of its seats, by
the database's own triggers (game/migrations/0004_revision.py): game.fastmoves writes a
move played from rows held in memory only if the revision is still the one it saw, so a
write that skipped it could let a stale seat move. Runs on SQLite here and on the real
PostgreSQL through tests/tables/test_fastmoves_postgres.py."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from game.models import Seat, Table
from game.tables import due, moves, presence
from game.tables.store import replay, rows
from tests.tables.live import four_player_table, owner


def _revision(table: Table) -> int:
    return int(Table.objects.values_list("revision", flat=True).get(pk=table.pk))


def test_the_triggers_are_in_the_database(users: list[Any]) -> None:
    # A migration that rebuilds game_table or game_seat on SQLite drops their triggers.
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute(
                "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal"
            )
        on = sorted({name for (name,) in cursor.fetchall()})
    assert {"game_table", "game_seat"} <= set(on), on


def test_every_write_of_the_row_moves_the_revision_on(users: list[Any]) -> None:
    table = four_player_table(users)
    stale = Table.objects.get(pk=table.pk)
    before = _revision(table)
    fresh = Table.objects.get(pk=table.pk)
    fresh.move_seconds = 120
    fresh.save()  # every field, its revision as read
    assert _revision(table) == before + 1
    # An instance read earlier writes back an older revision: the trigger still counts on.
    stale.save()
    assert _revision(table) == before + 2
    stale.revision = 0
    rows.update(stale, ("revision", "move_seconds"))  # even when the write names it
    assert _revision(table) == before + 3
    Table.objects.filter(pk=table.pk).update(spectators=False)
    assert _revision(table) == before + 4


def test_every_write_of_a_seat_moves_its_table_on(users: list[Any]) -> None:
    table = four_player_table(users)
    other = four_player_table(users)
    before, other_before = _revision(table), _revision(other)
    seat = Seat.objects.get(table=table, number=2)
    seat.away = True
    seat.save(update_fields=["away"])
    assert _revision(table) == before + 1
    Seat.objects.filter(table=table).update(connections=1)  # four rows: four steps on
    assert _revision(table) == before + 5
    Seat.objects.filter(table=table, number=3).delete()
    assert _revision(table) == before + 6
    Seat.objects.create(table=table, number=3, bot=True)
    assert _revision(table) == before + 7
    assert _revision(other) == other_before  # only the seat's own table
    Seat.objects.filter(table=table, number=3).update(table=other, number=9)
    assert (_revision(table), _revision(other)) == (before + 8, other_before + 1)


def _updates_so_far() -> tuple[int, int] | None:
    """PostgreSQL's counts of game_table's updates, and of those written as heap-only
    tuples, not yet flushed to its statistics (this transaction's among them); None on
    SQLite."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated(%s::regclass),"
            " pg_stat_get_xact_tuples_hot_updated(%s::regclass)",
            [Table._meta.db_table] * 2,
        )
        updated, hot = cursor.fetchone()
    return int(updated), int(hot)


def test_an_ordinary_move_changes_no_indexed_column_of_its_table(users: list[Any]) -> None:
    # Migration 0006: a move's update of game_table that changes no indexed column can
    # be written by PostgreSQL as a heap-only tuple (HOT), with no new entry in any of
    # the table's indexes and half the WAL. An index on a column every move changes
    # (deadline_at had one) takes that away from every move.
    table = four_player_table(users)
    presence.seat_connected(table_id=table.pk, seat=0)  # deadlines run with someone there
    table.refresh_from_db()
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Table._meta.db_table)
    indexed = {column for info in found.values() if info["index"] or info["unique"]
               for column in info["columns"]}
    columns = {f.attname: f.column for f in Table._meta.concrete_fields}
    rng = random.Random(5)
    changed: set[str] = set()
    hot: list[tuple[int, int]] = []
    for _ in range(6):
        before = Table.objects.filter(pk=table.pk).values().get()
        match = replay.load(table)
        with transaction.atomic():
            counts = _updates_so_far()
            moves.apply_action(
                table_id=table.pk, owner=owner(users[match.to_move]),
                action=rng.choice(match.legal_actions()), expected_version=table.version,
            )
            if counts is not None:  # within one transaction, so no flush in between
                now_counts = _updates_so_far()
                assert now_counts is not None
                hot.append((now_counts[0] - counts[0], now_counts[1] - counts[1]))
        table.refresh_from_db()
        after = Table.objects.filter(pk=table.pk).values().get()
        changed |= {columns[name] for name in before if before[name] != after[name]}
    assert {"version", "deadline_at", "revision"} <= changed, changed
    assert not changed & indexed, f"indexed and changed by every move: {changed & indexed}"
    if connection.vendor == "postgresql":  # each move's update a heap-only tuple
        assert all(updated >= 1 and hot_updated == updated for updated, hot_updated in hot), hot


def test_the_clocks_find_due_deadlines_only_among_tables_with_one_pending(
    users: list[Any],
) -> None:
    # deadline_pending is the database's own (a generated column), indexed by
    # table_clock; a table everyone closed the page on has no deadline and is not read.
    table = four_player_table(users)
    pending = Table.objects.filter(pk=table.pk, deadline_pending=True)
    assert not pending.exists()  # nobody has a socket open: no deadline runs
    presence.seat_connected(table_id=table.pk, seat=0)
    assert pending.exists()
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert [due.table_id for due in due.due_deadlines()] == [table.pk]
    Table.objects.filter(pk=table.pk).update(deadline_at=None)
    assert not pending.exists() and due.due_deadlines() == []
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Table._meta.db_table)
    assert found["table_clock"]["columns"] == ["status"]
