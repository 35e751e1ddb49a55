"""Carrying out the deadlines that are due (a bot's move, an expired timer, the end of a
grace period): what every clock does (:mod:`game.tables.transport.clock`).

Firing a deadline is an ordinary versioned write on the table's locked row, done only if
it is still the table's pending deadline at the same version: any number of clocks may
race (one per server process, plus ``manage.py run_clock``) and a deadline still happens
exactly once, also across a restart. A bot decides outside any lock or transaction
(:func:`bot_question`, :func:`bot_choice`), so no bot thinks while holding a table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from game.models import Action, Table
from game.tables import deadlines, moves, notices, presence, registry
from game.tables.store import replay, rows

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Due:
    """A deadline that is due: what :func:`fire` needs to carry it out."""

    table_id: int
    version: int
    kind: str


Question = tuple[Any, int, dict[str, Any], str]  # what bot_choice decides from


def fire(table_id: int, version: int, kind: str, action: str | None = None) -> bool:
    """Carry out the stored deadline ``kind`` set at ``version``, if it is still the
    table's pending one and is due. Returns whether anything happened; a second call
    (another process, a restart, a late wake) finds it gone and does nothing.

    ``action``: the bot's choice, made beforehand outside the lock by
    :func:`bot_choice` (the clock does this so that no bot thinks while holding a
    table, nor in the database thread). It is applied only if the deadline is still
    pending at the same version, and like any action only if the engine takes it."""
    return _fire(table_id, version, kind, action) is not None


def fire_and_next(
    table_id: int, version: int, kind: str, action: str | None = None
) -> tuple[Due, Question | None] | None:
    """:func:`fire`, then the table's next deadline if it is already due (a bot's move
    right after its roll, with no pause set), with its :func:`bot_question` answered
    from the state just written: the clock carries it out at once instead of at its
    next wake, without reading the table again."""
    done = _fire(table_id, version, kind, action)
    if done is None:
        return None
    table, game_state = done
    if (
        table.status != Table.PLAYING
        or table.deadline_at is None
        or table.deadline_version is None
        or table.deadline_at > timezone.now()
    ):
        return None
    due = Due(table.pk, table.deadline_version, table.deadline_kind)
    question = None
    if due.kind in (Table.BOT, Table.MOVE):
        question = (game_state, game_state.to_move, dict(table.options), table.game)
    return due, question


def _fire(
    table_id: int, version: int, kind: str, action: str | None
) -> tuple[Table, Any] | None:
    """:func:`fire`; returns the table as written and its state, or None when nothing
    happened."""
    with transaction.atomic():
        table = rows.locked_table(table_id)
        if table is None:
            return None
        now = timezone.now()
        if (
            table.status != Table.PLAYING
            or table.deadline_at is None
            or table.deadline_version != version
            or table.version != version
            or table.deadline_kind != kind
            or table.deadline_at > now
        ):
            return None
        seats = rows.seats_of(table)
        game_state = replay.load(table)
        seat = game_state.to_move
        game = registry.spec(table.game)
        if kind == Table.GRACE:
            # The owner did not come back in time: the bot plays the seat until they do.
            seats[seat].away = True
            seats[seat].save(update_fields=["away"])
            deadlines.set_deadline(table, seats, game_state, now)
            moves.save_table(table, moves.PLAY_FIELDS)
            notices.broadcast(table, seats, game_state, wake=True)
            return table, game_state
        if kind == Table.CALL:
            action, source = game.timeout_action(game_state), Action.CLOCK
            assert action is not None
        else:
            if action is None:
                action = game.bot_action(game_state, seat, table.options)
            source = Action.BOT if kind == Table.BOT else Action.CLOCK
        return table, moves.append(table, seats, game_state, seat, action, source)


def pending_deadlines() -> Any:
    """The playing tables with a deadline pending, soonest first: the rows of the
    ``table_clock`` index (migration 0006), so a clock never reads the tables left in
    play with nobody there."""
    return Table.objects.filter(status=Table.PLAYING, deadline_pending=True).order_by(
        "deadline_at"
    )


def _due_now() -> Any:
    """:func:`pending_deadlines` that are due, after closing dead processes' sockets."""
    try:
        presence.reap_dead_processes()
    except Exception:
        log.exception("closing the sockets of dead processes failed")
    return pending_deadlines().filter(deadline_at__lte=timezone.now())


def due_deadlines(limit: int = 100) -> list[Due]:
    """The deadlines due now, soonest first (after closing dead processes' sockets)."""
    found = _due_now().values_list("pk", "deadline_version", "deadline_kind")[:limit]
    return [Due(pk, version, kind) for pk, version, kind in found]


def due_with_questions(limit: int = 100) -> list[tuple[Due, Question | None]]:
    """:func:`due_deadlines` with each one's :func:`bot_question`, from one read of the
    tables (what the clock asks each round)."""
    tables = _due_now()[:limit]
    out: list[tuple[Due, Question | None]] = []
    for table in tables:
        if table.deadline_version is None:
            continue
        due = Due(table.pk, table.deadline_version, table.deadline_kind)
        question = None
        if due.kind in (Table.BOT, Table.MOVE) and table.version == due.version:
            try:
                game_state = replay.load(table)
            except Exception:  # fire() will meet the same fault and log it there
                log.exception("the state of table %s could not be loaded", table.pk)
            else:
                question = (game_state, game_state.to_move, dict(table.options), table.game)
        out.append((due, question))
    return out


def next_deadline_in() -> float | None:
    """Seconds until the next pending deadline (None: there is none)."""
    upcoming = pending_deadlines().values_list("deadline_at", flat=True).first()
    if upcoming is None:
        return None
    return max(0.0, (upcoming - timezone.now()).total_seconds())


def bot_question(due: Due) -> Question | None:
    """What the bot must decide for ``due`` (a bot's move or a player's expired move
    timer): the state, the seat, the table's options and game, read without a lock.
    None when no decision is needed (another kind, or the table has moved on)."""
    if due.kind not in (Table.BOT, Table.MOVE):
        return None
    table = Table.objects.filter(pk=due.table_id).first()
    if table is None or table.version != due.version or table.status != Table.PLAYING:
        return None
    game_state = replay.load(table)
    return game_state, game_state.to_move, dict(table.options), table.game


def bot_choice(question: Question) -> str:
    """The bot's action for a :func:`bot_question` (no database: any thread)."""
    game_state, seat, options, game = question
    return registry.spec(game).bot_action(game_state, seat, options)


def fire_due(limit: int = 100) -> float | None:
    """Fire every deadline that is due, one after another; return the seconds until the
    next one (None: none). The clock's own path (``transport.clock.fire_round``) does
    the same with the bots' decisions made concurrently."""
    for due in due_deadlines(limit):
        try:
            fire(due.table_id, due.version, due.kind)
        except Exception:  # one broken table must not stop every other table's clock
            log.exception(
                "deadline %s of table %s at version %s failed", due.kind, due.table_id,
                due.version,
            )
    return next_deadline_in()
