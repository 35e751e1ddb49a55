"""The in-memory channel layer serves one process: a second one on the same database is
refused at its start (issue #26).

With the in-memory layer (no ``REDIS_URL``) a process's change notices reach only its own
sockets. Two processes on one database (two ``make run`` on one SQLite file, two daphnes
on one PostgreSQL) then each believe they are alone: a move made through one is stored,
and never reaches the players connected to the other. So a server process, as it loads
the ASGI application (``baithak.asgi``), looks for the heartbeats of the others
(``ServerProcess``, :mod:`game.tables.presence`): one renewed within
``TABLES_PROCESS_TIMEOUT`` by a process that still runs means a second process, and this
one stops with ``ImproperlyConfigured``, saying to set ``REDIS_URL``. A heartbeat left by
a process of this machine that is gone (killed, restarted within the timeout) does not
count. This process then writes its own heartbeat at once and renews it from a thread,
so a third is refused too, even before this one has served a request (its clock, which
renews the heartbeat too, starts only then).

``TABLES_PROCESS_CHECK=off`` in the environment skips all this (tests/conftest.py: the
test processes import the application beside servers of their own).
"""

from __future__ import annotations

import contextlib
import os
import threading
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from game.models import ServerProcess
from game.tables import presence

_renewer: threading.Thread | None = None


def enabled() -> bool:
    return os.environ.get("TABLES_PROCESS_CHECK", "on").lower() not in ("off", "0", "false", "no")


def layer_in_process() -> bool:
    """Whether the channel layer lives in this process only (no REDIS_URL)."""
    backend = str(settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", ""))
    return backend.endswith("InMemoryChannelLayer")


def _still_running(name: str) -> bool:
    """Whether the process a heartbeat names may still run: one of this machine whose
    process id is gone does not (``presence.PROCESS`` is host-pid-token)."""
    parts = name.rsplit("-", 2)
    own_host = presence.PROCESS.rsplit("-", 2)[0]
    if len(parts) != 3 or parts[0] != own_host or not parts[1].isdecimal():
        return True  # another machine's: only its heartbeat can tell
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process, alive
    return True


def others_alive() -> list[tuple[str, float]]:
    """The other server processes on this database whose heartbeat is fresh and which may
    still run: (name, seconds since their last heartbeat)."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=presence.process_timeout())
    rows = (
        ServerProcess.objects.filter(seen_at__gte=cutoff)
        .exclude(name=presence.PROCESS)
        .values_list("name", "seen_at")
    )
    return [
        (name, (now - seen).total_seconds()) for name, seen in rows if _still_running(name)
    ]


def refuse_second_process() -> None:
    """Called as a server process loads its application: raise ImproperlyConfigured if the
    channel layer is in-process and another server process runs on this database; else
    announce this one (a heartbeat now, renewed by a thread)."""
    if not enabled() or not layer_in_process():
        return
    try:
        others = others_alive()
    except DatabaseError:
        return  # no tables yet (migrate not run): nothing to share either
    finally:
        close_old_connections()
    if others:
        name, ago = others[0]
        raise ImproperlyConfigured(
            f"Another server process ({name}, heard from {ago:.0f} s ago) is running on "
            "this database, and the channel layer is in-memory (REDIS_URL is not set), "
            "which reaches only the sockets of its own process: moves made through one "
            "process would never reach the players connected to the other. Set REDIS_URL "
            "(e.g. REDIS_URL=redis://127.0.0.1:6379/0) for every process, or stop the "
            "other one. (docs/DEPLOY.md)"
        )
    _announce()
    global _renewer
    if _renewer is None:
        _renewer = threading.Thread(target=_renew, name="tables-heartbeat", daemon=True)
        _renewer.start()


def _announce() -> None:
    try:
        presence.heartbeat()
    except DatabaseError:
        pass  # the clock will try again
    finally:
        close_old_connections()


def _renew() -> None:
    never = threading.Event()  # the thread lives as long as the process
    while not never.wait(presence.process_timeout() / 3):
        with contextlib.suppress(Exception):
            _announce()
