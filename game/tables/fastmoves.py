"""A player's move played on the event loop, without the database thread.

``moves.apply_action`` runs in a thread, as Django's ORM must. Under load that thread
and the event loop take turns with Python's lock (the GIL): every statement the thread
sends lets go of it, and getting it back means waiting for the loop to let go in turn,
up to the interpreter's switch interval. With PostgreSQL a move is six round trips, so
a move waited through a dozen such hand-overs while the loop waited on the thread's,
and under load one process topped out far below the rate the tables need
(docs/PERFORMANCE.md). A thread fewer or more only moved the queue.

So the common case of a move, a player's legal action with everything it needs already
in memory, runs here on the loop itself, through a connection of its own: psycopg's
asynchronous one for PostgreSQL (the round trips are awaited, nothing waits on a lock),
and for SQLite a connection of the process that never waits either (a busy database
hands the move to the thread, which may wait). It is the same move: the same checks
(``moves.admit_action``), the same step of the engine and the row
(``moves.advance``), the same four statements (``store.rows``), the same notice sent
after the commit. Anything less common raises :class:`Fallback` before anything is
written, and the caller plays the move through ``moves.apply_action`` in the thread:
a state not in this process's cache, a name not cached, a seat coming back from away,
the move that ends the match (its result is recorded through the ORM), a table this
connection cannot see, or any database error.

On PostgreSQL these connections commit as ``TABLES_MOVES_SYNCHRONOUS_COMMIT`` says
(default ``on``: each move waits for the disk; ``off`` trades the last fraction of a
second of moves on a crash of PostgreSQL for a shorter wait, as the settings explain).
The thread's connections, which record a match's result, keep the server's own setting.

``TABLES_FAST_MOVES = False`` (environment ``TABLES_FAST_MOVES=off``) turns this off.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import logging
import sqlite3
import weakref
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections

from game.models import Action, Seat, Table
from game.tables import access, ahead, deadlines, moves, names, notices
from game.tables.errors import TableError
from game.tables.store import db as store_db
from game.tables.store import replay, rows

log = logging.getLogger(__name__)

Statement = tuple[str, list[Any]]
Result = tuple[list[str], list[Any]]  # column names, rows


class _Moved(Exception):
    """The guarded write found the row at another revision (rolled back, not an error)."""


class Fallback(Exception):
    """Not a common move: play it through ``moves.apply_action``. ``resync``: the
    attempt met a database error, so whether it committed is unknown; the caller asks
    every socket of the table to read its state again."""

    def __init__(self, why: str, *, resync: bool = False) -> None:
        super().__init__(why)
        self.resync = resync


def enabled() -> bool:
    return bool(getattr(settings, "TABLES_FAST_MOVES", True))


async def apply_action(
    *, table_id: int, owner: access.Owner, action: str, expected_version: int
) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
    """``notices.hold_broadcasts(moves.apply_action, …)`` on the loop: the new version
    and the committed change's messages for the caller to send. Raises TableError for a
    refusal (nothing changed) and Fallback as the module's docstring says."""
    moves.check_action_args(action, expected_version)
    if not enabled():
        raise Fallback("off")
    db = await database()
    try:
        known = replay.known_rows(int(table_id))
        if known is not None:
            done = await play_from_known(db, known, owner, action, expected_version)
            if done is not None:
                return done
            replay.forget_rows(int(table_id))
        return await play_from_read(db, int(table_id), owner, action, expected_version)
    except (Fallback, TableError):
        raise
    except SynchronousOnlyOperation as exc:  # a read slipped in: never on the loop
        log.exception("a move on the loop tried to read through the ORM")
        raise Fallback("an ORM read") from exc
    except (sqlite3.Error, _psycopg_error()) as exc:
        log.warning("a move on the loop met a database error; the thread plays it: %s", exc)
        replay.forget_rows(int(table_id))
        raise Fallback("database error", resync=True) from exc


