"""The few reads and writes every move makes, in SQL written once per process.

A move locks its table's row, reads the seats, appends one action and updates a few
fields of the row: four statements. Through the ORM's query compiler they cost several
times the Python of the database's own work, about half the database thread's time
under load, in the thread that serves every socket's database calls
(docs/PERFORMANCE.md). Here each statement's SQL is built once from the models' own
metadata, and values go through each field's own ``get_db_prep_save``; rows come back as
model instances through :func:`build`, which applies the converters Django's compiler
would (SQLite's dates and JSON text), worked out once per model and column list:
``Manager.raw`` did the same with a set-up per query that was most of a read's cost. The
same four statements for any table: a schema change shows in every table test.
``game.tables.fastmoves`` runs these very statements on a connection of its own, so each
is also offered as SQL and parameters.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.db.models.expressions import Col

from game.models import Action, Seat, Table
from game.tables.errors import TableError


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


_readers: dict[tuple[str, type[Model], tuple[str, ...]], Any] = {}


def _reader(
    db: BaseDatabaseWrapper, model: type[Model], columns: tuple[str, ...]
) -> tuple[list[int], list[tuple[Col, list[Any]]]]:
    """Where each of the model's fields is among ``columns`` (``from_db`` takes values in
    the fields' order, which a table altered by migrations need not have), and each
    field's converters: worked out once per backend, model and columns."""
    key = (db.vendor, model, columns)
    found = _readers.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    where = {column: i for i, column in enumerate(columns)}
    fields = model._meta.concrete_fields
    order = [where[f.column] for f in fields]
    converters = []
    for field in fields:
        col = field.get_col(model._meta.db_table)
        converters.append((col, db.ops.get_db_converters(col) + col.get_db_converters(db)))
    _readers[key] = order, converters
    return order, converters


def _db(db: BaseDatabaseWrapper | None) -> BaseDatabaseWrapper:
    """``db``, or this context's connection (``game.tables.fastmoves`` passes its own wrapper:
    ``django.db.connection`` makes one for every asyncio task that touches it, a
    thousand at a thousand sockets)."""
    return connection if db is None else db  # type: ignore[return-value]


def build(
    model: type[Model], columns: list[str], values: Any, db: BaseDatabaseWrapper | None = None
) -> Model:
    """An instance of ``model`` from one row of a ``SELECT *`` (``columns``: the cursor's
    column names), with the same conversions the ORM applies (``db``: see :func:`_db`)."""
    db = _db(db)
    order, converters = _reader(db, model, tuple(columns))
    converted = [values[i] for i in order]
    for i, (col, steps) in enumerate(converters):
        for step in steps:
            converted[i] = step(converted[i], col, db)
    return model.from_db(db.alias, None, converted)


def lock_statement(
    table_id: int, db: BaseDatabaseWrapper | None = None
) -> tuple[str, list[Any]]:
    return _lock_sql(_db(db).vendor), [table_id]


def seats_statement(
    table_id: int, db: BaseDatabaseWrapper | None = None
) -> tuple[str, list[Any]]:
    return _seats_sql(_db(db).vendor), [table_id]


def _select(model: type[Model], statement: tuple[str, list[Any]]) -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        columns = [d[0] for d in cursor.description]
        return [build(model, columns, row) for row in cursor.fetchall()]


def locked_table(table_id: Any) -> Table | None:
    """The table row, locked until the transaction ends (None: no such table)."""
    try:
        number = int(table_id)
    except (ValueError, TypeError):
        return None
    found = _select(Table, lock_statement(number))
    return found[0] if found else None


