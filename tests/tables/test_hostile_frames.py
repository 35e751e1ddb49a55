"""Crafted frames (issue 26): whatever a client sends, its frame is answered (``malformed``
when it is not what docs/TABLE_PROTOCOL.md allows), nothing changes, nothing is logged as an
error, and the socket lives on and answers ping. However a socket ends, its seat is counted
disconnected (no ghost ``connected: true``)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.models import Connection, Table
from game.tables import frames as table_frames
from game.tables import inbound
from tests.tables.live import four_player_table, frames, refused, run, session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)

NESTED = "[" * 1024 + "]" * 1024  # two kilobytes: within the size limit


def _action(version: Any, action: Any = "play:QH") -> str:
    return json.dumps({"type": "action", "action": action, "version": version})


CRAFTED = [
    NESTED,
    "{" * 500 + "}" * 500,
    '{"type": "action", "action": "play:QH", "version": ' + "[" * 900 + "]" * 900 + "}",
    _action(10**30),
    _action(2**63),
    _action(1.5),
    _action(float("1e300")),
    '{"type": "action", "action": "play:QH", "version": NaN}',
    '{"type": "action", "action": "play:QH", "version": Infinity}',
    _action(0, "play:\ud800"),  # a lone surrogate (json.dumps writes it escaped)
    _action(0, "play:\u202eQH"),
    _action(0, "x" * 65),
    _action(0, {"a": 1}),
    '{"type": "emote", "emote": "\\ud800"}',
    '{"type": "emote", "emote": ["well_played"]}',
    '{"type": ["ping"]}',
    '{"type": {"a": "ping"}}',
    "\x00",
]

# htmx's ws-send posts form fields as strings: "²" and "１２" pass str.isdigit().
FORM_CRAFTED = [
    _action("²"), _action("１２"), _action("٣"), _action("-1"), _action(" 1"), _action("1" * 40),
    _action("0x1"), _action("1e3"),
]


def _seats_connected(table_id: int) -> list[bool]:
    return [row["connected"] for row in table_frames.state_payload(table_id, None)["seats"]]


def _table(users: list[Any]) -> Table:
    return four_player_table(users, variant="rung")


def test_crafted_json_frames_are_malformed_and_the_socket_lives_on(
    users: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    table = _table(users)
    cookie = session_cookie(users[1])

    async def body() -> None:
        player, watcher = socket(table.pk, cookie), socket(table.pk)
        for comm in (player, watcher):
            assert (await comm.connect())[0]
            await frames(comm)
        for frame in CRAFTED:
            answer = await refused(table, player, [watcher], frame, "malformed")
            assert answer["message"]
            await asyncio.sleep(0.1)  # within the rate limit
        await player.send_json_to({"type": "ping"})
        assert await player.receive_json_from(timeout=5) == {"type": "pong"}
        assert (await database_sync_to_async(_seats_connected)(table.pk))[1]
        for comm in (player, watcher):
            await comm.disconnect()

    with caplog.at_level(logging.WARNING):
        run(body)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not _seats_connected(table.pk)[1]


def test_crafted_form_fields_are_malformed_on_the_html_socket(
    users: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    table = _table(users)
    cookie = session_cookie(users[1])

    async def body() -> None:
        player = socket(table.pk, cookie, fmt="html")
        assert (await player.connect())[0]
        await frames(player)
        for frame in [*FORM_CRAFTED, NESTED]:
            await player.send_to(text_data=frame)
            answer = await player.receive_from(timeout=5)
            assert 'data-code="malformed"' in answer, (frame, answer)
            await asyncio.sleep(0.1)
        await player.send_json_to({"type": "ping"})
        assert await player.receive_json_from(timeout=5) == {"type": "pong"}
        await player.disconnect()

    with caplog.at_level(logging.WARNING):
        run(body)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert Table.objects.get(pk=table.pk).version == 0


def test_a_socket_ended_by_anything_leaves_no_ghost_seat(users: list[Any]) -> None:
    """The application cancelled (as daphne does at shutdown, or when an application
    outlives its close timeout): the seat is disconnected all the same."""
    table = _table(users)
    cookie = session_cookie(users[2])

    async def body() -> None:
        player = socket(table.pk, cookie)
        assert (await player.connect())[0]
        await frames(player)
        await player.send_to(text_data=NESTED)  # once a crash: answered now
        assert (await player.receive_json_from(timeout=5))["code"] == "malformed"
        assert (await database_sync_to_async(_seats_connected)(table.pk))[2]
        player.future.cancel()
        with pytest.raises(asyncio.CancelledError):
            await player.future
        await asyncio.sleep(0)

    run(body)
    assert not _seats_connected(table.pk)[2]
    assert not Connection.objects.filter(table_id=table.pk, seat=2).exists()


DEEP_PING = '{"type": "ping", "x": ' + '{"a": ' * 10 + "1" + "}" * 11


@pytest.mark.parametrize("text", [NESTED, "[" * 5000, DEEP_PING])
def test_the_decoder_refuses_depth_without_recursion(text: str) -> None:
    with pytest.raises(inbound.Malformed):
        inbound.frame(text, "json")


def test_the_decoder_counts_brackets_outside_strings_only() -> None:
    assert inbound.depth('{"a": "[[[[\\"[[", "b": [1, {"c": "]]]"}]}') == 3
    frame = inbound.frame('{"type": "action", "action": "bid:7H", "version": "12"}', "html")
    assert frame == {"type": "action", "action": "bid:7H", "version": 12}
    with pytest.raises(inbound.Malformed):  # a program sends an int
        inbound.frame('{"type": "action", "action": "bid:7H", "version": "12"}', "json")
