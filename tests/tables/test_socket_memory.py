"""A closed table socket frees what it held at once, by reference counting alone: a
server holds its garbage collector's passes back (baithak.process), so anything of a
socket left in a reference cycle stayed until the full pass ten minutes later, about
30 KiB a socket (issue 26: 272 to 1,365 MiB in seven minutes of spectators coming and
going). Each test runs its sockets with the collector off, then asks whether the
consumers are gone (a weak reference) before any collection."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from game.models import Table
from game.tables.transport import consumers
from tests.tables.live import (
    four_player_table,
    frames,
    run,
    session_cookie,
    socket,
    until_version,
)

ROUNDS = 5


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()  # what earlier tests left
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def the_consumer(channels_before: set[str]) -> consumers.TableConsumer:
    """The consumer of the socket just opened, from the process's registry."""
    found = [
        s for sockets in consumers.LOCAL_SOCKETS.values() for s in sockets
        if s.channel_name not in channels_before
    ]
    assert len(found) == 1, found
    return found[0]


def open_and_close(
    table_id: int, ending: Callable[[Any, consumers.TableConsumer], Awaitable[None]],
    cookie: bytes | None = None, fmt: str = "json",
) -> list[weakref.ref[consumers.TableConsumer]]:
    async def body() -> list[weakref.ref[consumers.TableConsumer]]:
        refs = []
        for _ in range(ROUNDS):
            before = {s.channel_name for ws in consumers.LOCAL_SOCKETS.values() for s in ws}
            comm = socket(table_id, cookie, fmt=fmt)
            assert (await comm.connect())[0]
            await frames(comm, quiet=0.05)
            consumer = the_consumer(before)
            refs.append(weakref.ref(consumer))
            await ending(comm, consumer)
            del consumer, comm
        await asyncio.sleep(0.05)  # the loop's own callbacks of the last close
        return refs

    return run(body)


async def client_closes(comm: Any, consumer: consumers.TableConsumer) -> None:
    await comm.disconnect()


async def handler_fails(comm: Any, consumer: consumers.TableConsumer) -> None:
    """A socket ended by an exception rather than by its client: here its task cancelled
    (as a server shutting down does; a handler's own fault no longer ends a socket, it is
    answered ``malformed``). The exception goes through the socket's clean-up and is
    raised again, and the task keeps its traceback."""
    comm.future.cancel()
    # Waited for as daphne does (its application checker reads the end off the done task),
    # not by raising it here: a traceback through the test's own frames, which hold the
    # communicator and so the task, would be a cycle of the test's making.
    await asyncio.wait([comm.future], timeout=5)
    assert comm.future.cancelled()


def alive(refs: list[weakref.ref[consumers.TableConsumer]]) -> int:
    return sum(ref() is not None for ref in refs)


def test_a_spectators_closed_socket_is_freed_without_the_collector(
    users: list[Any], collector_off: None
) -> None:
    table = four_player_table(users)
    refs = open_and_close(table.pk, client_closes)
    assert alive(refs) == 0
    assert consumers.LOCAL_SOCKETS == {}


def test_a_players_closed_socket_is_freed_without_the_collector(
    users: list[Any], collector_off: None
) -> None:
    table = four_player_table(users)
    refs = open_and_close(table.pk, client_closes, cookie=session_cookie(users[1]), fmt="html")
    assert alive(refs) == 0


def test_a_socket_ended_by_an_error_is_freed_without_the_collector(
    users: list[Any], collector_off: None
) -> None:
    table = four_player_table(users)
    refs = open_and_close(table.pk, handler_fails)
    assert alive(refs) == 0


def _garbage_after(body: Callable[[], Awaitable[None]]) -> list[Any]:
    """What a full collection finds after ``body`` ran with the collector off (kept in
    gc.garbage by DEBUG_SAVEALL, so the test can name it)."""
    run(body)
    return _garbage()


