"""Four signed-in players play through the socket: a complete hand of every variant and a
whole short match, with every frame each socket receives checked against the engine's
view for its seat (nothing it may not see), and spectators shown no hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import GameStats
from game.engine import courtpiece as cp
from game.models import Action, Table
from tests.tables.live import (
    Pace,
    Reference,
    four_player_table,
    pick,
    run,
    session_cookie,
    settle,
    socket,
    until_version,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _play(table: Table, users: list[Any], rng: random.Random, *, until: str) -> dict[str, Any]:
    ref = Reference(table)
    cookies = [session_cookie(u) for u in users]
    return run(lambda: _play_async(table, ref, cookies, rng, until=until))


async def _play_async(
    table: Table, ref: Reference, cookies: list[bytes], rng: random.Random, *, until: str
) -> dict[str, Any]:
    """Connect four players and a spectator, play random legal actions until the first
    hand ends (``until="hand"``) or the match does; check every frame on the way."""
    check = database_sync_to_async(ref.check_frame)
    at = database_sync_to_async(ref.at)
    socks = [socket(table.pk, c) for c in cookies]
    spectator = socket(table.pk)
    for comm in [*socks, spectator]:
        connected, _ = await comm.connect()
        assert connected
    latest: list[dict[str, Any]] = []
    for seat, comm in enumerate(socks):
        got = await settle(comm)
        for frame in got:
            await check(frame, seat)
        latest.append(got[-1])
    for frame in await settle(spectator):
        await check(frame, None)
    checked = 0
    paces = [Pace() for _ in socks]
    while True:
        version = latest[0]["version"]
        match = await at(version)
        if match.is_over or (until == "hand" and match.hands):
            break
        mover = match.to_move
        frame = latest[mover]
        assert frame["version"] == version and frame["legal"]
        await paces[mover].wait()
        await socks[mover].send_json_to(
            {"type": "action", "action": pick(frame, rng), "version": version}
        )
        for seat, comm in enumerate(socks):
            for got in await until_version(comm, version + 1):
                await check(got, seat)
                checked += 1
                latest[seat] = got
        for got in await until_version(spectator, version + 1):
            await check(got, None)
    for comm in [*socks, spectator]:
        await comm.disconnect()
    return {"version": latest[0]["version"], "frames": checked, "final": latest[0]}


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_four_players_play_a_whole_hand_of_every_variant(users: list[Any], variant: str) -> None:
    table = four_player_table(users, variant=variant)
    result = _play(table, users, random.Random(variant), until="hand")
    table.refresh_from_db()
    assert table.version == result["version"] == Action.objects.filter(table=table).count()
    assert result["final"]["view"]["match"]["hands_played"] >= 1
    # The hand just finished is verifiable at once: its server seed is in the view.
    fairness = result["final"]["view"]["fairness"]
    assert len(fairness["server_seeds"]) == fairness["hand"]
    assert result["frames"] >= 4 * result["version"]


def test_a_whole_be_ranga_match_is_played_and_rated(users: list[Any]) -> None:
    table = four_player_table(users, variant="be_ranga", target=2)
    result = _play(table, users, random.Random(7), until="match")
    table.refresh_from_db()
    assert table.status == Table.OVER and table.finished_at is not None
    assert table.rated
    final = result["final"]["view"]["match"]
    assert final["is_over"] and max(final["scores"]) == 2
    winners = {0: (0, 2), 1: (1, 3)}[final["winner"]]
    stats = {s.user.username: s for s in GameStats.objects.filter(game="be_ranga")}
    assert len(stats) == 4
    for seat, user in enumerate(users):
        row = stats[user.username]
        assert row.played == 1 and row.abandoned == 0
        assert row.won == (1 if seat in winners else 0)
    assert result["final"]["deadline"] is None and table.deadline_at is None