async def play_from_known(
    db: Any, known: tuple[Table, list[Seat]], owner: access.Owner, action: str,
    expected_version: int,
) -> tuple[int, list[tuple[str, dict[str, Any]]]] | None:
    """The move played from the rows this process wrote last, in one guarded write: no
    read, no lock, no BEGIN and COMMIT (one round trip on PostgreSQL instead of two).
    None: the guess was wrong or cannot be trusted (someone else wrote the table or a
    seat, or the rows in memory would refuse the move); nothing is written, and the
    caller reads the rows. Only a refusal read from the database is sent to a player."""
    known_table, seats = known
    revision = known_table.revision
    table = copy.copy(known_table)  # the known row stays as it was if this fails
    try:
        seat, new_state, now, messages = _step(table, seats, owner, action, expected_version)
    except TableError:  # refused by rows and a state that may be behind
        return None
    if not await db.guarded_move(table, revision, seat, action, now):
        return None
    table.revision = revision + 1  # as the guarded write set it
    replay.remember_rows(table, seats)
    replay.remember(table, table.version, new_state)
    return table.version, messages


def _step(
    table: Table, seats: list[Seat], owner: access.Owner, action: str,
    expected_version: int,
) -> tuple[int, Any, Any, list[tuple[str, dict[str, Any]]]]:
    """The move on ``table`` (moved on in memory): the seat, the new state, when, and
    the messages to send once it is stored. Writes nothing; raises TableError for a
    refusal and Fallback for a move the thread plays."""
    seat, game_state = moves.admit_action(
        table, seats, owner, action, expected_version, load=_cached_state
    )
    if seats[seat].away or not names.names_cached(table, seats):
        raise Fallback("the seat comes back, or a name is not cached")
    new_state, now = moves.advance(table, seats, game_state, seat, action)
    if new_state.is_over:
        raise Fallback("the match ends: its result is recorded by the ORM")
    if ahead.ended_hand(table.game, game_state, new_state) is not None:
        raise Fallback("a hand ends: the thread's path has its analysis computed ahead")
    # Built before the first await of the writes: the names checked above are still in
    # the cache (a second's margin), so building reads nothing.
    messages = notices.change_messages(
        table, seats, new_state, wake=deadlines.wakes_clock(table)
    )
    return seat, new_state, now, messages


async def play_from_read(
    db: Any, table_id: int, owner: access.Owner, action: str, expected_version: int
) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
    """The move with the table's row locked and its seats read in the transaction."""
    async with db.session() as session:
        (columns, found), (seat_columns, seat_rows) = await session.read(
            rows.lock_statement(table_id, db.wrapper),
            rows.seats_statement(table_id, db.wrapper),
        )
        if not found:
            raise Fallback("no such table here")  # the thread says not_found
        table = rows.build(Table, columns, found[0], db.wrapper)
        seats = [rows.build(Seat, seat_columns, row, db.wrapper) for row in seat_rows]
        for seat_row in seats:
            seat_row.table = table
        revision = table.revision
        seat, new_state, now, messages = _step(table, seats, owner, action, expected_version)
        await session.write(
            rows.append_statement(
                table.pk, table.version, seat, action, Action.PLAYER, now, db.wrapper
            ),
            rows.update_statement(table, moves.PLAY_FIELDS, db.wrapper),
        )
    # The row is locked and this transaction wrote no seat: the update's trigger moved
    # the revision on by exactly one.
    table.revision = revision + 1
    replay.remember_rows(table, seats)
    replay.remember(table, table.version, new_state)
    return table.version, messages


def _cached_state(table: Table) -> Any:
    state = replay.cached(table)
    if state is None:
        raise Fallback("the state is not in this process's cache")
    return state


@functools.cache
def _psycopg_error() -> type[BaseException]:
    try:
        import psycopg
    except ImportError:  # SQLite only: nothing of psycopg's can be raised
        return sqlite3.Error
    return psycopg.Error