def _garbage() -> list[Any]:
    """What a full collection finds now."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    return found


def test_a_move_the_thread_plays_leaves_nothing_for_the_collector(
    users: list[Any], collector_off: None, settings: Any
) -> None:
    """A move the event loop hands to the database thread (fastmoves.Fallback: at the
    tables every hand's last card, a busy SQLite, a name not cached; here every move, the
    loop's path being off) was played from inside the ``except`` that caught the
    Fallback. asgiref's sync_to_async raises the exception in flight again in its thread,
    so its traceback held the thread's frame that held the exception: a cycle holding
    the move's frames, the table's rows and its game states, which a server's collector
    reached only at its full pass (issue 26: 250 tables grew a process by about 370 MiB
    in ten minutes, most of it this, at about 0.5 MiB a hand's end)."""
    from game.engine.courtpiece.match import Match
    from game.tables import fastmoves

    settings.TABLES_FAST_MOVES = False
    table = four_player_table(users)
    cookies = [session_cookie(u) for u in users]

    async def body() -> None:
        comms = [socket(table.pk, cookie) for cookie in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
        latest = [(await until_version(c, 0))[-1] for c in comms]
        version = latest[0]["version"]
        for _ in range(ROUNDS):
            [mover] = [i for i, f in enumerate(latest) if f["legal"] and f["version"] == version]
            legal = [a for a in latest[mover]["legal"] if a not in ("redeal", "claim")]
            await comms[mover].send_json_to(
                {"type": "action", "action": legal[0], "version": version}
            )
            version += 1
            latest = [(await until_version(c, version))[-1] for c in comms]
        for comm in comms:
            await comm.disconnect()
        await fastmoves.close_all()

    garbage = _garbage_after(body)
    assert Table.objects.get(pk=table.pk).version >= ROUNDS  # the moves were played
    assert [o for o in garbage if type(o) is fastmoves.Fallback] == []
    assert [o for o in garbage if type(o) is Match] == []  # the states they held




def _where(task: asyncio.Future[Any]) -> str:
    """The innermost of the consumer's own coroutines its task waits in (name:line)."""
    where, coro = "", task.get_coro()  # type: ignore[attr-defined]
    while getattr(coro, "cr_frame", None) is not None:
        code = coro.cr_frame.f_code
        if code.co_filename == consumers.__file__:
            where = f"{code.co_name}:{coro.cr_frame.f_lineno}"
        coro = coro.cr_await
    return where


# Where the server cancels a socket's task after its client closed, in turn: "serve" while
# serve still waits (its first wait, the close not yet read, or its second, for its pump
# tasks), "clean-up" once serve is done (the socket's _ended: its place given back, out
# of the group, its seat's presence). daphne cancels again every second until it ends.
PLANS = [
    ("serve",),
    ("clean-up",),
    ("serve", "clean-up"),
    ("serve", "serve", "clean-up"),
]


def _place(task: asyncio.Future[Any]) -> str:
    where = _where(task)
    return "serve" if where.startswith("serve:") else "clean-up" if where else ""


def test_sockets_cancelled_in_their_clean_up_leave_nothing_for_the_collector(
    users: list[Any], collector_off: None, settings: Any
) -> None:
    """Issue 26, the soak's last finding: its clients closing 1,000 sockets at once left
    490 sockets' ``pump`` tasks of ``serve`` in reference cycles, two CancelledErrors
    each. The server cancels a socket's task once its clean-up after its client's close
    takes too long (daphne's application checker, again every second until it ends, as
    under a thousand closes at once), and a cancel that came while ``serve`` waited, or
    during ``_ended``, left the socket in cycles. Here each socket's client closes and
    its task is cancelled at the places of a plan (PLANS), one socket for each place a
    plan's cancel lands at (``serve``'s first wait, its second, each await of the
    clean-up). Nothing is left for the collector, and the clean-up is done all the same
    (its place given back: the OpenSocket row)."""
    from game.models import OpenSocket

    settings.TABLES_SOCKETS_PER_CLIENT = 1000  # one client's sockets, all watching
    table = four_player_table(users)
    refs: list[weakref.ref[consumers.TableConsumer]] = []
    carried_out: set[tuple[str, ...]] = set()
    cancelled_at: set[str] = set()

    async def one(plan: tuple[str, ...], skip: int) -> None:
        """A socket closed by its client, its task cancelled at ``plan``'s places,
        the first ``skip`` of the consumer's awaits at the first place let by."""
        before = {s.channel_name for ws in consumers.LOCAL_SOCKETS.values() for s in ws}
        comm = socket(table.pk)
        assert (await comm.connect())[0]
        await frames(comm, quiet=0.02)
        refs.append(weakref.ref(the_consumer(before)))
        await comm.input_queue.put({"type": "websocket.disconnect", "code": 1000})
        done: list[str] = []
        seen = ""
        deadline = time.monotonic() + 5
        while not comm.future.done() and len(done) < len(plan) and time.monotonic() < deadline:
            where = _where(comm.future)
            if where != seen:  # a new await of the consumer's
                seen = where
                if _place(comm.future) == plan[len(done)]:
                    if skip:
                        skip -= 1
                    else:
                        comm.future.cancel()
                        done.append(plan[len(done)])
                        cancelled_at.add(where)
            await asyncio.sleep(0)
        carried_out.add(tuple(done))
        # As daphne waits for it (handler_fails): the end read off the done task.
        await asyncio.wait([comm.future], timeout=5)
        assert comm.future.done()
        del comm

    async def body() -> None:
        for plan in PLANS:
            for skip in range(4):
                await one(plan, skip)
        deadline = time.monotonic() + 10  # the clean-ups that went on after their cancel
        while consumers.ENDING and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the loop's own callbacks of the last ones

    run(body)
    left = alive(refs)
    garbage = _garbage()
    assert set(PLANS) <= carried_out, (carried_out, cancelled_at)
    assert [o for o in garbage if isinstance(o, asyncio.CancelledError)] == []
    assert [o for o in garbage if isinstance(o, asyncio.Task)] == []
    assert [o for o in garbage if isinstance(o, consumers.TableConsumer)] == []
    assert left == 0
    assert consumers.LOCAL_SOCKETS == {}
    assert not OpenSocket.objects.filter(table_id=table.pk).exists()
