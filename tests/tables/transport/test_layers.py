"""The one-process channel layer sweeps expired messages at most once a second, and a
channel keeps its queue while its receiver lives."""

from __future__ import annotations

import asyncio

import pytest

from game.tables.transport import layers


def test_expired_messages_are_still_swept_but_not_on_every_call() -> None:
    async def body() -> None:
        layer = layers.InMemoryChannelLayer(expiry=0.05)
        await layer.group_add("g", "a.one")  # the first call sweeps
        await layer.send("a.one", {"type": "old"})
        for _ in range(50):
            await layer.group_send("g", {"type": "x"})
        await asyncio.sleep(0.1)  # the messages have expired ...
        await layer.group_send("g", {"type": "y"})
        # ... and are all still there: fifty-one sends within a second, no sweep
        assert layer.channels["a.one"].qsize() == 52
        await asyncio.sleep(layers.SWEEP_EVERY)  # a second has passed
        await layer.send("a.two", {"type": "new"})
        await layer.group_send("g", {"type": "z"})  # this one sweeps
        assert "a.one" not in layer.channels  # its expired messages are gone ...
        assert "a.one" not in layer.groups.get("g", {})  # ... and so is its membership
        assert (await layer.receive("a.two"))["type"] == "new"

    asyncio.run(body())


def test_a_group_send_reaches_every_member_once_each_with_its_own_top_level() -> None:
    async def body() -> None:
        layer = layers.InMemoryChannelLayer(capacity=2)
        for name in ("a.one", "a.two", "a.three"):
            await layer.group_add("g", name)
        notice = {"type": "table.changed", "frames": {"0": "{}"}}
        await layer.group_send("g", notice)
        got = [await layer.receive(n) for n in ("a.one", "a.two", "a.three")]
        assert all(g == notice for g in got)
        got[0]["type"] = "changed by its receiver"
        assert got[1]["type"] == notice["type"] == "table.changed"
        # A full member misses the message; the others still get it.
        await layer.send("a.one", {"type": "x"})
        await layer.send("a.one", {"type": "y"})
        await layer.group_send("g", {"type": "z"})
        assert (await layer.receive("a.two"))["type"] == "z"
        assert [(await layer.receive("a.one"))["type"] for _ in range(2)] == ["x", "y"]
        assert layer.channels["a.one"].empty()  # nothing left for it
        await layer.group_send("nobody", {"type": "z"})  # an empty group: nothing happens

    asyncio.run(body())


def test_a_channel_keeps_its_queue_while_its_receiver_lives_and_drops_it_after() -> None:
    async def body() -> None:
        layer = layers.InMemoryChannelLayer()
        await layer.send("a.one", {"type": "first"})
        queue = layer.channels["a.one"]
        assert (await layer.receive("a.one"))["type"] == "first"
        waiting = asyncio.ensure_future(layer.receive("a.one"))
        await asyncio.sleep(0)
        await layer.send("a.one", {"type": "second"})  # the same queue, not a new one
        assert layer.channels["a.one"] is queue
        assert (await waiting)["type"] == "second"
        # The receiver goes (its socket closed): an empty queue goes with it ...
        waiting = asyncio.ensure_future(layer.receive("a.one"))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert "a.one" not in layer.channels
        # ... and a message sent after that still waits for a receiver.
        await layer.send("a.one", {"type": "third"})
        assert (await layer.receive("a.one"))["type"] == "third"

    asyncio.run(body())


def test_a_group_send_except_skips_the_channels_named_and_reaches_the_rest() -> None:
    """The sockets a move's task served already are skipped (TableConsumer._hand_over):
    they would only wake to find a repeat."""

    async def body() -> None:
        layer = layers.InMemoryChannelLayer()
        for name in ("a.one", "a.two", "a.three"):
            await layer.group_add("g", name)
        await layer.group_send_except("g", {"type": "x"}, {"a.one", "a.three"})
        assert (await layer.receive("a.two"))["type"] == "x"
        assert "a.one" not in layer.channels or layer.channels["a.one"].empty()
        assert "a.three" not in layer.channels or layer.channels["a.three"].empty()
        await layer.group_send_except("g", {"type": "y"}, set())  # nobody skipped: all
        assert [(await layer.receive(n))["type"] for n in ("a.one", "a.two", "a.three")] == [
            "y", "y", "y"
        ]

    asyncio.run(body())
