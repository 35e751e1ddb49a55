"""Every refused frame gets docs/TABLE_PROTOCOL.md's error, only the sender hears of it, and
nothing changes: not the version, not the log."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.engine.protocol import IllegalAction
from game.models import Table
from tests.tables.live import (
    Reference,
    four_player_table,
    refused,
    run,
    session_cookie,
    settle,
    snapshot,
    socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _errors_case(variant: str, users: list[Any], script: Any) -> None:
    table = four_player_table(users, variant=variant)
    ref = Reference(table)
    cookies = [session_cookie(u) for u in users]

    async def body() -> None:
        socks = [socket(table.pk, c) for c in cookies]
        spectator = socket(table.pk)
        for comm in [*socks, spectator]:
            assert (await comm.connect())[0]
        for comm in [*socks, spectator]:
            await settle(comm)
        await script(table, ref, socks, spectator)
        for comm in [*socks, spectator]:
            await comm.disconnect()

    run(body)


def test_refused_frames_get_the_protocols_errors_and_change_nothing(users: list[Any]) -> None:
    async def script(table: Table, ref: Reference, socks: list[Any], spectator: Any) -> None:
        match = await database_sync_to_async(ref.at)(0)
        mover = match.to_move
        other = (mover + 1) % 4
        send = socks[mover]
        rest = [c for c in [*socks, spectator] if c is not send]
        legal = match.legal_actions()[0]

        def ok(action: Any, version: Any = 0) -> dict[str, Any]:
            return {"type": "action", "action": action, "version": version}

        # malformed: not JSON, not an object, unknown type, wrong field types, bytes, size
        for bad in ("not json", "[1, 2]", '"action"', {"type": "dance"}, {"action": legal},
                    ok(5), ok(legal, "0"), ok(legal, True), ok(legal, -1), ok("", 0),
                    ok(legal, None), ok(["play:QH"], 0), b'{"type": "ping"}'):
            await refused(table, send, rest, bad, "malformed")
        await refused(table, send, rest, {**ok(legal), "pad": "x" * 3000}, "malformed")
        # illegal: the engine's own reason
        try:
            match.apply("play:ZZ", mover)
        except IllegalAction as exc:
            reason = str(exc)
        answer = await refused(table, send, rest, ok("play:ZZ"), "illegal")
        assert answer["message"] == reason
        # out of turn, and a spectator
        await refused(table, socks[other], [c for c in [*socks, spectator]
                                             if c is not socks[other]], ok(legal), "not_your_turn")
        await refused(table, spectator, socks, ok(legal), "not_seated")
        # stale: an old version; repeated: the same frame twice
        await refused(table, send, rest, ok(legal, 7), "stale")
        await send.send_json_to(ok(legal, 0))
        for comm in socks:
            got = await comm.receive_json_from(timeout=5)
            assert got["type"] == "state" and got["version"] == 1
        await spectator.receive_json_from(timeout=5)
        mover2 = (await database_sync_to_async(ref.at)(1)).to_move
        others2 = [c for c in [*socks, spectator] if c is not send]
        if mover2 != mover:  # a repeat by the player who just moved: stale, not applied
            await refused(table, send, others2, ok(legal, 0), "stale")

    _errors_case("rung", users, script)


def test_cp_ss_4a_a_player_cannot_send_the_tables_timeout(users: list[Any]) -> None:
    async def script(table: Table, ref: Reference, socks: list[Any], spectator: Any) -> None:
        match = await database_sync_to_async(ref.at)(0)
        assert match.hand.timeout_legal
        mover = match.to_move
        rest = [c for c in [*socks, spectator] if c is not socks[mover]]
        frame = {"type": "action", "action": "timeout", "version": 0}
        await refused(table, socks[mover], rest, frame, "illegal")

    _errors_case("single_sar", users, script)


def test_frames_beyond_the_burst_are_rate_limited_and_ping_is_answered(users: list[Any]) -> None:
    async def script(table: Table, ref: Reference, socks: list[Any], spectator: Any) -> None:
        for _ in range(30):
            await spectator.send_json_to({"type": "ping"})
        answers = [await spectator.receive_json_from(timeout=5) for _ in range(30)]
        kinds = [a["type"] if a["type"] == "pong" else a["code"] for a in answers]
        assert kinds.count("pong") >= 20 and "rate_limited" in kinds
        assert set(kinds) == {"pong", "rate_limited"}
        assert await database_sync_to_async(snapshot)(table.pk) == (0, 0)

    _errors_case("rung", users, script)


def test_emotes_are_a_fixed_set_broadcast_and_rate_limited(users: list[Any]) -> None:
    async def script(table: Table, ref: Reference, socks: list[Any], spectator: Any) -> None:
        await socks[1].send_json_to({"type": "emote", "emote": "well_played"})
        for comm in [*socks, spectator]:
            assert await comm.receive_json_from(timeout=5) == {
                "type": "emote", "seat": 1, "emote": "well_played"
            }
        await refused(table, socks[1], [socks[0], spectator],
                       {"type": "emote", "emote": "hello"}, "rate_limited")
        await refused(table, socks[2], [socks[0], spectator],
                       {"type": "emote", "emote": "you are bad"}, "malformed")
        await refused(table, spectator, socks, {"type": "emote", "emote": "hello"}, "not_seated")

    _errors_case("rung", users, script)
