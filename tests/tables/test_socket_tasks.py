"""A table socket waits for its messages with one task per source for its whole life
(game.tables.transport.consumers.serve), not a new task for every message as Channels'
own loop does: what it keeps alive between messages is what the garbage collector has to
walk."""

from __future__ import annotations

import asyncio
from typing import Any

from game.models import Table
from tests.tables.live import four_player_table, run, session_cookie, socket, until_version


def test_moves_make_no_new_task_per_message(users: list[Any]) -> None:
    table = four_player_table(users)
    cookies = [session_cookie(u) for u in users]
    created: list[str] = []

    async def body() -> None:
        loop = asyncio.get_running_loop()
        comms = [socket(table.pk, cookie) for cookie in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
        latest: list[dict[str, Any]] = [(await until_version(c, 0))[-1] for c in comms]
        version = latest[0]["version"]

        def counting(loop: Any, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            created.append(getattr(coro, "__qualname__", repr(coro)))
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(counting)
        try:
            for _ in range(8):  # 8 moves: 8 frames in, 32 notices and 32 frames out
                [mover] = [
                    i for i, f in enumerate(latest) if f["legal"] and f["version"] == version
                ]
                legal = [a for a in latest[mover]["legal"] if a not in ("redeal", "claim")]
                await comms[mover].send_json_to(
                    {"type": "action", "action": legal[0], "version": version}
                )
                version += 1
                latest = [(await until_version(c, version))[-1] for c in comms]
        finally:
            loop.set_task_factory(None)
        for comm in comms:
            await comm.disconnect()

    run(body)
    assert Table.objects.get(pk=table.pk).version >= 8
    # The communicators' own sends and receives are tasks of the test's side; the
    # consumers made none of their own for any of the 72 messages.
    ours = [name for name in created if name.startswith("serve.") or "await_many_dispatch" in name
            or ("receive" in name and "Communicator" not in name)]
    assert ours == [], created
