"""The tables' clock: fires stored deadlines (bot moves, calling timers, move timers, the
grace period after a disconnect).

Deadlines live in the database (``Table.deadline_*``), and firing one is an ordinary
versioned write (``services.fire``), so any number of clocks may run — one per server
process, plus ``manage.py run_clock`` — and a deadline still happens exactly once, also
across a restart. Each process runs one asyncio task, started lazily by the first
request or socket it serves (daphne has no ASGI lifespan events); it sleeps until the
next due deadline, and a write that sets a sooner one wakes every clock through the
channel layer group ``services.CLOCK_GROUP``. The database work runs in
``database_sync_to_async``, so a consumer is never blocked by a bot or a timer.

The same task renews the process's heartbeat (``services.heartbeat``), which tells the
other processes that the sockets it holds are still open; the sockets of a process whose
heartbeat stops (killed with SIGKILL, say) are closed by whichever clock notices.

``TABLES_CLOCK=off`` in the environment keeps deadline firing out of the web processes
(for an operator who runs ``run_clock`` separately); they still send heartbeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.layers import get_channel_layer

from game import services
from game.db import socket_db as database_sync_to_async

log = logging.getLogger(__name__)

MAX_SLEEP = 5.0  # a safety net: even a lost wake-up delays a deadline at most this long
REJOIN = 600.0  # re-join the wake-up group well inside channels-redis' group expiry (1 day)

_task: asyncio.Task[None] | None = None


def enabled() -> bool:
    return os.environ.get("TABLES_CLOCK", "on").lower() not in ("off", "0", "false", "no")


def ensure_started() -> None:
    """Start this process's clock task on the running loop, once (call from async code)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(run(), name="tables-clock")


async def stop() -> None:
    """Stop this process's clock task (tests, a clean shutdown)."""
    global _task
    task, _task = _task, None
    if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def run(
    stop_after: Callable[[], bool] = lambda: False, fire: bool | None = None
) -> None:
    """Fire due deadlines, then sleep until the next one or a wake-up; forever."""
    fire = enabled() if fire is None else fire
    layer = get_channel_layer()
    channel: str | None = None
    joined = 0.0
    beat = 0.0
    interval = min(MAX_SLEEP, services.process_timeout() / 3)
    while not stop_after():
        if time.monotonic() - beat >= interval:
            try:
                await database_sync_to_async(services.heartbeat)()
                beat = time.monotonic()
            except Exception:
                log.exception("the clock could not renew this process's heartbeat")
        if layer is not None and time.monotonic() - joined > REJOIN:
            try:
                if channel is None:
                    channel = await layer.new_channel()
                await layer.group_add(services.CLOCK_GROUP, channel)
                joined = time.monotonic()
            except Exception:
                log.exception("the clock could not join its wake-up group")
        wait: float | None = None
        if fire:
            try:
                wait = await database_sync_to_async(services.fire_due)()
            except Exception:
                log.exception("the clock failed to fire deadlines")
        timeout = interval if wait is None else min(wait, interval)
        if layer is not None and channel is not None:
            try:
                await asyncio.wait_for(layer.receive(channel), timeout)
            except TimeoutError:
                pass  # nothing woke us: time to look at the deadlines again
            except Exception:  # the layer failed (Redis away): poll until it is back
                log.exception("the clock's wake-up channel failed")
                joined = 0.0
                await asyncio.sleep(timeout)
        else:
            await asyncio.sleep(timeout)


def with_clock(app: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap the ASGI application so its first request or socket starts the clock."""

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") in ("http", "websocket"):
            ensure_started()
        return await app(scope, receive, send)

    return application
