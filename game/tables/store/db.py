"""Database calls from the table sockets and the tables' clock.

Channels' ``database_sync_to_async`` closes the connection before and after every call
when ``CONN_MAX_AGE`` is 0, as it must stay under ASGI (each HTTP request runs in a thread
of its own, whose persistent connection would leak). And Django keeps connections per
*context*, so even a persistent one would be one connection per socket.

The sockets and the clock are different: all their calls run, one after another, in
asgiref's one shared sync thread (``thread_sensitive``, outside any request). Here each
such call runs in one long-lived context per thread, so a single connection serves every
socket and the clock, kept between calls and dropped only when broken or left inside a
transaction (as Django's own check would). Opening and closing a SQLite connection for
every frame was a large share of the server's time under load (docs/PERFORMANCE.md).
Nothing the calls need comes from the caller's context: they take everything as arguments.

On PostgreSQL one thread is not enough: a move is six round trips to the server, and one
thread waiting on them one after another capped a process below the rate the tables need.
There the calls run in a small pool of threads
(``TABLES_DB_THREADS``, at most half the connection pool so that pages still get
connections), each with its own kept connection. Row locks keep two writes to one table
apart, as they do between two processes, and a socket already drops a change notice
older than the frame it sent. SQLite takes one writer at a time, so there the calls stay
in the one thread: more would only queue on its lock.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import threading
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

# .context: this thread's long-lived context; .inside: entered; .checkpointed: the
# connection whose checkpoints were handed over (SQLite)
_local = threading.local()


def _drop_broken_connections() -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]:
            conn.close()  # a call left a transaction open: never reuse that
        elif conn.errors_occurred:
            if conn.is_usable():
                conn.errors_occurred = False
            else:
                conn.close()


def _checked(call: Any) -> Any:
    _drop_broken_connections()
    try:
        return call()
    finally:
        _drop_broken_connections()
        _hand_checkpoints_over()


CHECKPOINT_SECONDS = 0.5


def _hand_checkpoints_over() -> None:
    """SQLite only: the kept connection stops checkpointing its own commits, and a
    thread of the process does it instead, every CHECKPOINT_SECONDS on a connection of
    its own.

    In WAL mode the commit that takes the log past 1,000 pages copies it into the
    database file and syncs it, inside that commit: every few seconds under load, one
    move (and every socket's call queued behind it in this thread) waited for the disk,
    which showed in the slowest moves. A passive checkpoint from another connection
    blocks no writer, and sqlite3 releases the GIL while it works."""
    conn = connections["default"]
    if conn.vendor != "sqlite" or conn.connection is None:
        return
    if getattr(_local, "checkpointed", None) is conn.connection:
        return  # done for this very connection (a new one is set up again)
    name = conn.settings_dict["NAME"]
    if not name or str(name) == ":memory:" or "mode=memory" in str(name):
        return  # an in-memory database (the tests') has no log to checkpoint
    with conn.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    _local.checkpointed = conn.connection
    start_checkpointer(str(name))


checkpointers: set[str] = set()
stop_checkpoints = threading.Event()  # never set in a server; lets a test end the thread
_checkpointers_lock = threading.Lock()


def start_checkpointer(path: str) -> None:
    with _checkpointers_lock:
        if path in checkpointers:
            return
        checkpointers.add(path)
    threading.Thread(
        target=_checkpoint_forever, args=(path,), name="sqlite-checkpoint", daemon=True
    ).start()


def _checkpoint_forever(path: str) -> None:
    import sqlite3

    db = sqlite3.connect(path, timeout=20, check_same_thread=False)
    # Its own thread, never the event loop's: waiting here holds up no socket.
    while not stop_checkpoints.wait(CHECKPOINT_SECONDS):
        with contextlib.suppress(sqlite3.Error):  # busy for a moment: the next round
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


class SocketDB(SyncToAsync):
    """``database_sync_to_async`` whose calls share one kept connection per thread."""

    def thread_handler(
        self, loop: Any, exc_info: Any, task_context: Any, func: Any, *args: Any, **kwargs: Any
    ) -> Any:
        if getattr(_local, "inside", False):
            # A call made from inside another on this thread (through async_to_sync):
            # the long-lived context is in use, so this one runs as Channels would.
            return super().thread_handler(
                loop, exc_info, task_context, lambda child: func(lambda: _closing(child)),
                *args, **kwargs,
            )
        context = getattr(_local, "context", None)
        if context is None:
            context = _local.context = contextvars.Context()

        def run_kept(child: Any) -> Any:
            _local.inside = True
            try:
                return context.run(_checked, child)
            finally:
                _local.inside = False

        return super().thread_handler(loop, exc_info, task_context, run_kept, *args, **kwargs)


def _closing(child: Any) -> Any:
    from django.db import close_old_connections

    close_old_connections()
    try:
        return child()
    finally:
        close_old_connections()


_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def threads(database: dict[str, Any] | None = None) -> int:
    """How many threads serve the sockets' and the clock's calls (1: asgiref's one), for
    ``database`` (the settings' default one)."""
    database = settings.DATABASES["default"] if database is None else database
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return 1
    wanted = int(getattr(settings, "TABLES_DB_THREADS", 4))
    pool = database.get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict) and pool.get("max_size"):
        wanted = min(wanted, int(pool["max_size"]) // 2)
    return max(1, wanted)


def executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(threads(), "tables-db")
        return _pool


def socket_db(func: Any, database: dict[str, Any] | None = None) -> SocketDB:
    """``database_sync_to_async`` for the sockets and the clock (see the docstring)."""
    if threads(database) == 1:
        return SocketDB(func)
    return SocketDB(func, thread_sensitive=False, executor=executor())
