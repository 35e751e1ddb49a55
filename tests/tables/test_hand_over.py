"""A move's frames go straight to the table's other sockets in the same process
(game.consumers.TableConsumer._hand_over), not through a turn of the event loop each via
the channel layer; a socket busy with a message of its own is left to the layer's copy.
The layer's copy then skips the sockets served here; any that still arrives is a repeat,
so each socket sends each version once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.layers import get_channel_layer

from game.tables import groups
from game.tables.transport import consumers
from tests.tables.live import four_player_table, run, session_cookie, socket, until_version


def _mover(latest: list[dict[str, Any]], version: int) -> tuple[int, str]:
    [mover] = [i for i, f in enumerate(latest) if f["legal"] and f["version"] == version]
    legal = [a for a in latest[mover]["legal"] if a not in ("redeal", "claim")]
    return mover, legal[0]


async def _states(comm: Any, quiet: float = 0.5) -> list[dict[str, Any]]:
    """The state frames this socket sends until it is quiet."""
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        frame = json.loads(await comm.receive_from())
        if frame.get("type") == "state":
            out.append(frame)
    return out


async def _versions(comm: Any) -> list[int]:
    return [f["version"] for f in await _states(comm)]


@pytest.mark.parametrize("busy", [False, True])
def test_a_move_reaches_the_other_sockets_here_without_the_layer(
    users: list[Any], monkeypatch: pytest.MonkeyPatch, busy: bool
) -> None:
    table = four_player_table(users)
    group = groups.group_name(table.pk)
    layer = get_channel_layer()
    real_group_send = layer.group_send
    real_send_except = layer.group_send_except
    held: list[tuple[dict[str, Any], set[str]]] = []

    async def table_notices_held(
        name: str, message: dict[str, Any], skip: Any = ()
    ) -> None:
        if name == group:  # the layer's copy: not delivered until the test says
            held.append((message, set(skip)))
            return
        await real_send_except(name, message, skip)

    cookies = [session_cookie(u) for u in users]

    async def body() -> None:
        comms = [socket(table.pk, cookie) for cookie in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
        latest = []
        for comm in comms:  # up to the last of the connect notices
            latest.append([*await until_version(comm, 0), *await _states(comm)][-1])
        version = latest[0]["version"]
        mover, action = _mover(latest, version)
        bystander = (mover + 1) % 4
        sockets = {c.seat: c for c in consumers.LOCAL_SOCKETS[group]}
        assert sorted(sockets) == [0, 1, 2, 3]
        monkeypatch.setattr(layer, "group_send", table_notices_held)
        monkeypatch.setattr(layer, "group_send_except", table_notices_held)
        release = asyncio.Event()

        async def hold_the_turn() -> None:  # as if that socket were busy with a message
            async with sockets[bystander].turn.hold():
                await release.wait()

        holder = asyncio.ensure_future(hold_the_turn())
        await asyncio.sleep(0)
        assert not busy or not sockets[bystander].turn.free()
        if not busy:
            release.set()
            await holder
        await comms[mover].send_json_to(
            {"type": "action", "action": action, "version": version}
        )
        got = [await _versions(c) for c in comms]
        assert len(held) == 1  # committed and sent to the group once
        notice, skip = held[0]
        for seat, versions in enumerate(got):
            if busy and seat == bystander:
                assert versions == []  # skipped: left to the group's copy
            else:
                assert versions == [version + 1], (seat, versions)
        # The group's copy skips the sockets served already: all four, or all but the
        # busy one.
        served = {s.channel_name for seat, s in sockets.items()
                  if not (busy and seat == bystander)}
        assert skip == served
        if busy:
            release.set()
            await holder
        monkeypatch.setattr(layer, "group_send", real_group_send)
        monkeypatch.setattr(layer, "group_send_except", real_send_except)
        # Sent as the socket sent it, the copy reaches only the busy one, with its
        # frame; and even sent to all, it is a repeat for every socket that has it.
        await real_send_except(group, notice, skip)
        again = [await _versions(c) for c in comms]
        for seat, versions in enumerate(again):
            expected = [version + 1] if busy and seat == bystander else []
            assert versions == expected, (seat, versions)
        await real_group_send(group, notice)
        assert [await _versions(c) for c in comms] == [[], [], [], []]
        for comm in comms:
            await comm.disconnect()
        await asyncio.sleep(0)
        assert group not in consumers.LOCAL_SOCKETS  # the last socket gone: the entry too

    run(body)


def test_a_turn_is_not_free_while_someone_waits_for_it() -> None:
    """The lock alone says unlocked in the moment between one holder's release and the
    next waiter's start: a hand-over then would queue behind that waiter's message, which
    may be newer than its frame."""

    async def body() -> None:
        turn = consumers.Turn()
        assert turn.free()
        first_in = asyncio.Event()
        go = asyncio.Event()

        seen: list[tuple[bool, bool]] = []

        async def first() -> None:
            async with turn.hold():
                first_in.set()
                await go.wait()
            # Released, and the second not yet running (nothing awaited since).
            seen.append((turn.held(), turn.free()))

        async def second() -> None:
            async with turn.hold():
                pass

        a = asyncio.ensure_future(first())
        await first_in.wait()
        assert turn.held() and not turn.free()
        b = asyncio.ensure_future(second())
        await asyncio.sleep(0)  # the second now waits
        go.set()
        await a
        assert seen == [(False, False)]  # unlocked, and still not free
        await b
        assert turn.free()

    asyncio.run(body())
