"""A closed table socket frees what it held at once, by reference counting alone: a
server holds its garbage collector's passes back (baithak.process), so anything of a
socket left in a reference cycle stayed until the full pass ten minutes later, about
30 KiB a socket (issue 26: 272 to 1,365 MiB in seven minutes of spectators coming and
going). Each test runs its sockets with the collector off, then asks whether the
consumers are gone (a weak reference) before any collection."""

from __future__ import annotations

import asyncio
import gc
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
