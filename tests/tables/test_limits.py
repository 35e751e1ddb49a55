"""The limits on a client's table sockets (docs/TABLE_PROTOCOL.md, "Limits";
game.tables.limits): a table takes so many sockets, a client holds so many, both counted
in the database so that every server process sees them; a watcher past a cap is refused
with ``forbidden`` and the socket closed, a player's socket to their own seat never is;
and a client's frames are rate-limited over all its sockets together."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from game.models import OpenSocket, ServerProcess
from game.tables import limits, presence
from tests.tables.live import (
    four_player_table,
    frames,
    run,
    session_cookie,
    socket,
)


def guest(name: str) -> bytes:
    """A guest's session cookie, the guest key its own."""
    store = SessionStore()
    store["guest_key"] = f"guest-{name}-" + "k" * 20
    store.create()
    return f"sessionid={store.session_key}".encode()


async def refused(comm: Any) -> dict[str, Any]:
    """The socket is accepted, told ``forbidden``, then closed with 4403."""
    assert (await comm.connect())[0]
    error = await comm.receive_json_from(timeout=10)
    assert error["type"] == "error" and error["code"] == "forbidden", error
    closing = await comm.receive_output(timeout=10)
    assert closing == {"type": "websocket.close", "code": 4403}, closing
    return error


async def drain(comm: Any) -> None:
    """Every frame the socket has been sent so far, read and dropped."""
    while not await comm.receive_nothing(timeout=0.1):
        await comm.receive_output()


@database_sync_to_async
def sockets_at(table: Any) -> int:
    return OpenSocket.objects.filter(table=table).count()


async def admitted(comm: Any) -> None:
    assert (await comm.connect())[0]
    first = await comm.receive_json_from(timeout=10)
    assert first["type"] == "state", first


def test_a_table_past_its_cap_refuses_watchers_and_never_its_players(
    users: list[Any], settings: Any
) -> None:
    settings.TABLES_SOCKETS_PER_TABLE = 5
    table = four_player_table(users)
    cookies = [session_cookie(u) for u in users]
    a, b = guest("a"), guest("b")

    async def body() -> None:
        players = [socket(table.pk, c) for c in cookies]
        for comm in players:
            await admitted(comm)
        watcher = socket(table.pk, a)
        await admitted(watcher)  # the fifth
        error = await refused(socket(table.pk, b))
        assert "table" in error["message"]
        assert await sockets_at(table) == 5
        # A player's second socket to their own seat, past the cap: admitted, counted.
        again = socket(table.pk, cookies[2])
        await admitted(again)
        assert await sockets_at(table) == 6
        # A place given back is taken again.
        await watcher.disconnect()
        await again.disconnect()
        await admitted(watcher := socket(table.pk, b))
        for comm in [*players, watcher]:
            await comm.disconnect()

    run(body)
    assert OpenSocket.objects.count() == 0  # every socket gave its place back


def test_a_client_past_its_cap_is_refused_over_every_table(
    users: list[Any], settings: Any
) -> None:
    settings.TABLES_SOCKETS_PER_CLIENT = 2
    first, second = four_player_table(users), four_player_table(users)
    cookie, other_cookie = guest("many"), guest("other")

    async def body() -> None:
        a, b = socket(first.pk, cookie), socket(second.pk, cookie)
        await admitted(a)
        await admitted(b)
        error = await refused(socket(first.pk, cookie))
        assert "client" in error["message"]
        # Another client is not held back by this one; nor is a player at their seat.
        other = socket(first.pk, other_cookie)
        await admitted(other)
        await b.disconnect()
        await admitted(b := socket(second.pk, cookie))
        for comm in (a, b, other):
            await comm.disconnect()

    run(body)


