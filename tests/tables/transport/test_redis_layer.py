"""The Redis channel layer (``game.layers.RedisChannelLayer``) against the machine's
real Redis: a process's own channels are served in the process, everything else goes
through Redis as channels-redis sends it, and nothing is lost either way.

Two layer instances stand for two server processes (each has its own client prefix, as
each process has). Marked ``scaleout`` with the two-process tests; without Redis they
skip, saying why.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytestmark = pytest.mark.scaleout

REDIS_URL = "redis://127.0.0.1:6379/14"


def _redis_or_skip() -> None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_timeout=3).ping()
    except Exception as exc:
        pytest.skip(f"Redis at 127.0.0.1:6379 is not reachable ({exc})")


def _layer(prefix: str, **config: Any) -> Any:
    from game.tables.transport.layers import RedisChannelLayer

    return RedisChannelLayer(
        hosts=[{"address": REDIS_URL, "socket_timeout": None}], prefix=prefix, **config
    )


def run(body: Callable[..., Awaitable[None]], **config: Any) -> None:
    """``body(a, b, prefix)`` with two layers ("processes") on one Redis prefix."""
    _redis_or_skip()
    prefix = f"test-{uuid.uuid4().hex[:8]}"

    async def main() -> None:
        a, b = _layer(prefix, **config), _layer(prefix, **config)
        try:
            await asyncio.wait_for(body(a, b, prefix), 30)
        finally:
            await a.flush()
            await b.close_pools()

    asyncio.run(main())


async def _receiving(layer: Any, channel: str) -> asyncio.Future[Any]:
    """A socket waiting on ``channel``, its receive begun."""
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.05)
    return waiting


async def _hears_nothing(layer: Any, channel: str) -> bool:
    waiting = await _receiving(layer, channel)
    await asyncio.sleep(0.15)
    heard = waiting.done()
    waiting.cancel()
    return not heard


async def _inbox_size(layer: Any, channel: str) -> int:
    """Messages waiting in Redis for the process that owns ``channel``."""
    key = layer.prefix + layer.non_local_name(channel)
    return int(await layer.connection(0).zcard(key))


def _spy_on_redis(layer: Any) -> list[Any]:
    """What ``layer`` sends through Redis from now on (the arguments of each send)."""
    sent: list[Any] = []
    original = layer.send_through_redis

    async def spy(*args: Any) -> None:
        sent.append(args)
        await original(*args)

    layer.send_through_redis = spy
    return sent


def test_a_group_message_reaches_members_on_both_processes() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours, theirs = await a.new_channel(), await b.new_channel()
        await a.group_add("table-1", ours)
        await b.group_add("table-1", theirs)
        receiving = [
            asyncio.ensure_future(a.receive(ours)),
            asyncio.ensure_future(b.receive(theirs)),
        ]
        await asyncio.sleep(0.05)
        notice = {"type": "table.changed", "version": 3, "frames": {"0": "{}"}}
        await a.group_send("table-1", notice)
        got = await asyncio.gather(*receiving)
        assert got == [notice, notice]
        # The local one is a copy of the top level: the sender may reuse its dict.
        assert got[0] is not notice
        # And from the other side too.
        receiving = [
            asyncio.ensure_future(a.receive(ours)),
            asyncio.ensure_future(b.receive(theirs)),
        ]
        await b.group_send("table-1", {"type": "table.changed", "version": 4})
        assert [m["version"] for m in await asyncio.gather(*receiving)] == [4, 4]

    run(body)


def test_a_message_for_this_process_s_own_channels_never_goes_through_redis() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        channels = [await a.new_channel() for _ in range(4)]
        for channel in channels:
            await a.group_add("table-2", channel)
        sent_through_redis = _spy_on_redis(a)
        await a.group_send("table-2", {"type": "table.changed", "version": 1})
        await a.send(channels[0], {"type": "direct"})
        assert sent_through_redis == []
        assert await _inbox_size(a, channels[0]) == 0
        got = [await a.receive(c) for c in channels]
        assert [m["version"] for m in got] == [1, 1, 1, 1]
        assert (await a.receive(channels[0]))["type"] == "direct"

    run(body)


def test_a_group_send_except_skips_the_channels_named_here_and_in_redis() -> None:
    """Skipped: a channel of this process and one of another; the rest get it, through
    Redis or not; with every member skipped nothing goes through Redis at all."""

    async def body(a: Any, b: Any, prefix: str) -> None:
        ours = [await a.new_channel() for _ in range(2)]
        theirs = [await b.new_channel() for _ in range(2)]
        for channel in (*ours, *theirs):
            await (a if channel in ours else b).group_add("table-9", channel)
        await a.group_send_except("table-9", {"type": "x"}, {ours[0], theirs[0]})
        assert (await a.receive(ours[1]))["type"] == "x"
        assert (await asyncio.wait_for(b.receive(theirs[1]), 5))["type"] == "x"
        assert await _hears_nothing(a, ours[0])
        assert await _hears_nothing(b, theirs[0])
        sent_through_redis = _spy_on_redis(a)
        await a.group_send_except("table-9", {"type": "y"}, {*ours, *theirs})
        assert sent_through_redis == []
        for channel in ours:
            assert await _hears_nothing(a, channel)

    run(body)


def test_messages_in_order_and_none_lost_under_a_burst() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours, theirs = await a.new_channel(), await b.new_channel()
        await a.group_add("table-3", ours)
        await a.group_add("table-3", theirs)  # added by a, owned by b: still b's
        for n in range(200):
            await a.group_send("table-3", {"type": "n", "n": n})
        assert [(await a.receive(ours))["n"] for _ in range(200)] == list(range(200))
        assert [(await b.receive(theirs))["n"] for _ in range(200)] == list(range(200))

    run(body, capacity=1000)  # the site's is 5000; channels-redis' own 100 would drop


def test_a_discarded_channel_hears_nothing_more() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours, other = await a.new_channel(), await a.new_channel()
        await a.group_add("table-4", ours)
        await a.group_add("table-4", other)
        await a.group_discard("table-4", ours)
        await a.group_send("table-4", {"type": "after"})
        assert (await a.receive(other))["type"] == "after"
        assert await _hears_nothing(a, ours)

    run(body)


def test_a_closed_socket_s_queue_goes_and_a_gone_one_s_is_swept() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        closed, gone = await a.new_channel(), await a.new_channel()
        waiting = asyncio.ensure_future(a.receive(closed))
        await asyncio.sleep(0.05)
        assert closed in a.receive_buffer
        waiting.cancel()  # the socket closed while waiting
        await asyncio.sleep(0)
        assert closed not in a.receive_buffer
        # A channel that got messages and never received again (its consumer died
        # between two messages) is dropped after `expiry` seconds, by the sweep of a
        # receive (at most once a second, SWEEP_EVERY).
        await a.group_add("table-5", gone)
        await a.group_send("table-5", {"type": "unread"})
        assert gone in a.receive_buffer
        await asyncio.sleep(1.3)  # past `expiry`, and a second since the last sweep
        assert gone in a.receive_buffer  # nothing sweeps by itself ...
        other = await _receiving(a, await a.new_channel())  # ... a receive does
        assert gone not in a.receive_buffer
        other.cancel()

    run(body, expiry=1)


def test_the_reader_stops_when_nobody_receives_and_what_came_meanwhile_arrives() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        a.brpop_timeout = 1  # the reader looks whether anyone still receives every second
        ours = await a.new_channel()
        await a.group_add("table-6", ours)
        waiting = await _receiving(a, ours)
        assert a.readers
        await b.group_send("table-6", {"type": "one"})  # through Redis: b is not its owner
        assert (await waiting)["type"] == "one"
        deadline = time.monotonic() + 10
        while a.readers and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not a.readers  # idle: the reader has stopped
        await b.group_send("table-6", {"type": "two"})  # waits in Redis for the owner
        assert await _inbox_size(a, ours) == 1
        assert (await a.receive(ours))["type"] == "two"

    run(body)


def test_a_send_from_another_thread_s_loop_goes_through_redis_and_arrives() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours = await a.new_channel()
        await a.group_add("table-7", ours)
        waiting = await _receiving(a, ours)
        errors: list[BaseException] = []

        def elsewhere() -> None:  # as async_to_sync does from a database thread
            try:
                asyncio.run(a.group_send("table-7", {"type": "from-a-thread"}))
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=elsewhere)
        thread.start()
        await asyncio.to_thread(thread.join)
        assert errors == []
        assert (await waiting)["type"] == "from-a-thread"

    run(body)


def test_closing_the_pools_under_a_waiting_socket_keeps_it_served() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours = await a.new_channel()
        await a.group_add("table-8", ours)
        waiting = await _receiving(a, ours)
        await a.close_pools()  # e.g. a test's clean-up, with the socket still open
        await b.group_send("table-8", {"type": "after-close"})  # through Redis
        assert (await asyncio.wait_for(waiting, 10))["type"] == "after-close"
        # And a receive cancelled now ends as a cancellation, nothing else.
        waiting = await _receiving(a, ours)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert ours not in a.receive_buffer and ours not in a.seen

    run(body)


def test_a_flushed_layer_forgets_its_groups_here_too() -> None:
    async def body(a: Any, b: Any, prefix: str) -> None:
        ours = await a.new_channel()
        await a.group_add("table-9", ours)
        await a.flush()
        await a.group_send("table-9", {"type": "after-flush"})
        assert await _hears_nothing(a, ours)  # as channels-redis: the group is gone

    run(body)
