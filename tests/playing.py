"""Playing a live table to a point, for tests that need a finished hand or game: the
person's seat plays what ``choose`` picks, the bots play theirs through the table's own
clock path (``due.fire``), and the loop stops when ``done`` says so.

Used in-process (pytest-django's database) and inside a browser test's live site
(``manage.py shell`` code imports it: the checkout is on the shell's path). A live site's
bots wait out their pause before they may move, so the loop is bounded by time, not by a
count of steps: on a quiet machine a fixed count runs out before the bots' pauses do."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from game.models import Table
from game.tables import access, due, moves, presence
from game.tables.errors import TableError
from game.tables.store import replay

# Actions a test's random player leaves alone: a timeout is the clock's, a redeal or a
# claim ends the hand early (the tests want it played).
NOT_CHOSEN = frozenset({"timeout", "redeal", "claim"})


def play_out(
    table: Table,
    owner: access.Owner,
    *,
    done: Callable[[Any], bool],
    choose: Callable[[Any, list[str]], str | None],
    seat: int = 0,
    seconds: float = 120.0,
) -> Any | None:
    """Play until ``done(state)``: ``owner`` at ``seat`` plays ``choose(state, legal)``
    (None: no action now, look again), every bot seat is fired when due. Returns the
    state that was done, or None when the match ended without it or time ran out."""
    presence.seat_connected(table_id=table.pk, seat=seat)
    try:
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            table.refresh_from_db()
            state = replay.load(table)
            if done(state):
                return state
            if state.to_move is None:  # the match is over without what was wanted
                return None
            if table.seats.get(number=state.to_move).bot:
                # Not due yet (the bot's pause), or the site's clock fired it first.
                if not due.fire(table.pk, table.version, Table.BOT):
                    time.sleep(0.02)
                continue
            legal = list(state.legal_actions())
            action = choose(state, [a for a in legal if a not in NOT_CHOSEN] or legal)
            if action is None:
                continue
            with contextlib.suppress(TableError):  # the clock moved first: look again
                moves.apply_action(
                    table_id=table.pk, owner=owner, action=action,
                    expected_version=table.version,
                )
        return None
    finally:
        presence.seat_disconnected(table_id=table.pk, seat=seat)
