"""The in-memory channel layer for one process (``make run``, tests), with a cheaper sweep.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group for expired
messages and memberships on each send and each receive: with a thousand sockets open that
sweep was a large share of the server's time (docs/PERFORMANCE.md). Messages expire after a
minute and memberships after a day, so sweeping at most once a second changes nothing a
player or a test could notice. The load benchmark's anchor uses the same layer.

It also hands each receiver a copy of the message's top level only, not a deep copy: a
table's change notice (every seat's frame) goes to four sockets per move, and
deep-copying it four times was a measurable share of the event loop's time. Receivers
here only read the nested parts; channels-redis serialises anyway. And a group send puts
the message on each member's queue at once instead of through a task per member.

And a channel keeps its queue while its receiver lives. Channels' layer drops a queue as
soon as a receive empties it and makes a new one for the next message (and builds a
spare on every send and receive, as ``setdefault``'s argument): a new ``asyncio.Queue``
per socket per move, each alive until the socket's next message, which the garbage
collector's young passes then walked. A queue goes when its receiver is
cancelled (the socket closed) and it is empty, or, as in Channels, when a message in it
expires unread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer

SWEEP_EVERY = 1.0  # seconds

log = logging.getLogger(__name__)


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
        await self.group_send_except(group, message, ())

    async def group_send_except(
        self, group: str, message: dict[str, Any], skip: Collection[str]
    ) -> None:
        """``group_send``, but not to the channels in ``skip``: sockets that already
        have what the message carries (see ``TableConsumer._hand_over``)."""
        # Channels' own starts a task per member and awaits them all, for what is a
        # put on a queue: put at once (a full channel still misses the message).
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            if channel in skip:
                continue
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


# ---------------------------------------------------------------------------- Redis
try:
    from channels_redis.core import RedisChannelLayer as _ChannelsRedisLayer
except ImportError:  # the in-memory layer needs no Redis client (make run)
    _ChannelsRedisLayer = None


if _ChannelsRedisLayer is not None:

    class RedisChannelLayer(_ChannelsRedisLayer):  # type: ignore[misc,valid-type]
        """channels-redis, with a process's own channels served in the process.

        A table's sockets are mostly on one server process, and channels-redis sends
        every group message through Redis even so: the group's members read (two round
        trips), the message serialised and pushed (two more), then popped, backed up and
        cleaned by the process's receiver (four more), about eight round trips of
        redis-py per move. Under load that was most of a core's difference from the
        in-memory layer (docs/PERFORMANCE.md), enough to saturate one daphne process.

        Here a message for a channel of this process, sent on the loop its sockets
        receive on, goes straight on that channel's queue; channels of other processes
        get it through Redis exactly as before, and the group's membership stays in
        Redis, so any process can send to any group. What arrives through Redis is read
        by one task per process (not by whichever socket holds a lock, with two tasks
        and an ``asyncio.wait`` per socket per message) and put on the channels' queues.

        As in the in-memory layer above, a channel keeps its queue while its receiver
        lives; a queue nobody has received from for ``expiry`` seconds (the socket is
        gone) is dropped with what it holds, as Redis drops unread messages.

        Two differences from channels-redis, for messages served here: they are not
        serialised (the receivers get a top-level copy, as from the in-memory layer, so
        a message must still be msgpack's kind of data for the sockets of other
        processes), and a full queue (``capacity``) loses its oldest message, as
        channels-redis' own buffer of received messages does, where a group send to a
        full inbox in Redis loses the new one.
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._local_loop: asyncio.AbstractEventLoop | None = None
            # Public, like channels-redis' own receive_buffer, for the tests to look at:
            # the tasks reading this process's channels from Redis (by the non-local
            # name), and when each queue was last received from.
            self.readers: dict[str, asyncio.Task[None]] = {}
            self.seen: dict[str, float] = {}
            self._waiting: dict[str, int] = {}  # receivers waiting now, by channel
            self._last_receive = 0.0
            self._swept = 0.0
            # This process's own channels in each group, as it added them: a group
            # message reaches them before the group's members are read from Redis.
            self._members: dict[str, dict[str, float]] = {}

        def _ours(self, channel: str) -> bool:
            return "!" in channel and self.non_local_name(channel).endswith(
                self.client_prefix + "!"
            )

        def _here(self) -> bool:
            """Are we on the loop this process's receivers wait on? (Only there may a
            queue of theirs be touched: async_to_sync from another thread has a loop of
            its own, and sends through Redis like another process.)"""
            try:
                return asyncio.get_running_loop() is self._local_loop
            except RuntimeError:
                return False

        # ------------------------------------------------------------ receiving
        async def new_channel(self, prefix: str = "specific") -> str:
            # A channel is made on the loop that will receive on it: from now on a
            # message for it sent on that loop is put straight on its queue.
            if self._local_loop is None or self._local_loop.is_closed():
                self._local_loop = asyncio.get_running_loop()
            return await super().new_channel(prefix)  # type: ignore[no-any-return]

        async def receive(self, channel: str) -> dict[str, Any]:
            if "!" not in channel:
                return await super().receive(channel)  # type: ignore[no-any-return]
            assert self.require_valid_channel_name(channel)
            assert self._ours(channel), "Wrong client prefix"
            loop = asyncio.get_running_loop()
            if self._local_loop is not loop:
                if self._waiting and self._local_loop is not None and (
                    not self._local_loop.is_closed()
                ):
                    raise RuntimeError(
                        "Two event loops are trying to receive() on one channel layer at once!"
                    )
                self._forget_local()
                self._local_loop = loop
            self._last_receive = now = time.monotonic()
            self.seen[channel] = now
            self._sweep(now)
            real = self.non_local_name(channel)
            reader = self.readers.get(real)
            if reader is None or reader.done():
                self.readers[real] = loop.create_task(self._read(real))
            queue = self.receive_buffer[channel]
            if not queue.empty():
                return queue.get_nowait()  # type: ignore[no-any-return]
            self._waiting[channel] = self._waiting.get(channel, 0) + 1
            try:
                return await queue.get()  # type: ignore[no-any-return]
            except BaseException:  # the receiver is gone: nobody reads an empty queue
                if queue.empty() and self.receive_buffer.get(channel) is queue and (
                    self._waiting[channel] == 1
                ):
                    del self.receive_buffer[channel]
                    self.seen.pop(channel, None)
                raise
            finally:
                left = self._waiting.get(channel, 1) - 1
                if left:
                    self._waiting[channel] = left
                else:
                    self._waiting.pop(channel, None)
                if channel in self.receive_buffer:  # not for a queue just dropped
                    self.seen[channel] = time.monotonic()

        async def _read(self, real: str) -> None:
            """Move what arrives through Redis for this process onto its channels'
            queues, until nobody here has received for a while (``receive_single`` with
            a way out: it waits in steps of ``brpop_timeout``)."""
            index = self.consistent_hash(real)
            key = self.prefix + real
            failing = False
            while self._waiting or time.monotonic() - self._last_receive < 2 * self.brpop_timeout:
                await self.receive_clean_locks.acquire(key)
                try:
                    content = await self._brpop_with_clean(index, key, self.brpop_timeout)
                except asyncio.CancelledError:
                    self.receive_clean_locks.release(key)
                    raise
                except Exception:  # Redis away: keep the sockets, try again shortly
                    self.receive_clean_locks.release(key)
                    if not failing:  # once an outage, not every half second
                        log.exception("reading this process's channels from Redis")
                    failing = True
                    await asyncio.sleep(0.5)
                    continue
                if failing:
                    log.warning("reading this process's channels from Redis again")
                    failing = False
                if content is None:
                    self.receive_clean_locks.release(key)
                    continue
                cleaner = asyncio.ensure_future(self._clean_receive_backup(index, key))
                self.receive_cleaners.append(cleaner)

                def done(cleaner: asyncio.Future[Any], key: bytes | str = key) -> None:
                    self.receive_cleaners.remove(cleaner)
                    self.receive_clean_locks.release(key)

                cleaner.add_done_callback(done)
                message = self.deserialize(content)
                channels = message.pop("__asgi_channel__", None)
                if channels is None:
                    continue  # sent to the non-local name itself: nobody here asks for it
                for channel in channels if isinstance(channels, list) else [channels]:
                    self._deliver(channel, message)
            if self.readers.get(real) is asyncio.current_task():
                del self.readers[real]

        def _deliver(self, channel: str, message: dict[str, Any]) -> None:
            self.seen.setdefault(channel, time.monotonic())
            self.receive_buffer[channel].put_nowait(message)  # full: drops the oldest

        def _sweep(self, now: float) -> None:
            """Drop the queues of sockets gone for ``expiry`` seconds (at most once a
            second: a look at every queue)."""
            if now - self._swept < SWEEP_EVERY:
                return
            self._swept = now
            for channel, seen in list(self.seen.items()):
                if channel not in self._waiting and now - seen > self.expiry:
                    self.receive_buffer.pop(channel, None)
                    del self.seen[channel]
            fresh = time.time() - self.group_expiry
            for group, members in list(self._members.items()):
                for channel, added in list(members.items()):
                    if added <= fresh:
                        del members[channel]
                if not members:
                    del self._members[group]

        def _forget_local(self) -> None:
            """A new loop receives: what the last one had waiting goes with it."""
            for reader in self.readers.values():  # on that other loop, if it still runs
                if not reader.get_loop().is_closed():
                    reader.get_loop().call_soon_threadsafe(reader.cancel)
            self.readers.clear()
            self.receive_buffer.clear()
            self._waiting.clear()
            self.seen.clear()
            self._local_loop = None

        async def _stop_readers(self) -> None:
            readers = list(self.readers.values())
            self.readers.clear()
            for reader in readers:
                loop = reader.get_loop()
                if loop is asyncio.get_running_loop():
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await reader
                elif not loop.is_closed():
                    loop.call_soon_threadsafe(reader.cancel)

        async def close_pools(self) -> None:
            # The readers hold a connection each: stopped first, then the pools closed,
            # and started again (on fresh connections) for any socket still waiting,
            # which would otherwise hear nothing more from other processes.
            await self._stop_readers()
            await super().close_pools()
            if self._waiting and self._here():
                loop = asyncio.get_running_loop()
                for real in {self.non_local_name(c) for c in self._waiting}:
                    self.readers[real] = loop.create_task(self._read(real))

        async def flush(self) -> None:
            await super().flush()  # every group gone from Redis: so are our copies
            self._members.clear()

        # ------------------------------------------------------------ sending
        async def send(self, channel: str, message: dict[str, Any]) -> None:
            if not (self._ours(channel) and self._here()):
                await super().send(channel, message)
                return
            assert isinstance(message, dict), "message is not a dict"
            assert self.require_valid_channel_name(channel), "Channel name not valid"
            assert "__asgi_channel__" not in message
            if self.receive_buffer[channel].qsize() >= self.get_capacity(channel):
                raise ChannelFull()
            self._deliver(channel, dict(message))

        async def group_add(self, group: str, channel: str) -> None:
            await super().group_add(group, channel)
            if self._ours(channel):
                self._members.setdefault(group, {})[channel] = time.time()

        async def group_discard(self, group: str, channel: str) -> None:
            members = self._members.get(group)
            if members is not None:
                members.pop(channel, None)
                if not members:
                    del self._members[group]
            await super().group_discard(group, channel)

        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            await self.group_send_except(group, message, ())

        async def group_send_except(
            self, group: str, message: dict[str, Any], skip: Collection[str]
        ) -> None:
            """``group_send``, but not to the channels in ``skip``: sockets that already
            have what the message carries (see ``TableConsumer._hand_over``). With every
            member of the group skipped, nothing is sent at all."""
            assert self.require_valid_group_name(group), "Group name not valid"
            here = self._here()
            local: dict[str, Any] | None = None  # one copy for them all, as from Redis
            served: set[str] = set(skip)
            if here:
                # This process's members first, with no round trip: a move's sockets
                # hear of it one turn of the loop sooner. (As in Redis, a membership
                # lapses after group_expiry.)
                fresh = time.time() - self.group_expiry
                for channel, added in list(self._members.get(group, {}).items()):
                    if added > fresh and channel not in served:
                        local = dict(message) if local is None else local
                        self._deliver(channel, local)
                        served.add(channel)
            key = self._group_key(group)
            connection = self.connection(self.consistent_hash(group))
            # Channels' two reads in one round trip.
            pipe = connection.pipeline(transaction=False)
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _, members = await pipe.execute()
            others: list[str] = []
            for name in members:
                channel = name.decode("utf8")
                if channel in served:
                    continue
                if here and self._ours(channel):  # added by another process: still ours
                    local = dict(message) if local is None else local
                    self._deliver(channel, local)
                else:
                    others.append(channel)
            if others:
                await self.send_through_redis(group, others, message)

        async def send_through_redis(
            self, group: str, channel_names: list[str], message: dict[str, Any]
        ) -> None:
            """Send ``message`` to ``channel_names`` (members of ``group``) through Redis:
            channels-redis' ``group_send`` after its reads, as it is."""
            connection_to_channel_keys, channel_keys_to_message, channel_keys_to_capacity = (
                self._map_channel_keys_to_connection(channel_names, message)
            )
            for index, channel_redis_keys in connection_to_channel_keys.items():
                connection = self.connection(index)
                pipe = connection.pipeline()
                for key in channel_redis_keys:
                    pipe.zremrangebyscore(key, min=0, max=int(time.time()) - int(self.expiry))
                await pipe.execute()
                args = [channel_keys_to_message[key] for key in channel_redis_keys]
                args += [channel_keys_to_capacity[key] for key in channel_redis_keys]
                args += [time.time(), self.expiry]
                over = await connection.eval(
                    _GROUP_SEND_LUA, len(channel_redis_keys), *channel_redis_keys, *args
                )
                if over > 0:
                    log.info("%s of %s channels over capacity in group %s",
                             over, len(channel_names), group)


_GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""
