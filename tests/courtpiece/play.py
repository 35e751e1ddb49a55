"""Helpers of the Court Piece page tests: a table's first hand played out through the
table services, as the players' sockets and the clock would, and the names a page may
show in English on every language's page."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.models import Table
from game.tables import access, due, moves, presence
from game.tables.store import replay

ALLOWED = {"alice", "bob", "guest", "UTC", "SHA", "Python", "bobby"}


def play_out_first_hand(table: Table) -> None:
    """Drive the table through the service, as the players' sockets and the clock would:
    the person is "connected" (tables only run their clock while someone is there) and
    each bot's deadline is fired as soon as it is set (TABLES_BOT_PAUSE is 0 here)."""
    rng = random.Random(3)
    owners = {s.number: access.Owner(s.user, s.guest_key or None) for s in table.seats.all()}
    for seat in table.seats.filter(bot=False):
        presence.seat_connected(table_id=table.pk, seat=seat.number)
    for _step in range(400):
        table.refresh_from_db()
        match = replay.load(table)
        if match.hands or match.is_over:
            return
        mover = match.to_move
        if table.seats.get(number=mover).bot:
            assert table.deadline_kind == Table.BOT, "no bot deadline is pending"
            assert due.fire(table.pk, table.version, Table.BOT)
            continue
        # The person plays the hand on (a redeal or a claim would end it trickless).
        legal = [
            a for a in match.legal_actions() if a not in ("timeout", "redeal", "claim")
        ] or list(match.legal_actions())
        moves.apply_action(
            table_id=table.pk,
            owner=owners[mover],
            action=rng.choice(legal),
            expected_version=table.version,
        )
    raise AssertionError("the hand did not end in 400 steps")


@pytest.fixture(autouse=True)
def bots_without_pause(settings: Any) -> None:
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0