# ---------------------------------------------------------------------------- connections
class _SQLite:
    """One connection on the loop's thread. Each statement is a call into SQLite that
    returns at once: the session runs from BEGIN to COMMIT without giving the loop back,
    and a database another connection is writing is not waited for (Fallback)."""

    def __init__(self, connection: sqlite3.Connection, wrapper: Any) -> None:
        self.connection = connection
        self.wrapper = wrapper  # Django's, for conversions and SQL (never connected)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[_SQLite]:
        try:
            self.connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:  # locked by another writer: no waiting
            raise Fallback("the database is busy") from exc
        try:
            yield self
        except BaseException:
            self.connection.rollback()
            raise
        self.connection.commit()

    async def read(self, *statements: Statement) -> list[Result]:
        out = []
        for sql, params in statements:
            cursor = self.connection.execute(_qmark(sql), params)
            out.append(([d[0] for d in cursor.description], cursor.fetchall()))
        return out

    async def write(self, *statements: Statement) -> None:
        for sql, params in statements:
            self.connection.execute(_qmark(sql), params)

    async def guarded_move(
        self, table: Table, revision: int, seat: int, action: str, now: Any
    ) -> bool:
        """The row updated if still at ``revision``, then the action appended, in one
        transaction (False: the row had moved on; nothing written)."""
        sql, params = rows.guarded_update_statement(
            table, moves.PLAY_FIELDS, revision, self.wrapper
        )
        try:
            async with self.session():
                if self.connection.execute(_qmark(sql), params).rowcount != 1:
                    raise _Moved  # rolled back by the session: nothing was written
                await self.write(rows.append_statement(
                    table.pk, table.version, seat, action, Action.PLAYER, now, self.wrapper
                ))
        except _Moved:
            return False
        return True


@functools.cache
def _qmark(sql: str) -> str:
    """store.rows' few statements in sqlite3's placeholders (Django's cursor does this)."""
    return sql.replace("%s", "?")


class _Postgres:
    """A few of psycopg's asynchronous connections, each used by one move at a time."""

    def __init__(
        self, params: dict[str, Any], timezone_name: str | None, size: int, wrapper: Any
    ) -> None:
        self.wrapper = wrapper  # Django's, for conversions and SQL (never connected)
        self.params = params
        self.timezone_name = timezone_name
        self.synchronous_commit = str(
            getattr(settings, "TABLES_MOVES_SYNCHRONOUS_COMMIT", "on")
        )
        self.free: asyncio.Queue[Any] = asyncio.Queue()
        for _ in range(size):
            self.free.put_nowait(None)  # a place for a connection, made when first used

    async def _connect(self) -> Any:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            **self.params, autocommit=True
        )
        try:
            if self.timezone_name and (
                conn.info.parameter_status("TimeZone") != self.timezone_name
            ):
                await conn.execute(
                    "SELECT set_config('TimeZone', %s, false)", [self.timezone_name]
                )
            # How these moves commit (settings.TABLES_MOVES_SYNCHRONOUS_COMMIT says why).
            await conn.execute(
                "SELECT set_config('synchronous_commit', %s, false)", [self.synchronous_commit]
            )
        except BaseException:  # not handed out, so nobody else would close it
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        return conn

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[_PostgresSession]:
        """A transaction in psycopg's pipeline mode: BEGIN, the lock and the seats go out
        together, and the writes with COMMIT, so a move is two round trips, not six.

        BEGIN and COMMIT are statements of the one pipeline, not psycopg's
        ``transaction()``: inside a pipeline that nests two more, each synced on its
        way out, which made four round trips of the two and cost the client half again
        its time a move."""
        async with self.connection() as conn:
            try:
                async with conn.pipeline():
                    await conn.execute("BEGIN")
                    yield _PostgresSession(conn)
                    await conn.execute("COMMIT")
            except (Fallback, TableError):
                # Raised by the move between statements, none of which failed: the
                # transaction is open, with nothing written. (Its own round trip, but
                # only for refusals and the uncommon moves.)
                await conn.execute("ROLLBACK")
                raise

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """One of the few connections, made when first needed. An error or a
        cancellation may leave it mid-way: then it is closed, never reused (a refusal
        or a Fallback raised between statements is not such an error)."""
        conn = await self.free.get()
        try:
            if conn is None or conn.closed:
                conn = await self._connect()
            yield conn
        except (Fallback, TableError):
            raise
        except BaseException:
            if conn is not None and not conn.closed:
                with contextlib.suppress(Exception):
                    await conn.close()
            conn = None
            raise
        finally:
            self.free.put_nowait(conn)

    async def guarded_move(
        self, table: Table, revision: int, seat: int, action: str, now: Any
    ) -> bool:
        """One statement, so one round trip: the row updated if still at ``revision``
        and the action appended (False: the row had moved on; nothing written)."""
        statement = rows.guarded_move_statement(
            table, moves.PLAY_FIELDS, revision, table.version, seat, action,
            Action.PLAYER, now, self.wrapper,
        )
        async with self.connection() as conn:
            cursor = await conn.execute(*statement)  # autocommit: its own transaction
            return bool(cursor.rowcount == 1)


