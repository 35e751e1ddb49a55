"""The clock's own path (``game.clock.fire_round``): bots decide concurrently, outside
any lock or transaction and off the sockets' database thread, and still every deadline
fires exactly once, also when two clocks race (two server processes, say)."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from game.models import Action, Table
from game.tables import deadlines, due, groups, lifecycle, moves, notices, presence, registry
from game.tables.store import replay
from game.tables.transport import clock
from tests.tables.live import four_player_table, owner, run


def _tables_waiting_on_bots(users: list[Any], count: int) -> list[Table]:
    """Play-now tables (seat 0 a player, three bots) whose next move is a bot's."""
    tables: list[Table] = []
    while len(tables) < count:
        table = lifecycle.play_now(owner=owner(users[len(tables) % len(users)]))
        presence.seat_connected(table_id=table.pk, seat=0)
        table.refresh_from_db()
        if table.deadline_kind == Table.BOT:
            tables.append(table)
    return tables


def test_two_racing_clocks_fire_each_bot_deadline_once(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock (two of them)
    tables = _tables_waiting_on_bots(users, 6)
    before = {t.pk: t.version for t in tables}

    async def body() -> None:
        await asyncio.gather(clock.fire_round(), clock.fire_round())

    run(body)
    for table in tables:
        table.refresh_from_db()
        rows = list(Action.objects.filter(table=table, number__gt=before[table.pk]))
        # Each round fires what was due once: the bot's move at this version, applied
        # once, whichever clock got there first; the log has no gap and no repeat.
        assert [r.number for r in rows] == list(
            range(before[table.pk] + 1, table.version + 1)
        )
        assert rows and rows[0].source == Action.BOT
        assert len({r.number for r in rows}) == len(rows)
        replay.clear_cache()
        assert replay.load(table).view(0)  # the log replays: every action was legal


def test_bots_think_outside_any_transaction_and_off_the_database_thread(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    tables = _tables_waiting_on_bots(users, 3)
    seen: list[tuple[str, bool]] = []
    spec = registry.spec("courtpiece")
    original = spec.bot_action

    def watched(game_state: Any, seat: int, options: dict[str, Any] | None = None) -> str:
        seen.append((threading.current_thread().name, connection.in_atomic_block))
        return original(game_state, seat, options)

    monkeypatch.setattr(type(spec), "bot_action", lambda self, *a: watched(*a))
    database_thread = threading.current_thread().name  # where the tests' DB calls run

    run(clock.fire_round)
    assert len(seen) >= len(tables)
    for thread, in_transaction in seen:
        assert thread.startswith("tables-bot") and thread != database_thread
        assert not in_transaction
    for table in tables:
        table.refresh_from_db()
        assert Action.objects.filter(table=table, source=Action.BOT).exists()


def test_a_decision_made_for_an_old_version_is_not_applied(users: list[Any]) -> None:
    [table] = _tables_waiting_on_bots(users, 1)
    pending = due.Due(table.pk, table.version, Table.BOT)
    question = due.bot_question(pending)
    assert question is not None
    choice = due.bot_choice(question)
    assert due.fire(table.pk, table.version, Table.BOT, choice)
    # The same decision again (a second clock that thought at the same time): refused.
    assert not due.fire(table.pk, pending.version, Table.BOT, choice)
    assert due.bot_question(pending) is None  # the table has moved on: nothing to ask
    assert Action.objects.filter(table=table, number=pending.version + 1).count() == 1


def test_a_bot_waits_longer_after_a_trick_is_won_so_people_see_it(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_TRICK_PAUSE = 30.0  # long enough that nothing here outwaits it
    import random

    rng = random.Random(5)
    table = lifecycle.play_now(owner=owner(users[0]))
    presence.seat_connected(table_id=table.pk, seat=0)
    seen_mid_trick = False
    for _step in range(200):
        table.refresh_from_db()
        match = replay.load(table)
        hand = match.hand
        if hand.trick_count > 0 and not hand.trick and table.deadline_kind == Table.BOT:
            pause = (table.deadline_at - table.moved_at).total_seconds()
            assert pause >= 30.0  # the trick stays in view before the bot leads
            assert seen_mid_trick
            return
        if table.deadline_kind == Table.BOT:
            if hand.trick:
                seen_mid_trick = True  # inside a trick: the ordinary pause (0 here)
                assert table.deadline_at <= table.moved_at + timedelta(seconds=1)
            assert due.fire(table.pk, table.version, Table.BOT)
        else:
            moves.apply_action(
                table_id=table.pk, owner=owner(users[0]),
                action=rng.choice(list(match.legal_actions())), expected_version=table.version,
            )
    raise AssertionError("no trick was won with a bot to lead next")


def test_a_bot_waits_longest_before_the_first_move_of_a_new_hand(
    users: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")
    settings.TABLES_HAND_PAUSE = 30.0  # the last hand's result is read before play goes on
    import random

    rng = random.Random(8)
    # In Rung the winning side's caller calls again (CP-RUNG-6): when the draw gives the
    # person the call and their side wins every hand to the target, no hand of that
    # match begins with a bot (rare, but the deals are random). Then
    # a new table.
    for _table in range(5):
        table = lifecycle.play_now(owner=owner(users[0]))
        presence.seat_connected(table_id=table.pk, seat=0)
        for _step in range(2000):
            table.refresh_from_db()
            match = replay.load(table)
            if match.is_over:
                break
            fresh = bool(match.hands) and not match.hand.history
            if table.deadline_kind == Table.BOT:
                pause = (table.deadline_at - table.moved_at).total_seconds()
                if fresh:
                    assert pause >= 30.0
                    return
                assert pause < 30.0  # inside a hand: the ordinary pauses
                assert due.fire(table.pk, table.version, Table.BOT)
            else:
                legal = [a for a in match.legal_actions() if a not in ("redeal", "claim")]
                moves.apply_action(
                    table_id=table.pk, owner=owner(users[0]),
                    action=rng.choice(legal or list(match.legal_actions())),
                    expected_version=table.version,
                )
    raise AssertionError("no new hand began with a bot to move")


def _groups_told(table: Table, user: Any) -> list[str]:
    """The groups the broadcasts of one legal move by ``user`` at ``table`` went to."""
    table.refresh_from_db()
    legal = [a for a in replay.load(table).legal_actions() if a not in ("redeal", "claim")]
    _version, held = notices.hold_broadcasts(
        moves.apply_action, table_id=table.pk, owner=owner(user), action=legal[0],
        expected_version=table.version,
    )
    return [group for group, _message in held]


def test_a_far_deadline_does_not_wake_the_clocks_a_near_one_does(users: list[Any]) -> None:
    # A 30 s move timer is found by every clock's next round (they look at least every
    # clock.MAX_SLEEP seconds): waking them on each move would cost a clock round per move.
    table = four_player_table(users, move_seconds=30)
    for seat in range(4):
        presence.seat_connected(table_id=table.pk, seat=seat)
    table.refresh_from_db()
    mover = users[replay.load(table).to_move]
    told = _groups_told(table, mover)
    table.refresh_from_db()
    assert table.deadline_kind in (Table.MOVE, Table.CALL)
    assert groups.group_name(table.pk) in told
    assert groups.CLOCK_GROUP not in told
    assert deadlines.WAKE_WITHIN == clock.MAX_SLEEP
    # A bot's move (no pause in tests) is due at once: the clocks are woken for it.
    [bot_table] = _tables_waiting_on_bots(users, 1)
    while bot_table.deadline_kind == Table.BOT:
        assert due.fire(bot_table.pk, bot_table.version, Table.BOT)
        bot_table.refresh_from_db()
    assert bot_table.status == Table.PLAYING and replay.load(bot_table).to_move == 0
    # Seat 0's move hands the turn to a bot unless it wins the trick and leads again.
    for _ in range(13):
        told = _groups_told(bot_table, users[0])
        bot_table.refresh_from_db()
        if replay.load(bot_table).to_move != 0:
            break
    assert bot_table.deadline_kind == Table.BOT
    assert groups.CLOCK_GROUP in told
