"""Reconnects, a fresh process, the clock (timers fire exactly once), the grace period,
"Play now" for a guest against bots, and the HTML path of the socket."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.models import Action, Seat, Table
from game.tables import access, due, lifecycle, moves, presence
from game.tables.store import replay
from tests.tables.live import (
    Reference,
    four_player_table,
    frames,
    guest_session,
    owner,
    pick,
    run,
    session_cookie,
    settle,
    socket,
    until_version,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _play_some(table: Table, users: list[Any], n: int, rng: random.Random) -> None:
    for _ in range(n):
        table.refresh_from_db()
        match = replay.load(table)
        moves.apply_action(
            table_id=table.pk, owner=owner(users[match.to_move]),
            action=rng.choice(match.legal_actions()), expected_version=table.version,
        )


def test_a_reconnect_resumes_exactly(users: list[Any]) -> None:
    table = four_player_table(users)
    _play_some(table, users, 9, random.Random(1))
    ref = Reference(table)
    cookie = session_cookie(users[2])

    async def body() -> None:
        first = socket(table.pk, cookie)
        assert (await first.connect())[0]
        before = (await frames(first))[-1]
        await first.disconnect()
        again = socket(table.pk, cookie)
        assert (await again.connect())[0]
        after = (await frames(again))[-1]
        await again.disconnect()
        assert after["version"] == before["version"] == 9
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        await database_sync_to_async(ref.check_frame)(after, 2)

    run(body)


def test_a_fresh_process_resumes_the_hand_from_the_log(users: list[Any]) -> None:
    table = four_player_table(users, variant="hidden")
    rng = random.Random(3)
    _play_some(table, users, 12, rng)
    table.refresh_from_db()
    cached_view = replay.load(table).view(0)
    replay.clear_cache()  # what a new server process starts with
    assert replay.load(table).view(0) == cached_view
    replay.clear_cache()
    ref = Reference(table)
    cookies = [session_cookie(u) for u in users]

    async def body() -> None:
        socks = [socket(table.pk, c) for c in cookies]
        for comm in socks:
            assert (await comm.connect())[0]
        latest = [(await settle(comm))[-1] for comm in socks]
        for seat, frame in enumerate(latest):
            await database_sync_to_async(ref.check_frame)(frame, seat)
        while not latest[0]["view"]["match"]["hands_played"]:
            version = latest[0]["version"]
            mover = latest[0]["to_move"]
            await socks[mover].send_json_to(
                {"type": "action", "action": pick(latest[mover], rng), "version": version}
            )
            for seat, comm in enumerate(socks):
                latest[seat] = (await until_version(comm, version + 1))[-1]
                await database_sync_to_async(ref.check_frame)(latest[seat], seat)
        for comm in socks:
            await comm.disconnect()

    run(body)
    assert list(Action.objects.filter(table=table).values_list("number", flat=True)) == list(
        range(1, table.actions.count() + 1)
    )


def test_a_short_move_timer_fires_exactly_once(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock
    table = four_player_table(users, move_seconds=1)
    assert table.deadline_at is None  # nobody is at the table yet: no clock runs
    mover = replay.load(table).to_move
    presence.seat_connected(table_id=table.pk, seat=(mover + 1) % 4)
    table.refresh_from_db()
    assert (table.deadline_kind, table.deadline_version) == (Table.MOVE, 0)
    assert not due.fire(table.pk, 0, Table.MOVE)  # not due yet
    time.sleep(1.05)
    assert not due.fire(table.pk, 0, Table.BOT)  # not the pending kind
    assert due.fire(table.pk, 0, Table.MOVE)
    assert not due.fire(table.pk, 0, Table.MOVE)  # the second firing does nothing
    assert due.fire_due() is not None  # the next move's timer is pending, not due
    table.refresh_from_db()
    assert table.version == 1
    [row] = Action.objects.filter(table=table)
    assert (row.seat, row.source) == (mover, Action.CLOCK)
    assert (table.deadline_kind, table.deadline_version) == (Table.MOVE, 1)


def test_cp_ss_4_the_calling_timer_applies_the_engines_timeout(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_FIRST_CALL_SECONDS = 0  # every player here is in their first game
    table = four_player_table(users, variant="single_sar")
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    assert table.deadline_kind == Table.CALL
    assert due.fire_due() is not None
    assert not due.fire(table.pk, 0, Table.CALL)
    row = Action.objects.get(table=table, number=1)
    assert (row.action, row.source) == ("timeout", Action.CLOCK)


def test_a_disconnected_seat_is_played_by_the_bot_after_the_grace_period(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_GRACE_SECONDS = 0
    table = four_player_table(users)
    mover = replay.load(table).to_move
    presence.seat_connected(table_id=table.pk, seat=(mover + 2) % 4)  # someone stays
    presence.seat_connected(table_id=table.pk, seat=mover)
    table.refresh_from_db()
    assert table.deadline_kind == Table.MOVE
    presence.seat_disconnected(table_id=table.pk, seat=mover)
    table.refresh_from_db()
    assert table.deadline_kind == Table.GRACE
    assert due.fire(table.pk, 0, Table.GRACE)
    assert not due.fire(table.pk, 0, Table.GRACE)
    assert Seat.objects.get(table=table, number=mover).away
    table.refresh_from_db()
    assert table.deadline_kind == Table.BOT and table.version == 0
    assert due.fire(table.pk, 0, Table.BOT)
    assert Action.objects.get(table=table, number=1).source == Action.BOT
    # The owner comes back: the bot stops playing for them.
    presence.seat_connected(table_id=table.pk, seat=mover)
    seat = Seat.objects.get(table=table, number=mover)
    assert not seat.away and seat.connections == 1


def test_play_now_a_guest_plays_a_whole_rung_hand_against_bots(transactional_db: Any) -> None:
    key, cookie = guest_session()
    table = lifecycle.play_now(owner=access.Owner(user=None, guest_key=key))
    assert table.status == Table.PLAYING and not table.rated
    assert [s.bot for s in table.seats.order_by("number")] == [False, True, True, True]
    ref = Reference(table)
    rng = random.Random(5)

    async def body() -> dict[str, Any]:
        comm = socket(table.pk, cookie)
        assert (await comm.connect())[0]
        started: int | None = None  # hands over when the guest first acted
        while True:
            frame = await comm.receive_json_from(timeout=20)
            if frame["type"] != "state":
                continue
            await database_sync_to_async(ref.check_frame)(frame, 0)
            # A whole hand the guest played in (a bot that calls may redeal first).
            played = frame["view"]["match"]["hands_played"]
            if started is not None and played > started:
                await comm.disconnect()
                return frame
            if frame["legal"]:
                started = played if started is None else started
                await comm.send_json_to(
                    {"type": "action", "action": pick(frame, rng), "version": frame["version"]}
                )

    final = run(body)
    sources = set(Action.objects.filter(table=table).values_list("source", flat=True))
    assert sources == {Action.PLAYER, Action.BOT}
    assert final["view"]["fairness"]["server_seeds"]


def test_the_html_path_renders_the_seat_and_takes_versions_as_strings(
    users: list[Any],
) -> None:
    table = four_player_table(users)
    mover = replay.load(table).to_move
    cookie = session_cookie(users[mover])
    legal = replay.load(table).legal_actions()[0]

    async def body() -> None:
        comm = socket(table.pk, cookie, fmt="html", extra="&lang=ur")
        assert (await comm.connect())[0]
        html = (await frames(comm))[-1]
        assert 'id="table-live"' in html and 'hx-swap-oob="true"' in html
        assert "آپ کی باری" in html and f'value="{legal}"' in html
        await comm.send_json_to({"type": "action", "action": "play:ZZ", "version": "0",
                                 "HEADERS": {"HX-Request": "true"}})
        error = await comm.receive_from(timeout=5)
        assert 'id="table-error"' in error and 'data-code="illegal"' in error
        await comm.send_json_to({"type": "action", "action": legal, "version": "0"})
        after = await comm.receive_from(timeout=5)
        assert 'data-version="1"' in after
        await comm.disconnect()

    run(body)


def test_a_table_without_spectators_refuses_them(users: list[Any]) -> None:
    table = four_player_table(users, spectators=False)

    async def body() -> None:
        comm = socket(table.pk)
        assert (await comm.connect())[0]
        error = await comm.receive_json_from(timeout=5)
        assert error["type"] == "error" and error["code"] == "forbidden"
        assert (await comm.receive_output(timeout=5))["type"] == "websocket.close"

    run(body)


def test_a_socket_follows_its_owner_into_a_seat_and_out_of_it(users: list[Any]) -> None:
    table = lifecycle.create_table(game="courtpiece", owner=owner(users[0]), bots=[2, 3])
    cookie = session_cookie(users[1])

    async def body() -> None:
        comm = socket(table.pk, cookie)
        assert (await comm.connect())[0]
        assert (await frames(comm))[-1]["seat"] is None  # watching
        await database_sync_to_async(lifecycle.take_seat)(
            table_id=table.pk, owner=owner(users[1]), seat=1
        )
        assert (await frames(comm))[-1]["seat"] == 1
        await database_sync_to_async(lifecycle.start_table)(
            table_id=table.pk, owner=owner(users[0])
        )
        seated = [f for f in await frames(comm) if f["type"] == "state"][-1]
        assert seated["seat"] == 1 and seated["view"]["hand"]["hand"]
        await database_sync_to_async(lifecycle.leave_seat)(
            table_id=table.pk, owner=owner(users[1])
        )
        # The bot now holds seat 1: its former owner sees what a spectator sees.
        after = [f for f in await frames(comm) if f["type"] == "state"]
        assert after and all(f["seat"] is None for f in after[-1:])
        assert after[-1]["view"]["hand"]["hand"] == []
        await comm.disconnect()

    run(body)
    seat = Seat.objects.get(table=table, number=1)
    assert seat.bot and seat.connections == 0


def test_the_lobby_socket_lists_open_tables_and_updates_live(users: list[Any]) -> None:
    from baithak.asgi import application
    from channels.testing import WebsocketCommunicator

    from tests.tables.live import HOST, ORIGIN

    lifecycle.create_table(
        game="courtpiece", owner=owner(users[0]), private=True, move_seconds=None
    )

    async def body() -> None:
        comm = WebsocketCommunicator(application, "/ws/lobby/?format=json", headers=[HOST, ORIGIN])
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=5)
        assert first == {"type": "lobby", "tables": []}  # private tables are not listed
        table = await database_sync_to_async(lifecycle.create_table)(
            owner=owner(users[1]), game="courtpiece", variant="hukum"
        )
        listed = (await comm.receive_json_from(timeout=5))["tables"]
        assert [t["id"] for t in listed] == [table.pk]
        assert listed[0]["variant"] == "hukum" and listed[0]["seats"][0]["player"] == "player1"
        assert "seed_top" not in listed[0] and "invite" not in listed[0]
        await comm.disconnect()

    run(body)


def test_no_clock_runs_while_nobody_is_at_the_table(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    table = lifecycle.create_table(game="courtpiece", owner=owner(users[0]), bots=[1, 2, 3])
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.deadline_at is None
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    mover = replay.load(table).to_move
    assert table.deadline_kind == (Table.BOT if mover else Table.MOVE)
    presence.seat_disconnected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    assert table.deadline_at is None


def test_the_sockets_of_a_dead_process_are_closed_for_it(users: list[Any]) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from game.models import Connection, ServerProcess

    table = four_player_table(users)
    presence.seat_connected(table_id=table.pk, seat=0, channel="alive-0")
    presence.seat_connected(table_id=table.pk, seat=1, channel="ghost-1")
    # Seat 1's socket was held by a process that stopped beating a minute ago (SIGKILL).
    Connection.objects.filter(channel="ghost-1").update(process="ghost")
    ServerProcess.objects.create(name="ghost", seen_at=timezone.now() - timedelta(minutes=1))
    assert Seat.objects.get(table=table, number=1).connections == 1
    assert presence.reap_dead_processes() == 1
    seat = Seat.objects.get(table=table, number=1)
    assert seat.connections == 0 and seat.disconnected_at is not None
    assert not ServerProcess.objects.filter(name="ghost").exists()
    assert Seat.objects.get(table=table, number=0).connections == 1  # ours is alive
    assert presence.reap_dead_processes() == 0


def test_a_process_given_up_for_dead_counts_its_sockets_again(users: list[Any]) -> None:
    from game.models import Connection, ServerProcess

    table = four_player_table(users)
    presence.seat_connected(table_id=table.pk, seat=2, channel="mine-2")
    # Another process wrongly reaped us (our loop stalled): our rows are gone.
    Connection.objects.all().delete()
    ServerProcess.objects.all().delete()
    presence.recount(table, list(table.seats.order_by("number")), [2], back=False)
    assert Seat.objects.get(table=table, number=2).connections == 0
    presence.heartbeat()
    assert Connection.objects.filter(channel="mine-2", seat=2).exists()
    assert Seat.objects.get(table=table, number=2).connections == 1
    presence.seat_disconnected(table_id=table.pk, seat=2, channel="mine-2")
    assert Seat.objects.get(table=table, number=2).connections == 0


def test_cp_ss_4_the_calling_timer_is_20_s_and_10_s_in_a_first_game(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from accounts.models import GameStats

    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_CALL_SECONDS, settings.TABLES_FIRST_CALL_SECONDS = 20, 10
    for user in users:  # everyone has played before ...
        GameStats.objects.create(user=user, game="rung", played=1, won=1)
    table = four_player_table(users, variant="hidden")
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    assert table.deadline_kind == Table.CALL
    assert (table.deadline_at - table.moved_at).total_seconds() == 20
    assert not any(table.seats.values_list("first_game", flat=True))
    # ... and 10 s for players in their very first game.
    GameStats.objects.all().delete()
    fresh = four_player_table(users, variant="hidden")
    presence.seat_connected(table_id=fresh.pk, seat=0)
    fresh.refresh_from_db()
    assert (fresh.deadline_at - fresh.moved_at).total_seconds() == 10
    assert all(fresh.seats.values_list("first_game", flat=True))
