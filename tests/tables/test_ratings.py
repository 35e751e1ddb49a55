"""Ratings at a match's end: only tables of four accounts are rated; a leaver is recorded
as having abandoned (a loss, even when the bot that replaced them won)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import GameStats
from accounts.services import record_result
from game.models import Table
from game.tables import due, lifecycle, moves, presence
from game.tables.store import replay
from tests.tables.live import owner

pytestmark = pytest.mark.django_db


def _finish(table: Table, humans: dict[int, Any], rng: random.Random) -> None:
    presence.seat_connected(table_id=table.pk, seat=min(humans))  # someone is there
    table.refresh_from_db()
    while table.status == Table.PLAYING:
        match = replay.load(table)
        if match.to_move in humans:
            moves.apply_action(table_id=table.pk, owner=owner(humans[match.to_move]),
                                  action=rng.choice(match.legal_actions()),
                                  expected_version=table.version)
        else:
            assert due.fire(table.pk, table.version, Table.BOT)
        table.refresh_from_db()


def test_tables_with_a_bot_are_not_rated(users: list[Any]) -> None:
    table = lifecycle.create_table(
        game="courtpiece", owner=owner(users[0]), variant="be_ranga", target=1, bots=[1, 2, 3]
    )
    assert not table.rated
    _finish(table, {0: users[0]}, random.Random(1))
    assert not GameStats.objects.exists()


def test_a_leaver_on_the_winning_side_is_still_recorded_as_losing(users: list[Any]) -> None:
    record_result("rung", [[users[0], users[2]], [users[1], users[3]]], winning_team=0,
                  abandoned=[users[2]])
    rows = {r.user_id: r for r in GameStats.objects.filter(game="rung")}
    assert (rows[users[0].pk].won, rows[users[0].pk].abandoned) == (1, 0)
    left = rows[users[2].pk]
    assert (left.won, left.lost, left.abandoned, left.played) == (0, 1, 1, 1)
    assert left.mu < rows[users[0].pk].mu


def test_abandoned_players_must_be_in_the_teams(users: list[Any]) -> None:
    with pytest.raises(ValueError, match="abandoned"):
        record_result("rung", [[users[0]], [users[1]]], 0, abandoned=[users[2]])
    assert not GameStats.objects.exists()
