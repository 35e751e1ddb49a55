"""Ratings at a match's end: only tables of four accounts are rated; a leaver is recorded
as having abandoned (a loss, even when the bot that replaced them won)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import GameResult, GameStats
from accounts.services import record_result
from game.models import Table
from game.tables import due, lifecycle, moves, presence, registry
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


@pytest.mark.parametrize(("game", "shape"), [
    ("courtpiece", {"variant": "be_ranga", "target": 1}), ("backgammon", {"length": 1})
])
def test_a_game_against_bots_counts_for_the_player(
    users: list[Any], game: str, shape: dict[str, Any]
) -> None:
    """Issue 27: every finished game counts, unrated ones apart (no rating moves)."""
    seats = 4 if game == "courtpiece" else 2
    table = lifecycle.create_table(
        game=game, owner=owner(users[0]), bots=list(range(1, seats)), **shape
    )
    _finish(table, {0: users[0]}, random.Random(2))
    table.refresh_from_db()
    result = GameResult.objects.get(user=users[0])
    final = replay.load(table)
    gspec = registry.spec(game)
    assert result.table == table.pk and not result.rated and result.rating is None
    assert result.won == (0 in gspec.teams[gspec.winner(final)])
    assert result.hands == len(gspec.finished(final)) >= 1
    assert result.finished_at == table.finished_at
    assert "bot" in result.opponents and "@" not in "".join(result.opponents)
    assert not GameStats.objects.exists()
    assert GameResult.objects.count() == 1  # bots have no results


def test_a_rated_match_keeps_every_players_result_and_rating(users: list[Any]) -> None:
    table = lifecycle.create_table(
        game="courtpiece", owner=owner(users[0]), variant="be_ranga", target=1
    )
    for n in (1, 2, 3):
        lifecycle.take_seat(table_id=table.pk, owner=owner(users[n]), seat=n)
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    table.refresh_from_db()
    assert table.rated
    _finish(table, dict(enumerate(users[:4])), random.Random(3))
    results = {r.user_id: r for r in GameResult.objects.filter(table=table.pk)}
    stats = {s.user_id: s for s in GameStats.objects.all()}
    assert set(results) == {u.pk for u in users[:4]}
    for pk, r in results.items():
        assert r.rated and r.rating == pytest.approx(stats[pk].rating)


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
