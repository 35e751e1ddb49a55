"""How many threads serve the sockets' and the clock's database calls (game/db.py)."""

from __future__ import annotations

from typing import Any

from game import db


def test_sqlite_takes_one_thread_postgresql_a_few_within_half_its_pool(settings: Any) -> None:
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "x"}}
    settings.TABLES_DB_THREADS = 8
    assert db._threads() == 1  # one writer at a time: more threads would queue on its lock
    pg = "django.db.backends.postgresql"
    settings.DATABASES = {"default": {"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 20}}}}
    assert db._threads() == 8
    settings.DATABASES = {"default": {"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 6}}}}
    assert db._threads() == 3  # pages still find connections in the pool
    settings.DATABASES = {"default": {"ENGINE": pg, "OPTIONS": {"pool": {"max_size": 1}}}}
    assert db._threads() == 1
    settings.DATABASES = {"default": {"ENGINE": pg}}
    assert db._threads() == 8


def test_the_calls_go_to_asgirefs_one_thread_or_the_pool(settings: Any) -> None:
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "x"}}
    assert db.socket_db(len)._thread_sensitive
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql"}}
    settings.TABLES_DB_THREADS = 2
    call = db.socket_db(len)
    assert not call._thread_sensitive and call._executor is db._executor()
