"""Configuration from the environment: cache (rate-limit counters) and email."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.checks import run_checks
from django.test import Client

from tests.people import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def settings_under(env: dict[str, str]) -> dict[str, Any]:
    """Import the settings in a fresh interpreter with ``env`` and report what matters."""
    code = (
        "import json, bootstrap; bootstrap.ensure_baithak_importable();"
        "from baithak import settings as s;"
        "print(json.dumps({'cache': s.CACHES['default'], 'email': s.EMAIL_BACKEND,"
        " 'port': getattr(s, 'EMAIL_PORT', None), 'tls': getattr(s, 'EMAIL_USE_TLS', None),"
        " 'user': getattr(s, 'EMAIL_HOST_USER', None), 'from': s.DEFAULT_FROM_EMAIL}))"
    )
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("EMAIL_", "REDIS_URL", "DEFAULT_FROM_EMAIL"))}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_local_defaults_need_nothing() -> None:
    s = settings_under({})
    assert s["cache"]["BACKEND"].endswith("LocMemCache")
    assert s["email"].endswith("console.EmailBackend")


def test_production_reads_redis_and_smtp_from_the_environment() -> None:
    s = settings_under({
        "REDIS_URL": "redis://cache.internal:6379/2", "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": "465", "EMAIL_USE_TLS": "false", "EMAIL_HOST_USER": "mailer",
        "DEFAULT_FROM_EMAIL": "Baithak <hello@example.com>",
    })
    assert s["cache"] == {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://cache.internal:6379/2"}
    assert s["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["port"], s["tls"], s["user"]) == (465, False, "mailer")
    assert s["from"] == "Baithak <hello@example.com>"


def test_console_email_without_debug_is_flagged(settings: Any) -> None:
    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert "accounts.W001" in [m.id for m in run_checks(tags=["accounts"])]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert run_checks(tags=["accounts"]) == []


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _redis_up(), reason="no Redis on 127.0.0.1:6379 (.ci/run starts one)")
@pytest.mark.django_db
def test_login_lockout_through_redis(
    client: Client, make_user: Any, settings: Any
) -> None:
    # The production cache: the counters live in Redis, shared by every worker.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": REDIS}}
    from django.core.cache import cache

    cache.clear()
    try:
        make_user("alice")
        for _ in range(5):
            client.post("/en/accounts/login/", {"login": "alice", "password": "guess"})
        response = client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
        assert "Too many failed login attempts" in response.content.decode()
        import redis

        with redis.Redis.from_url(REDIS) as client:  # what the cache put in Redis itself
            keys = client.keys("*")
        assert any(key.startswith(b":1:allauth") or b"allauth" in key for key in keys)
    finally:
        cache.clear()
