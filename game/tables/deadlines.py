"""A table's one pending deadline: what it is and when it falls.

Each write that moves a table on stores the next deadline of the seat to move on the
table row (``Table.deadline_*``): a bot's human-like pause, a calling timer, a move timer
or the grace period of a player whose sockets all closed. The clocks fire them
(:mod:`game.tables.due`). Timers run from ``moved_at`` (when the current version was
reached), so recomputing after a (re)connect never gives a player more time.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from game.models import Seat, Table
from game.tables import registry
from game.tables.config import setting

# Every clock looks at the deadlines at least this often (its MAX_SLEEP), so a deadline
# further off than this needs no wake-up: the clock's next round finds it in time. A move
# timer (30 s) then costs no wake-up, and no clock round of two queries, per move.
WAKE_WITHIN = 5.0


def bot_pause() -> float:
    """A short human-like pause before a bot moves (TABLES_BOT_PAUSE, seconds)."""
    low, high = setting("TABLES_BOT_PAUSE", (0.6, 1.2))
    return low if high <= low else secrets.SystemRandom().uniform(low, high)


def set_deadline(table: Table, seats: list[Seat], game_state: Any, now: datetime) -> None:
    """Store the one pending deadline of the seat to move (nothing when none applies).

    Timers run from ``moved_at`` (when the current version was reached), so recomputing
    after a (re)connect never gives a player more time. While no person has a socket open
    at the table, nothing runs: bots do not play on to an empty room, and the clock
    starts when the first player arrives."""
    table.deadline_at, table.deadline_kind, table.deadline_version = None, "", None
    if table.status != Table.PLAYING or game_state.is_over:
        return
    if not any(s.connections > 0 for s in seats if not s.bot):
        return
    seat = seats[game_state.to_move]
    base = table.moved_at or now
    if seat.bot or seat.away:
        pause = bot_pause()
        game = registry.spec(table.game)
        if game.hand_just_ended(game_state):
            pause = max(pause, float(setting("TABLES_HAND_PAUSE", 6.0)))
        elif game.trick_just_won(game_state):
            pause = max(pause, float(setting("TABLES_TRICK_PAUSE", 1.8)))
        table.deadline_at = max(base, now) + timedelta(seconds=pause)
        table.deadline_kind = Table.BOT
    else:
        timer: tuple[datetime, str] | None = None
        if registry.spec(table.game).timeout_action(game_state) is not None:
            seconds = (
                setting("TABLES_FIRST_CALL_SECONDS", 10)
                if seat.first_game
                else setting("TABLES_CALL_SECONDS", 20)
            )
            timer = (base + timedelta(seconds=seconds), Table.CALL)
        elif table.move_seconds:
            timer = (base + timedelta(seconds=table.move_seconds), Table.MOVE)
        if seat.connections == 0 and seat.disconnected_at is not None:
            grace = seat.disconnected_at + timedelta(
                seconds=setting("TABLES_GRACE_SECONDS", 30)
            )
            if timer is None or grace < timer[0]:
                timer = (grace, Table.GRACE)
        if timer is None:
            return
        table.deadline_at, table.deadline_kind = timer
    table.deadline_version = table.version


# The table row's fields a new deadline changes (saving only these keeps the write small).
DEADLINE_FIELDS = ("deadline_at", "deadline_kind", "deadline_version")


def wakes_clock(table: Table) -> bool:
    """Whether the deadline just set may be due before every clock's next round."""
    if table.deadline_at is None:
        return False
    return (table.deadline_at - timezone.now()).total_seconds() < WAKE_WITHIN
