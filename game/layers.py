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

And a channel keeps its queue while its receiver lives. Channels' layer drops a queue as
soon as a receive empties it and makes a new one for the next message (and builds a
spare on every send and receive, as ``setdefault``'s argument): a new ``asyncio.Queue``
per socket per move, each alive until the socket's next message, which the garbage
collector's young passes then walked (bench/load.py). A queue goes when its receiver is
cancelled (the socket closed) and it is empty, or, as in Channels, when a message in it
expires unread.
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

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        except BaseException:  # the receiver is gone: nobody will read an empty queue
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
            raise
        return message  # type: ignore[no-any-return]

    def _queue(self, channel: str) -> asyncio.Queue[Any]:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue  # type: ignore[no-any-return]

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self._queue(channel)
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.queues.QueueFull:
            raise ChannelFull(channel) from None