def test_an_anonymous_client_is_counted_by_its_address(
    users: list[Any], settings: Any
) -> None:
    settings.TABLES_SOCKETS_PER_CLIENT = 1
    table = four_player_table(users)

    async def body() -> None:
        a = socket(table.pk)  # no session: the communicator's peer is 127.0.0.1
        await admitted(a)
        await refused(socket(table.pk))
        await a.disconnect()

    run(body)


def test_the_caps_count_every_process_and_forget_a_dead_ones(
    users: list[Any], settings: Any
) -> None:
    """Another process's sockets are rows like this one's: they count here. When that
    process's heartbeat stops, its rows go with it and the places are free again."""
    settings.TABLES_SOCKETS_PER_TABLE = 6
    table = four_player_table(users)
    ServerProcess.objects.create(name="elsewhere", seen_at=timezone.now())
    for n in range(6):
        OpenSocket.objects.create(
            channel=f"elsewhere-{n}", table=table, client=f"guest:{n}", process="elsewhere"
        )
    late, player_cookie = guest("late"), session_cookie(users[1])

    async def body() -> None:
        await refused(socket(table.pk, late))
        # A player's socket is admitted all the same.
        player = socket(table.pk, player_cookie)
        await admitted(player)
        await player.disconnect()

    run(body)
    ServerProcess.objects.filter(name="elsewhere").update(
        seen_at=timezone.now() - timedelta(seconds=3600)
    )
    assert presence.reap_dead_processes() == 1
    assert OpenSocket.objects.count() == 0

    async def after() -> None:
        comm = socket(table.pk, late)
        await admitted(comm)
        await comm.disconnect()

    run(after)


def test_a_clients_frames_are_limited_over_all_its_sockets(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten sockets of one guest (issue 26: they had 138 frames a second handled against
    10): one budget of BURST frames between them, none refilled here (RATE 0) so the
    count is exact; another client's budget is its own."""
    monkeypatch.setattr(limits, "RATE", 0.0)
    table = four_player_table(users)
    cookie, patient = guest("greedy"), guest("patient")

    async def body() -> tuple[int, int, int]:
        comms = [socket(table.pk, cookie) for _ in range(10)]
        for comm in comms:
            await admitted(comm)
        for comm in comms:
            await drain(comm)
        for _ in range(5):
            for comm in comms:
                await comm.send_json_to({"type": "ping"})
        answers = [f for comm in comms for f in await frames(comm, quiet=0.3)]
        pongs = sum(f.get("type") == "pong" for f in answers)
        limited = sum(f.get("code") == "rate_limited" for f in answers)
        other = socket(table.pk, patient)
        await admitted(other)
        await other.send_json_to({"type": "ping"})
        theirs = (await until_pong(other))["type"]
        for comm in [*comms, other]:
            await comm.disconnect()
        return pongs, limited, int(theirs == "pong")

    pongs, limited, theirs = run(body)
    assert (pongs, limited) == (limits.BURST, 50 - limits.BURST)
    assert theirs == 1
    assert limits.BUDGETS.clients() == 0  # forgotten with the clients' last sockets


async def until_pong(comm: Any) -> dict[str, Any]:
    while True:
        frame = await comm.receive_json_from(timeout=10)
        if frame.get("type") in ("pong", "error"):
            return frame


def test_a_players_frames_share_one_budget_across_their_sockets(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seated player's two sockets (two tabs) spend one budget too."""
    monkeypatch.setattr(limits, "RATE", 0.0)
    table = four_player_table(users)
    cookie = session_cookie(users[1])

    async def body() -> int:
        tabs = [socket(table.pk, cookie), socket(table.pk, cookie)]
        for comm in tabs:
            await admitted(comm)
        for comm in tabs:
            await drain(comm)
        for _ in range(limits.BURST):
            for comm in tabs:
                await comm.send_json_to({"type": "ping"})
        answers = [f for comm in tabs for f in await frames(comm, quiet=0.3)]
        for comm in tabs:
            await comm.disconnect()
        return sum(f.get("type") == "pong" for f in answers)

    assert run(body) == limits.BURST
