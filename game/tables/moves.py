"""A move: checked, applied by the engine, appended to the log, the row moved on and the
table told, in one transaction on the table's locked row.

This is the thread's path (the ORM in a database thread), which every kind of move can
take; :mod:`game.tables.fastmoves` plays the common case on the event loop with these
same checks (:func:`admit_action`), the same step (:func:`advance`) and the same
statements. Refusals (``TableError``) change nothing: the version check refuses whatever
was decided against an older state, a repeated frame included.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from game.engine.protocol import IllegalAction
from game.models import Action, Seat, Table
from game.tables import access, ahead, deadlines, notices, records, registry
from game.tables.errors import TableError
from game.tables.store import replay, rows

# What a move changes on the table row: saving only these keeps the write small (the
# options, seeds and commitment never change once the table has started).
PLAY_FIELDS = ("version", "moved_at", "status", "finished_at", *deadlines.DEADLINE_FIELDS)


def save_table(table: Table, fields: tuple[str, ...] | None = None) -> None:
    """Write the table row (all of it, or ``fields``), and forget this process's copy of
    the rows that moves on the loop play from (someone wrote the table)."""
    replay.forget_rows(table.pk)
    if fields is None:
        table.save()
    else:
        rows.update(table, fields)  # a move's few fields, in SQL built once (store.rows)


def append(
    table: Table, seats: list[Seat], game_state: Any, seat: int, action: str, source: str
) -> Any:
    """Apply ``action`` for ``seat``, store it, bump the version, set the next deadline."""
    new_state, now = advance(table, seats, game_state, seat, action)
    rows.append_action(table.pk, table.version, seat, action, source, now)
    if new_state.is_over:
        records.record_match(table, seats, new_state)
    ended = ahead.ended_hand(table.game, game_state, new_state)
    if ended is not None:  # its analysis, in the background once the move is stored
        transaction.on_commit(functools.partial(ahead.schedule, table.pk, ended))
    save_table(table, PLAY_FIELDS)
    replay.remember(table, table.version, new_state)
    notices.broadcast(
        table, seats, new_state, wake=deadlines.wakes_clock(table), lobby=new_state.is_over
    )
    return new_state


def advance(
    table: Table, seats: list[Seat], game_state: Any, seat: int, action: str
) -> tuple[Any, datetime]:
    """The engine's new state after ``action``, and the table row moved on to it in
    memory (version, when, the next deadline; a finished match only its status). Writes
    nothing: the caller stores the action at ``table.version`` and the row's
    ``PLAY_FIELDS`` (``game.tables.fastmoves`` does the same with its own connection)."""
    try:
        new_state = game_state.apply(action, seat)
    except IllegalAction as exc:
        raise TableError("illegal", str(exc)) from None
    now = timezone.now()
    table.version += 1
    table.moved_at = now
    if new_state.is_over:
        finish_fields(table, now)
    else:
        deadlines.set_deadline(table, seats, new_state, now)
    return new_state, now


def finish_fields(table: Table, now: datetime) -> None:
    table.status = Table.OVER
    table.finished_at = now
    table.deadline_at, table.deadline_kind, table.deadline_version = None, "", None


def check_action_args(action: Any, expected_version: Any) -> None:
    if not isinstance(action, str) or not action or len(action) > 64:
        raise TableError("malformed", "action must be a short string")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TableError("malformed", "version must be a whole number")


def admit_action(
    table: Table,
    seats: list[Seat],
    owner: access.Owner,
    action: str,
    expected_version: int,
    load: Callable[[Table], Any] = replay.load,
) -> tuple[int, Any]:
    """The owner's seat and the table's state, if ``action`` may be tried now: held seat,
    started, exactly ``expected_version``, not over, the owner's turn, not ``timeout``.
    Reads nothing but through ``load`` (the state of the row at its version)."""
    seat = access.seat_of(seats, owner)
    if seat is None:
        raise TableError("not_seated", "you hold no seat at this table")
    if table.status == Table.WAITING:
        raise TableError("illegal", "the table has not started")
    if expected_version != table.version:
        raise TableError("stale", f"the table has moved on (version {table.version})")
    if table.status == Table.OVER:
        raise TableError("illegal", "the match is over")
    game_state = load(table)
    if game_state.to_move != seat:
        raise TableError("not_your_turn", "it is not your turn")
    game = registry.spec(table.game)
    if action not in game_state.legal_actions() and action == game.timeout_action(game_state):
        # The engine accepts `timeout` from the table; a player may never send it.
        raise TableError("illegal", "timeout is applied by the table, not sent by a player")
    return seat, game_state


def apply_action(*, table_id: int, owner: access.Owner, action: str, expected_version: int) -> int:
    """Play ``action`` for the owner's seat if it is legal at exactly ``expected_version``.

    Returns the new version. Refusals (TableError) change nothing. ``game.tables.fastmoves``
    plays the common case of this on the event loop, with these same checks and steps."""
    check_action_args(action, expected_version)
    with transaction.atomic():
        table = rows.locked(table_id)
        seats = rows.seats_of(table)
        seat, game_state = admit_action(table, seats, owner, action, expected_version)
        if seats[seat].away:
            seats[seat].away = False
            seats[seat].save(update_fields=["away"])
        append(table, seats, game_state, seat, action, Action.PLAYER)
        return table.version
