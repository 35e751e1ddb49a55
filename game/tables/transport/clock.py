"""The tables' clock: fires stored deadlines (bot moves, calling timers, move timers, the
grace period after a disconnect).

Deadlines live in the database (``Table.deadline_*``), and firing one is an ordinary
versioned write (``game.tables.due.fire``), so any number of clocks may run — one per server
process, plus ``manage.py run_clock`` — and a deadline still happens exactly once, also
across a restart. Each process runs one asyncio task, started lazily by the first
request or socket it serves (daphne has no ASGI lifespan events); it sleeps until the
next due deadline, and a write that sets a sooner one wakes every clock through the
channel layer group ``CLOCK_GROUP``. The database work runs in
``database_sync_to_async``, so a consumer is never blocked by a bot or a timer.

The same task renews the process's heartbeat (``presence.heartbeat``), which tells the
other processes that the sockets it holds are still open; the sockets of a process whose
heartbeat stops (killed with SIGKILL, say) are closed by whichever clock notices. With it
the names the tables show are read again before they expire (``names.refresh_names``).

``TABLES_CLOCK=off`` in the environment keeps deadline firing out of the web processes
(for an operator who runs ``run_clock`` separately); they still send heartbeats.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.layers import get_channel_layer

from game.tables import deadlines, due, names, notices, presence
from game.tables.groups import CLOCK_GROUP
from game.tables.store.db import socket_db as database_sync_to_async

log = logging.getLogger(__name__)

# A safety net: even a lost wake-up delays a deadline at most this long. Writes wake the
# clocks only for deadlines sooner than this (deadlines.WAKE_WITHIN).
MAX_SLEEP = deadlines.WAKE_WITHIN
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
    interval = min(MAX_SLEEP, presence.process_timeout() / 3)
    while not stop_after():
        if time.monotonic() - beat >= interval:
            try:
                await database_sync_to_async(_housekeeping)()
                beat = time.monotonic()
            except Exception:
                log.exception("the clock could not renew this process's heartbeat")
        if layer is not None and time.monotonic() - joined > REJOIN:
            try:
                if channel is None:
                    channel = await layer.new_channel()
                await layer.group_add(CLOCK_GROUP, channel)
                joined = time.monotonic()
            except Exception:
                log.exception("the clock could not join its wake-up group")
        wait: float | None = None
        if fire:
            try:
                wait = await fire_round(layer)
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


def _housekeeping() -> None:
    """The heartbeat, then the names: one trip to the database thread for both."""
    presence.heartbeat()
    try:
        names.refresh_names()
    except Exception:  # a name read next time; the heartbeat went through
        log.exception("the clock could not read the tables' names again")


DECIDING = 8  # bots thinking at once (a gnubg decision mostly waits on its worker process)
_thinking: concurrent.futures.ThreadPoolExecutor | None = None


def _thinkers() -> concurrent.futures.ThreadPoolExecutor:
    global _thinking
    if _thinking is None:
        _thinking = concurrent.futures.ThreadPoolExecutor(DECIDING, "tables-bot")
    return _thinking


async def fire_round(layer: Any = None, limit: int = 100) -> float | None:
    """Fire every due deadline once; return the seconds until the next (None: none).

    Bots decide concurrently, each in a thread of its own and outside any lock or
    transaction (the rule-based Court Piece bot, or a wait on a gnubg worker process),
    so fifty tables waiting on the bot wait about as long as one, and the sockets'
    database thread is never held up by a bot. Each decision is then applied by
    ``game.tables.due.fire`` under the table's lock, only if the deadline is still the
    pending one at the same version: any number of clocks may race, and a deadline
    still happens exactly once."""
    found = await database_sync_to_async(due.due_with_questions)(limit)
    if found:
        gate = asyncio.Semaphore(DECIDING)
        await asyncio.gather(*(_fire_one(item, gate, layer) for item in found))
    return await database_sync_to_async(due.next_deadline_in)()


async def _fire_one(
    first: tuple[due.Due, due.Question | None], gate: asyncio.Semaphore, layer: Any
) -> None:
    """Carry out ``first``, then whatever at that table becomes due by it (a bot that
    rolled and now moves, with no pause between): one table's turn is not held back
    until the clock's next round."""
    item: tuple[due.Due, due.Question | None] | None = first
    while item is not None:
        current, question = item
        item = None
        try:
            action = None
            async with gate:
                if question is not None:
                    loop = asyncio.get_running_loop()
                    action = await loop.run_in_executor(
                        _thinkers(), due.bot_choice, question
                    )
            item, held = await database_sync_to_async(notices.hold_broadcasts)(
                due.fire_and_next, current.table_id, current.version, current.kind,
                action,
            )
            for group, message in held:
                if layer is not None:
                    await layer.group_send(group, message)
        except Exception:  # one broken table must not stop every other table's clock
            log.exception(
                "deadline %s of table %s at version %s failed",
                current.kind, current.table_id, current.version,
            )


def with_clock(app: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap the ASGI application so its first request or socket starts the clock."""

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") in ("http", "websocket"):
            ensure_started()
        return await app(scope, receive, send)

    return application
