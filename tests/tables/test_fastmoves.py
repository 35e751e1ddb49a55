"""A player's common move runs on the event loop (game/fastmoves.py): it must write and
send exactly what the thread's ``moves.apply_action`` would, refuse what it refuses
with the same codes and no change, and hand every less common move to the thread
before writing anything (docs/TABLE_PROTOCOL.md's errors; the log is the truth)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection, transaction

from game.models import Action, Seat, Table
from game.tables import fastmoves, frames, groups, moves, names, notices
from game.tables.errors import TableError
from game.tables.store import replay, rows
from tests.tables.live import four_player_table, owner, run, session_cookie, socket, until_version


def _ready(table: Table) -> tuple[Table, Any]:
    """The row as stored, its state in this process's cache and its names cached (as a
    table that is being played has them)."""
    row = Table.objects.get(pk=table.pk)
    notices.notice(row, rows.seats_of(row))
    return row, replay.load(row)


def _legal(game_state: Any) -> str:
    legal = [a for a in game_state.legal_actions() if a not in ("redeal", "claim")]
    return legal[0]


def _on_loop(table: Table, user: Any, action: str, version: int) -> Any:
    async def body() -> Any:
        try:
            return await fastmoves.apply_action(
                table_id=table.pk, owner=owner(user), action=action, expected_version=version
            )
        except (fastmoves.Fallback, TableError) as exc:
            return exc
        finally:
            await fastmoves.close_all()

    return run(body)


def test_a_move_on_the_loop_stores_and_sends_what_the_thread_would(users: list[Any]) -> None:
    table = four_player_table(users)
    for _ in range(6):  # a few moves: through a calling phase into the tricks
        row, game_state = _ready(table)
        seat = game_state.to_move
        done = _on_loop(table, users[seat], _legal(game_state), row.version)
        assert not isinstance(done, Exception), done
        version, held = done
        assert version == row.version + 1
        stored = Action.objects.get(table=table, number=version)
        assert (stored.seat, stored.source) == (seat, Action.PLAYER)
        assert Table.objects.get(pk=table.pk).version == version
        [(_group, notice)] = [m for m in held if m[0] == groups.group_name(table.pk)]
        assert notice["version"] == version
        for key, text in notice["frames"].items():
            frame_seat = None if key == "-" else int(key)
            # Byte for byte the frame a socket builds from the database itself.
            assert text == frames.frame_json(frames.state_payload(table.pk, frame_seat))
        # The cache the move left behind is the log's replay.
        cached = replay.cached(Table.objects.get(pk=table.pk))
        replay.clear_cache()
        replayed = replay.load(Table.objects.get(pk=table.pk))
        assert json.dumps(cached.view(None)) == json.dumps(replayed.view(None))


def test_refusals_on_the_loop_change_nothing(users: list[Any]) -> None:
    table = four_player_table(users)
    row, game_state = _ready(table)
    seat = game_state.to_move
    other = users[(seat + 1) % 4]
    cases = [
        (users[seat], _legal(game_state), row.version + 1, "stale"),
        (users[seat], _legal(game_state), row.version - 1 if row.version else 99, "stale"),
        (other, _legal(game_state), row.version, "not_your_turn"),
        (users[seat], "not-a-move", row.version, "illegal"),
        (users[seat], "", row.version, "malformed"),
    ]
    for user, action, version, code in cases:
        result = _on_loop(table, user, action, version)
        assert isinstance(result, TableError), (action, version, result)
        assert result.code == code
    stranger = type(users[0]).objects.create_user("stranger", password="pw")
    result = _on_loop(table, stranger, _legal(game_state), row.version)
    assert isinstance(result, TableError) and result.code == "not_seated"
    assert Table.objects.get(pk=table.pk).version == row.version
    assert Action.objects.filter(table=table).count() == row.version


@pytest.mark.parametrize("case", ["uncached state", "uncached name", "away", "off", "busy"])
def test_uncommon_moves_go_to_the_thread_before_anything_is_written(
    users: list[Any], settings: Any, case: str
) -> None:
    table = four_player_table(users)
    row, game_state = _ready(table)
    seat = game_state.to_move
    if case == "uncached state":
        replay.clear_cache()
    elif case == "uncached name":
        names.CACHE.clear()
    elif case == "away":
        Seat.objects.filter(table=table, number=seat).update(away=True)
    elif case == "off":
        settings.TABLES_FAST_MOVES = False
    if case == "busy":  # another connection is writing: the loop does not wait for it
        if connection.vendor != "sqlite":
            pytest.skip("PostgreSQL's moves wait for the row lock, awaited on the loop")
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(move_seconds=row.move_seconds)
            result = _on_loop(table, users[seat], _legal(game_state), row.version)
    else:
        result = _on_loop(table, users[seat], _legal(game_state), row.version)
    assert isinstance(result, fastmoves.Fallback), result
    assert Table.objects.get(pk=table.pk).version == row.version
    assert Action.objects.filter(table=table).count() == row.version
    # The thread then plays it.
    assert moves.apply_action(
        table_id=table.pk, owner=owner(users[seat]), action=_legal(game_state),
        expected_version=row.version,
    ) == row.version + 1


def test_a_socket_plays_its_moves_on_the_loop(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = four_player_table(users)
    _ready(table)
    thread_moves: list[Any] = []
    slow = moves.apply_action
    monkeypatch.setattr(
        moves, "apply_action", lambda **kw: thread_moves.append(kw) or slow(**kw)
    )

    cookies = [session_cookie(u) for u in users]

    async def body() -> None:
        comms = [socket(table.pk, cookie) for cookie in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
        latest: list[dict[str, Any]] = [(await until_version(c, 0))[-1] for c in comms]
        version = start = latest[0]["version"]
        seen: list[list[int]] = [[] for _ in comms]  # the versions each socket was sent
        for _ in range(8):
            [mover] = [i for i, f in enumerate(latest) if f["legal"] and f["version"] == version]
            legal = [a for a in latest[mover]["legal"] if a not in ("redeal", "claim")]
            await comms[mover].send_json_to(
                {"type": "action", "action": legal[0], "version": version}
            )
            version += 1
            got = [await until_version(c, version) for c in comms]
            for n, received in enumerate(got):
                seen[n] += [f["version"] for f in received if f["version"] > start]
            latest = [received[-1] for received in got]
        for n, comm in enumerate(comms):
            assert await comm.receive_nothing(timeout=0.2)
            # Each move once to each socket: the mover's own frame, sent at once, is
            # not sent again when the group's notice arrives.
            assert seen[n] == list(range(start + 1, version + 1)), (n, seen[n])
        for comm in comms:
            await comm.disconnect()
        await fastmoves.close_all()

    run(body)
    assert Table.objects.get(pk=table.pk).version >= 8
    assert thread_moves == []  # every one of them on the loop


def test_a_name_about_to_expire_sends_the_move_to_the_thread(users: list[Any]) -> None:
    # Its frames are built on the loop, where a read of the names would fail: a name
    # that could expire while they are built is not taken as cached.
    table = four_player_table(users)
    row, game_state = _ready(table)
    seat = game_state.to_move
    with names.CACHE.lock:
        uid = users[seat].pk
        read_at, *both = names.CACHE.entries[uid]
        names.CACHE.entries[uid] = (read_at - names.NAME_SECONDS + 0.5, *both)
    result = _on_loop(table, users[seat], _legal(game_state), row.version)
    assert isinstance(result, fastmoves.Fallback), result
    assert Table.objects.get(pk=table.pk).version == row.version


def _move_once(table: Table, users: list[Any]) -> int:
    """One move on the loop for whoever is to move; the new version."""
    row, game_state = _ready(table)
    done = _on_loop(table, users[game_state.to_move], _legal(game_state), row.version)
    assert not isinstance(done, Exception), done
    return int(done[0])


def test_the_next_move_is_written_from_the_rows_in_memory(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a move on the loop the process knows the rows as it wrote them: the next one
    # is one guarded write, with no read of the table or its seats.
    table = four_player_table(users)
    _move_once(table, users)
    reads: list[Any] = []
    real = fastmoves.play_from_read
    monkeypatch.setattr(fastmoves, "play_from_read", lambda *a: reads.append(a) or real(*a))
    for _ in range(4):
        row, game_state = _ready(table)
        done = _on_loop(table, users[game_state.to_move], _legal(game_state), row.version)
        assert not isinstance(done, Exception), done
        version, held = done
        stored = Table.objects.get(pk=table.pk)
        assert stored.version == version
        assert Action.objects.filter(table=table).count() == version
        known, _seats = replay.known_rows(table.pk)  # type: ignore[misc]
        assert known.revision == stored.revision
        for name in ("moved_at", "deadline_at", "deadline_kind", "deadline_version", "status"):
            assert getattr(known, name) == getattr(stored, name), name
        [(_group, notice)] = [m for m in held if m[0] == groups.group_name(table.pk)]
        for key, text in notice["frames"].items():  # byte for byte what a socket builds
            frame_seat = None if key == "-" else int(key)
            assert text == frames.frame_json(frames.state_payload(table.pk, frame_seat))
    assert reads == []


def test_a_seat_given_away_behind_the_process_back_cannot_move(users: list[Any]) -> None:
    # The rows in memory still say the old owner holds the seat; the database says
    # otherwise. The guarded write finds the revision moved on, the rows are read, and
    # the refusal is the database's.
    table = four_player_table(users)
    _move_once(table, users)
    row, game_state = _ready(table)
    seat = game_state.to_move
    assert replay.known_rows(table.pk) is not None
    newcomer = type(users[0]).objects.create_user("newcomer", password="pw")
    Seat.objects.filter(table=table, number=seat).update(user=newcomer)  # no service
    result = _on_loop(table, users[seat], _legal(game_state), row.version)
    assert isinstance(result, TableError) and result.code == "not_seated", result
    assert Table.objects.get(pk=table.pk).version == row.version
    assert Action.objects.filter(table=table).count() == row.version


def test_a_refusal_from_the_rows_in_memory_is_checked_against_the_database(
    users: list[Any]
) -> None:
    # Another process moved the table on: the rows this one holds are a version behind,
    # and would call the player's (current) version stale. It is read again and played.
    table = four_player_table(users)
    _move_once(table, users)
    behind = replay.known_rows(table.pk)
    row, game_state = _ready(table)
    assert moves.apply_action(
        table_id=table.pk, owner=owner(users[game_state.to_move]),
        action=_legal(game_state), expected_version=row.version,
    ) == row.version + 1
    assert behind is not None
    replay.remember_rows(*behind)  # as another process's move would leave this one
    version = _move_once(table, users)
    assert version == row.version + 2
    assert Action.objects.filter(table=table).count() == version


def test_an_illegal_move_in_the_state_in_memory_is_checked_against_the_database(
    users: list[Any]
) -> None:
    # The rows and state this process holds are a version behind: an action the old
    # state refuses is not called illegal from memory. The database says stale.
    table = four_player_table(users)
    _move_once(table, users)
    row, game_state = _ready(table)
    behind_rows = replay.known_rows(table.pk)
    assert behind_rows is not None
    mover = users[game_state.to_move]
    assert moves.apply_action(
        table_id=table.pk, owner=owner(mover), action=_legal(game_state),
        expected_version=row.version,
    ) == row.version + 1
    replay.remember_rows(*behind_rows)  # as another process's move would leave this one
    replay.remember(behind_rows[0], row.version, game_state)
    illegal = "no-such-action"
    result = _on_loop(table, mover, illegal, row.version)
    assert isinstance(result, TableError) and result.code == "stale", result
    assert Action.objects.filter(table=table).count() == row.version + 1


@pytest.mark.parametrize("value", ["off", "on"])
def test_the_moves_on_the_loop_commit_as_the_setting_says(
    users: list[Any], settings: Any, value: str
) -> None:
    """PostgreSQL: TABLES_MOVES_SYNCHRONOUS_COMMIT on the moves' own connections, and on
    no other (Django's keep the server's own setting, with which a match's result is
    written). The move is committed either way: the thread's connection sees it."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite: every connection runs with synchronous=NORMAL (settings)")
    settings.TABLES_MOVES_SYNCHRONOUS_COMMIT = value
    table = four_player_table(users)
    row, game_state = _ready(table)
    seat = game_state.to_move

    async def body() -> tuple[Any, str]:
        try:
            done = await fastmoves.apply_action(
                table_id=table.pk, owner=owner(users[seat]), action=_legal(game_state),
                expected_version=row.version,
            )
            db = await fastmoves.database()
            async with db.connection() as conn:
                shown = await (await conn.execute("SHOW synchronous_commit")).fetchone()
            return done, shown[0]
        finally:
            await fastmoves.close_all()

    (version, _messages), shown = run(body)
    assert shown == value
    assert version == row.version + 1
    assert Table.objects.get(pk=table.pk).version == row.version + 1
    assert Action.objects.filter(table=table).count() == row.version + 1
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setting, reset_val FROM pg_settings WHERE name = 'synchronous_commit'"
        )
        setting, server_own = cursor.fetchone()
    assert setting == server_own
