"""The load benchmark's anchor: a bare Channels group-broadcast consumer.

It does what a table does minus the game: a client's ``action`` frame is checked against
the group's version, then broadcast through the channel layer to every socket of the
group, each of which sends a frame as large as a real table's state frame. Served by
daphne with the project's settings (so the same channel layer: in-memory or Redis) from
``bench/load.py``; never part of the site.
"""

from __future__ import annotations

import os
from typing import Any

import django

import bootstrap  # noqa: F401  (maps site/ to the import name baithak)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baithak.settings")
django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

FRAME_BYTES = int(os.environ.get("ANCHOR_FRAME_BYTES", "3000"))
_PAD = "x" * FRAME_BYTES
_versions: dict[str, int] = {}  # one process: enough for a bare anchor


class GroupBroadcast(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        self.group = f"anchor-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "state", "version": _versions.get(self.group, 0)})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if content.get("type") != "action":
            return
        current = _versions.get(self.group, 0)
        if content.get("version") != current:
            await self.send_json({"type": "error", "code": "stale", "message": "stale"})
            return
        _versions[self.group] = current + 1
        await self.channel_layer.group_send(
            self.group, {"type": "table.update", "version": current + 1}
        )

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "version": event["version"], "pad": _PAD})


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/tables/<str:table>/", GroupBroadcast.as_asgi())])}
)

# The same process settings as the site's application (baithak.asgi).
from baithak.process import tune_collector  # noqa: E402

tune_collector()
