"""Table.revision moves forward on every write of a table row or one of its seats, by
the database's own triggers (game/migrations/0004_revision.py): game.fastmoves writes a
move played from rows held in memory only if the revision is still the one it saw, so a
write that skipped it could let a stale seat move. Runs on SQLite here and on the real
PostgreSQL through tests/tables/test_fastmoves_postgres.py."""

from __future__ import annotations

from typing import Any

from django.db import connection

from game import rows
from game.models import Seat, Table

from .conftest import four_player_table


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
