"""Run by tests/site/test_process.py in a process of its own: daphne serving the site
in this process with the collector off, spectator sockets opened and closed against it,
then one collection that keeps what it finds (gc.DEBUG_SAVEALL). Prints, as JSON, how
many objects of the server's side of a connection (daphne, Twisted, autobahn, the
consumers) only that collection could have freed.

    python tests/site/daphne_sockets.py PORT SOCKETS     (DATABASE_URL: a fresh SQLite)
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import bootstrap  # noqa: E402

bootstrap.ensure_baithak_importable()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baithak.settings")
os.environ["GC_FREEZE_SECONDS"] = "0"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

SERVER_SIDE = ("daphne.", "twisted.", "autobahn.", "game.", "channels.")


def table_to_watch() -> int:
    from game.tables import access, lifecycle

    call_command("migrate", "--noinput", verbosity=0)
    users = [get_user_model().objects.create_user(f"p{i}", password="pw") for i in range(4)]
    owners = [access.Owner(user=u, guest_key=None) for u in users]
    table = lifecycle.create_table(owner=owners[0], game="courtpiece")
    for n in (1, 2, 3):
        lifecycle.take_seat(table_id=table.pk, owner=owners[n], seat=n, invite=table.invite)
    lifecycle.start_table(table_id=table.pk, owner=owners[0])
    return int(table.pk)


def watch(port: int, table_id: int, count: int) -> None:
    import websockets

    async def once() -> None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/?format=json",
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        ) as ws:
            await ws.recv()

    async def many() -> None:
        for _ in range(count):
            await once()

    asyncio.run(many())


def main() -> None:
    port, count = int(sys.argv[1]), int(sys.argv[2])
    table_id = table_to_watch()
    from baithak.asgi import application
    from daphne.server import Server

    def client() -> None:
        try:
            time.sleep(1)
            watch(port, table_id, 5)  # the first sockets make what lives on (caches)
            time.sleep(1.5)  # daphne lets go of a closed connection within a second
            gc.collect()
            gc.disable()
            watch(port, table_id, count)
            time.sleep(2.5)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            gc.set_debug(0)
            kinds = collections.Counter(
                f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
            )
            left = {k: v for k, v in kinds.items() if k.startswith(SERVER_SIDE)}
            print(json.dumps({"sockets": count, "server_side_garbage": left}), flush=True)
        finally:
            from twisted.internet import reactor

            reactor.callFromThread(reactor.stop)  # type: ignore[attr-defined]

    threading.Thread(target=client, daemon=True).start()
    Server(
        application, endpoints=[f"tcp:port={port}:interface=127.0.0.1"], websocket_timeout=-1,
        verbosity=0,
    ).run()


if __name__ == "__main__":
    main()
