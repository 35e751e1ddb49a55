"""The in-memory channel layer for one process (``make run``, tests), with a cheaper sweep.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group for expired
messages and memberships on each send and each receive: with a thousand sockets open that
sweep was a fifth of the server's time (bench/load.py --profile). Messages expire after a
minute and memberships after a day, so sweeping at most once a second changes nothing a
player or a test could notice. The load benchmark's anchor uses the same layer.

It also hands each receiver a copy of the message's top level only, not a deep copy: a
table's change notice (every seat's frame) went to four sockets per move, and deep-copying
it four times was a twentieth of the event loop's time. Receivers here only read the
nested parts; channels-redis serialises anyway. And a group send puts the message on each
member's queue at once instead of through a task per member.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer

SWEEP_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryLayer):  # type: ignore[misc]
    _swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        super()._clean_expired()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        # Channels' own send, but for the copy (see the module's docstring).
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        # Channels' own starts a task per member and awaits them all, for what is a
        # put on a queue: put at once (a full channel still misses the message).
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                self._put(channel, message)

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.channels.setdefault(
            channel, asyncio.Queue(maxsize=self.get_capacity(channel))
        )
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.queues.QueueFull:
            raise ChannelFull(channel) from None