def locked(table_id: Any) -> Table:
    """:func:`locked_table`, or ``not_found``."""
    table = locked_table(table_id)
    if table is None:
        raise TableError("not_found", f"no table {table_id}")
    return table


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in order, each holding ``table`` itself (the row the caller
    holds, often locked) rather than a second read. The seats alone: players' names
    come from :mod:`game.tables.names` (a join with the users and their profiles on
    every move was a fifth of the clock's database time)."""
    seats = _select(Seat, seats_statement(table.pk))
    for seat in seats:
        seat.table = table
    return seats


@cache
def _update_sql(vendor: str, model: type[Model], fields: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    meta = model._meta
    sets = ", ".join(f"{quote(meta.get_field(f).column)} = %s" for f in fields)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"


def update_statement(
    obj: Model, fields: tuple[str, ...], db: BaseDatabaseWrapper | None = None
) -> tuple[str, list[Any]]:
    db = _db(db)
    meta = type(obj)._meta
    values = [
        field.get_db_prep_save(getattr(obj, field.attname), db)
        for field in map(meta.get_field, fields)
    ]
    return _update_sql(db.vendor, type(obj), fields), [*values, obj.pk]


@cache
def _guarded_sql(vendor: str, fields: tuple[str, ...]) -> str:
    # It moves the revision on itself, so the row's trigger (migration 0004) does not.
    quote = connection.ops.quote_name
    revision = quote("revision")
    sets, where = _update_sql(vendor, Table, fields).split(" WHERE ")
    return (
        f"{sets}, {revision} = {revision} + 1 WHERE {where} AND {revision} = %s"
        f" AND {quote('commitment')} = %s"
    )


def guarded_update_statement(
    table: Table, fields: tuple[str, ...], revision: int,
    db: BaseDatabaseWrapper | None = None,
) -> tuple[str, list[Any]]:
    """``update_statement`` of a table row that is still at ``revision`` (no row
    updated: someone wrote the table or a seat since; see Table.revision). The
    commitment too, so a row of a fresh database with a reused id never matches."""
    _sql, params = update_statement(table, fields, db)
    return _guarded_sql(_db(db).vendor, fields), [*params, revision, table.commitment]


@cache
def _guarded_move_sql(vendor: str, fields: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    meta = Action._meta
    columns = ", ".join(quote(meta.get_field(f).column) for f in _ACTION_FIELDS)
    marks = ", ".join(["%s"] * len(_ACTION_FIELDS))
    return (
        f"WITH moved AS ({_guarded_sql(vendor, fields)} RETURNING {quote('id')}) "
        f"INSERT INTO {quote(meta.db_table)} ({columns}) SELECT {marks} FROM moved"
    )


def guarded_move_statement(
    table: Table, fields: tuple[str, ...], revision: int, number: int, seat: int,
    action: str, source: str, at: datetime, db: BaseDatabaseWrapper | None = None,
) -> tuple[str, list[Any]]:
    """PostgreSQL: the guarded update of the row and the action appended, as one
    statement (so one round trip, and atomic without BEGIN and COMMIT). It inserts one
    row if the table was still at ``revision``, none otherwise."""
    _sql, update_params = guarded_update_statement(table, fields, revision, db)
    _sql, action_params = append_statement(table.pk, number, seat, action, source, at, db)
    return _guarded_move_sql(_db(db).vendor, fields), [*update_params, *action_params]


def update(obj: Model, fields: tuple[str, ...]) -> None:
    """``obj.save(update_fields=fields)`` for a row known to exist (no signals: nothing
    listens to these models' saves)."""
    with connection.cursor() as cursor:
        cursor.execute(*update_statement(obj, fields))


_ACTION_FIELDS = ("table", "number", "seat", "action", "source", "created_at")


@cache
def _insert_action_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = Action._meta
    columns = ", ".join(quote(meta.get_field(f).column) for f in _ACTION_FIELDS)
    marks = ", ".join(["%s"] * len(_ACTION_FIELDS))
    return f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"


def append_statement(
    table_id: int, number: int, seat: int, action: str, source: str, at: datetime,
    db: BaseDatabaseWrapper | None = None,
) -> tuple[str, list[Any]]:
    db = _db(db)
    meta = Action._meta
    values: list[Any] = [
        meta.get_field(f).get_db_prep_save(v, db)
        for f, v in zip(_ACTION_FIELDS, (table_id, number, seat, action, source, at),
                        strict=True)
    ]
    return _insert_action_sql(db.vendor), values


def append_action(
    table_id: int, number: int, seat: int, action: str, source: str, at: datetime
) -> None:
    """One row of the log (the unique (table, number) constraint still refuses a
    second action at the same number)."""
    with connection.cursor() as cursor:
        cursor.execute(*append_statement(table_id, number, seat, action, source, at))
