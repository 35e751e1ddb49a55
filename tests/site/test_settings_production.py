"""The production configuration works for real: PostgreSQL from DATABASE_URL, Redis from
REDIS_URL, DEBUG off. Each check runs manage.py in a fresh interpreter with that
environment, as an operator would, against the machine's PostgreSQL and Redis
(started by .ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    name = f"baithak_check_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    full.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=full, capture_output=True, text=True, timeout=300,
    )


def _production(database_url: str) -> dict[str, str]:
    return {
        "DEBUG": "false",
        "SECRET_KEY": "a-test-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "baithak.example",
        "DATABASE_URL": database_url,
        "REDIS_URL": "redis://127.0.0.1:6379/15",
        "EMAIL_HOST": "smtp.baithak.example",
        "CONTACT_EMAIL": "help@baithak.example",
        # An operator who serves only HTTPS opts in to all three (see README).
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
        "SECURE_HSTS_PRELOAD": "true",
    }


def test_production_settings_migrate_and_query_postgresql(postgres_url: str) -> None:
    env = _production(postgres_url)
    migrate = _manage(env, "migrate", "--noinput")
    assert migrate.returncode == 0, migrate.stderr
    probe = _manage(
        env,
        "shell",
        "-c",
        "from django.db import connection; from django.conf import settings;"
        "from django.core.cache import cache;"
        "cache.set('baithak-probe', 42); assert cache.get('baithak-probe') == 42;"
        "connection.ensure_connection();"
        "from game.tables.store import db;"
        "print(connection.vendor, type(connection.pool).__name__,"
        " settings.CHANNEL_LAYERS['default']['BACKEND'], settings.CACHES['default']['BACKEND'],"
        " settings.CHANNEL_LAYERS['default']['CONFIG']['capacity'], db.threads())",
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[-1].split() == [
        "postgresql",
        "ConnectionPool",
        # channels-redis, serving the process's own sockets in the process.
        "game.tables.transport.layers.RedisChannelLayer",
        "django.core.cache.backends.redis.RedisCache",
        # A process's sockets share one inbox in Redis: room for a burst of every
        # socket's moves (the default 100 dropped notices at 250 tables).
        "5000",
        # The sockets' database calls run in 4 threads (the pool holds 10 connections).
        "4",
    ]


def test_production_settings_pass_the_deploy_check(postgres_url: str) -> None:
    check = _manage(_production(postgres_url), "check", "--deploy", "--fail-level", "WARNING")
    assert check.returncode == 0, check.stdout + check.stderr


def test_debug_off_without_a_secret_key_refuses_to_start() -> None:
    env = {"DEBUG": "false", "SECRET_KEY": ""}
    result = _manage(env, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_nonsense_commit_setting_for_moves_refuses_to_start() -> None:
    result = _manage({"TABLES_MOVES_SYNCHRONOUS_COMMIT": "sometimes"}, "check")
    assert result.returncode != 0
    assert "TABLES_MOVES_SYNCHRONOUS_COMMIT must be one of" in result.stderr
    assert _manage({"TABLES_MOVES_SYNCHRONOUS_COMMIT": "On"}, "check").returncode == 0
