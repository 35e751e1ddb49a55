"""How many threads serve the sockets' and the clock's database calls (game/db.py)."""

from __future__ import annotations

from typing import Any

from game.tables.store import db


def test_sqlite_takes_one_thread_postgresql_a_few_within_half_its_pool(settings: Any) -> None:
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "x"}
    settings.TABLES_DB_THREADS = 8
    assert db.threads(sqlite) == 1  # one writer at a time: more threads would queue on it
    pg = "django.db.backends.postgresql"
    assert db.threads({"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 20}}}) == 8
    # Pages still find connections in the pool.
    assert db.threads({"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 6}}}) == 3
    assert db.threads({"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 1}}}) == 1
    assert db.threads({"ENGINE": pg}) == 8


def test_the_calls_go_to_asgirefs_one_thread_or_the_pool(settings: Any) -> None:
    import asyncio
    import threading

    from asgiref.sync import sync_to_async

    def thread() -> str:
        return threading.current_thread().name

    async def body() -> tuple[str, str, str, str]:
        shared = await sync_to_async(thread, thread_sensitive=True)()  # asgiref's one
        on_sqlite = await db.socket_db(thread, {"ENGINE": "django.db.backends.sqlite3"})()
        settings.TABLES_DB_THREADS = 2
        on_postgres = await db.socket_db(thread, {"ENGINE": "django.db.backends.postgresql"})()
        pool = await asyncio.get_running_loop().run_in_executor(db.executor(), thread)
        return shared, on_sqlite, on_postgres, pool

    shared, on_sqlite, on_postgres, pool = asyncio.run(body())
    assert on_sqlite == shared  # thread-sensitive: asgiref's one thread
    assert on_postgres != shared  # not thread-sensitive: in db.executor()'s pool
    assert on_postgres.startswith("tables-db") and pool.startswith("tables-db")


def test_the_checkpoint_thread_copies_the_log_into_the_database_file(tmp_path: Any) -> None:
    import sqlite3
    import threading
    import time

    path = str(tmp_path / "wal.sqlite3")
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # as the kept connection is set
    writer.execute("CREATE TABLE t (x TEXT)")
    with writer:
        writer.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 2000)
    size_before = (tmp_path / "wal.sqlite3").stat().st_size
    db.start_checkpointer(path)
    db.start_checkpointer(path)  # once per database file
    assert sum(t.name == "sqlite-checkpoint" for t in threading.enumerate()) == 1
    deadline = time.monotonic() + 10
    while (tmp_path / "wal.sqlite3").stat().st_size <= size_before:
        assert time.monotonic() < deadline, "no checkpoint within 10 s"
        time.sleep(0.1)
    db.stop_checkpoints.set()
    try:
        for thread in threading.enumerate():
            if thread.name == "sqlite-checkpoint":
                thread.join(5)
        assert writer.execute("SELECT count(*) FROM t").fetchone() == (2000,)
    finally:
        db.stop_checkpoints.clear()
        db.checkpointers.discard(path)
        writer.close()
