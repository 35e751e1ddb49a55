"""The table socket under the real server (daphne, started as the browser tests' site is):
a frame over daphne's 1 MiB limit gets a close frame, 1009, not a dropped connection; a
client that closes while its answers are on the way leaves no error in the server's log
("Attempt to send on a closed protocol"); and a crafted frame is answered (issue 26)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from tests.browser.site import Site

MAKE_TABLE = """
import json
from game.tables import access, lifecycle
table = lifecycle.create_table(
    owner=access.Owner(user=None, guest_key="k" * 24), game="courtpiece", bots=[1, 2, 3]
)
print("RESULT:" + json.dumps({"id": table.pk}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    served = Site(tmp_path_factory.mktemp("server_sockets"))
    served.start()
    served.table = served.manage("shell", code=MAKE_TABLE)["id"]  # type: ignore[attr-defined]
    yield served
    served.stop()


def _connect(site: Site, **kwargs: Any) -> Any:
    uri = f"ws://127.0.0.1:{site.port}/ws/tables/{site.table}/?format=json"  # type: ignore[attr-defined]
    return websockets.connect(uri, origin=site.url, max_size=None, **kwargs)  # type: ignore[arg-type]


def _log(site: Site) -> str:
    return site.log.read_text(errors="replace")


def test_a_frame_over_a_mebibyte_gets_a_close_frame_1009(site: Site) -> None:
    async def body() -> Any:
        async with _connect(site) as ws:
            await ws.recv()  # the state frame
            await ws.send("x" * (1024 * 1024 + 1))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 20)
            return closed.value

    closed = asyncio.run(body())
    assert closed.rcvd is not None, "the connection was dropped without a close frame"
    assert closed.rcvd.code == 1009


def test_a_crafted_frame_is_answered_and_the_socket_lives_on(site: Site) -> None:
    async def body() -> list[Any]:
        async with _connect(site) as ws:
            await ws.recv()
            await ws.send("[" * 1024 + "]" * 1024)
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            await ws.send(json.dumps({"type": "ping"}))
            return [first, json.loads(await asyncio.wait_for(ws.recv(), 20))]

    answers = asyncio.run(body())
    assert answers[0]["type"] == "error" and answers[0]["code"] == "malformed"
    assert answers[1] == {"type": "pong"}
    assert "Traceback" not in _log(site)


def test_closing_while_answers_are_on_the_way_logs_no_error(site: Site) -> None:
    """Pings, then at once the close: the answers to the pings meet a closing socket."""

    async def one() -> None:
        async with _connect(site) as ws:
            await ws.recv()
            for _ in range(15):
                await ws.send('{"type": "ping"}')
            await ws.send('{"type": "ping", "pad": "' + "x" * 1500 + '"}')
        # (leaving the block sends the close frame right after the pings)

    async def body() -> None:
        for _ in range(4):
            await asyncio.gather(*(one() for _ in range(8)))

    asyncio.run(body())
    text = _log(site)
    assert "Attempt to send on a closed protocol" not in text, text[-3000:]
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]
