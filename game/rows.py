"""The few reads and writes every move makes, in SQL written once per process.

A move locks its table's row, reads the seats, appends one action and updates a few
fields of the row: four statements. Through the ORM's query compiler they cost about
0.93 ms of Python per move (a timing of each on SQLite; 0.29 ms here), about half the
database thread's time at 250 tables (``bench/load.py --profile``), in the one thread
that serves every socket's database calls. Here
each statement's SQL is built once from the models' own metadata, and values go through
each field's own ``get_db_prep_save``; rows come back as model instances through
``Manager.raw`` (which applies the backend's converters: SQLite's dates and JSON text).
The same four statements for any table: a schema change shows in every table test.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from game.models import Action, Seat, Table


@cache
def _lock_sql(vendor: str) -> str:
    # SQLite has no row locks: its IMMEDIATE transactions (settings) lock the database.
    quote = connection.ops.quote_name
    sql = f"SELECT * FROM {quote(Table._meta.db_table)} WHERE {quote('id')} = %s"
    return sql + (" FOR UPDATE" if connection.features.has_select_for_update else "")


@cache
def _seats_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    column = Seat._meta.get_field("table").column
    return (
        f"SELECT * FROM {quote(Seat._meta.db_table)} WHERE {quote(column)} = %s "
        f"ORDER BY {quote('number')}"
    )


def locked_table(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends (None: no such table)."""
    rows = list(Table.objects.raw(_lock_sql(connection.vendor), [table_id]))
    return rows[0] if rows else None


def seats(table_id: int) -> list[Seat]:
    return list(Seat.objects.raw(_seats_sql(connection.vendor), [table_id]))


@cache
def _update_sql(vendor: str, model: type[Model], fields: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    meta = model._meta
    sets = ", ".join(f"{quote(meta.get_field(f).column)} = %s" for f in fields)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"


def update(obj: Model, fields: tuple[str, ...]) -> None:
    """``obj.save(update_fields=fields)`` for a row known to exist (no signals: nothing
    listens to these models' saves)."""
    meta = type(obj)._meta
    values = [
        field.get_db_prep_save(getattr(obj, field.attname), connection)
        for field in map(meta.get_field, fields)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(connection.vendor, type(obj), fields), [*values, obj.pk])


_ACTION_FIELDS = ("table", "number", "seat", "action", "source", "created_at")


@cache
def _insert_action_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = Action._meta
    columns = ", ".join(quote(meta.get_field(f).column) for f in _ACTION_FIELDS)
    marks = ", ".join(["%s"] * len(_ACTION_FIELDS))
    return f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"


def append_action(
    table_id: int, number: int, seat: int, action: str, source: str, at: datetime
) -> None:
    """One row of the log (the unique (table, number) constraint still refuses a
    second action at the same number)."""
    meta = Action._meta
    values: list[Any] = [
        meta.get_field(f).get_db_prep_save(v, connection)
        for f, v in zip(_ACTION_FIELDS, (table_id, number, seat, action, source, at),
                        strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_action_sql(connection.vendor), values)