class _PostgresSession:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def read(self, *statements: Statement) -> list[Result]:
        cursors = [await self.conn.execute(sql, params) for sql, params in statements]
        out = []
        for cursor in cursors:  # the first fetch sends them all and waits once
            rows_ = await cursor.fetchall()
            out.append(([d.name for d in cursor.description], rows_))
        return out

    async def write(self, *statements: Statement) -> None:
        for sql, params in statements:  # sent with the COMMIT, when the session ends
            await self.conn.execute(sql, params)


_databases: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[Any]] = (
    weakref.WeakKeyDictionary()
)


async def database() -> Any:
    """This loop's connection(s), made on first use: by one task, which the first moves
    to arrive all wait for (two opening at once would leave a connection behind)."""
    loop = asyncio.get_running_loop()
    opening = _databases.get(loop)
    if opening is None:
        opening = _databases[loop] = loop.create_task(_open())
    try:
        return await asyncio.shield(opening)
    except Fallback:
        raise  # a database these moves do not serve: the thread, every time
    except Exception as exc:  # could not connect: the thread now, a new try next time
        if _databases.get(loop) is opening:
            del _databases[loop]
        log.warning("no connection for moves on the loop: %s", exc)
        raise Fallback("no connection") from exc


async def _open() -> Any:
    wrapper = connections.create_connection("default")  # never connected itself
    params = wrapper.get_connection_params()
    if wrapper.vendor == "sqlite":
        # Django's own set-up of a connection (its functions, pragmas), in a thread as
        # Django requires; then no busy waiting, and no checkpoint inside a commit
        # (store.db's checkpoint thread does them, as for the thread's connection).
        raw = await asyncio.to_thread(wrapper.get_new_connection, params)
        raw.isolation_level = None
        raw.execute("PRAGMA busy_timeout = 0")
        name = str(wrapper.settings_dict["NAME"])
        if name and name != ":memory:" and "mode=memory" not in name:
            raw.execute("PRAGMA wal_autocheckpoint = 0")
            store_db.start_checkpointer(name)
        return _SQLite(raw, wrapper)
    if wrapper.vendor == "postgresql":
        # Server-side binding, every statement prepared on first use (Django's own
        # connections bind on the client and prepare nothing): the same few statements
        # run on every move, so the server plans each once per connection, and the
        # client sends parameters instead of quoting them into the text. (A pooler in
        # transaction mode, such as PgBouncer's, would need TABLES_FAST_MOVES=off.)
        params.pop("cursor_factory", None)
        params["prepare_threshold"] = 0
        size = int(getattr(settings, "TABLES_FAST_CONNECTIONS", 16))
        return _Postgres(params, wrapper.timezone_name, max(1, size), wrapper)
    raise Fallback(f"no moves on the loop for {wrapper.vendor}")


async def close_all() -> None:
    """Close this loop's connections (tests, a clean shutdown)."""
    opening = _databases.pop(asyncio.get_running_loop(), None)
    if opening is None or not opening.done() or opening.exception() is not None:
        return
    db = opening.result()
    if isinstance(db, _SQLite):
        db.connection.close()
    elif isinstance(db, _Postgres):
        while not db.free.empty():
            conn = db.free.get_nowait()
            if conn is not None:
                await conn.close()
