"""accounts.services.record_result: statistics and openskill ratings, in one transaction."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError
from openskill.models import PlackettLuce

from accounts.models import GameStats
from accounts.services import record_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("north", "east", "south", "west")]


def stats(user: Any, game: str) -> GameStats:
    return GameStats.objects.get(user=user, game=game)


def test_court_piece_result_counts_and_rates_both_teams(four: list[Any]) -> None:
    north, east, south, west = four
    # Seats {0, 2} against {1, 3}; the first team wins.
    record_result("rung", [[north, south], [east, west]], winning_team=0)
    for winner in (north, south):
        row = stats(winner, "rung")
        assert (row.played, row.won, row.lost) == (1, 1, 0)
    for loser in (east, west):
        row = stats(loser, "rung")
        assert (row.played, row.won, row.lost) == (1, 0, 1)
    assert stats(north, "rung").rating > 0 > stats(east, "rung").rating
    # The numbers are openskill's own for this game.
    model = PlackettLuce()
    expected = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                          ranks=[1, 2])
    assert stats(north, "rung").mu == pytest.approx(expected[0][0].mu)
    assert stats(east, "rung").sigma == pytest.approx(expected[1][0].sigma)
    assert stats(north, "rung").rating == pytest.approx(expected[0][0].ordinal())


def test_each_game_keeps_its_own_record(four: list[Any]) -> None:
    north, east, _south, _west = four
    record_result("backgammon", [[north], [east]], winning_team=1)
    record_result("backgammon", [[north], [east]], winning_team=1)
    record_result("hukum", [[north, _south], [east, _west]], winning_team=0)
    assert (stats(east, "backgammon").won, stats(east, "backgammon").played) == (2, 2)
    assert (stats(north, "backgammon").lost, stats(north, "hukum").won) == (2, 1)
    assert not GameStats.objects.filter(game="rung").exists()


def test_ratings_move_less_as_certainty_grows(four: list[Any]) -> None:
    north, east, _s, _w = four
    gains = []
    before = PlackettLuce().mu
    for _ in range(5):
        record_result("backgammon", [[north], [east]], winning_team=0)
        after = stats(north, "backgammon").mu
        gains.append(after - before)
        before = after
    assert gains == sorted(gains, reverse=True)
    assert stats(north, "backgammon").sigma < PlackettLuce().sigma


def test_an_upset_moves_ratings_more_than_an_expected_win(make_user: Any) -> None:
    strong, weak, other_strong, other_weak = (make_user(n) for n in ("s1", "w1", "s2", "w2"))
    for _ in range(5):
        record_result("backgammon", [[strong], [weak]], winning_team=0)
        record_result("backgammon", [[other_strong], [other_weak]], winning_team=0)
    before_expected = stats(strong, "backgammon").mu
    before_upset = stats(other_weak, "backgammon").mu
    record_result("backgammon", [[strong], [weak]], winning_team=0)  # the favourite wins
    record_result("backgammon", [[other_strong], [other_weak]], winning_team=1)  # upset
    expected_gain = stats(strong, "backgammon").mu - before_expected
    upset_gain = stats(other_weak, "backgammon").mu - before_upset
    assert upset_gain > expected_gain > 0


@pytest.mark.parametrize(
    ("game", "teams", "winning_team", "message"),
    [
        ("chess", "two", 0, "unknown game"),
        ("rung", "one", 0, "at least two teams"),
        ("rung", "empty", 0, "at least one player"),
        ("rung", "two", 2, "is not a team"),
        ("rung", "two", -1, "is not a team"),
        ("rung", "two", True, "must be a team index"),
        ("rung", "two", "0", "must be a team index"),
        ("rung", "repeat", 0, "more than once"),
        ("rung", "guest", 0, "not a registered player"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    four: list[Any], game: str, teams: str, winning_team: Any, message: str
) -> None:
    north, east, south, west = four
    record_result("rung", [[north, south], [east, west]], winning_team=0)
    before = list(GameStats.objects.values_list("user_id", "game", "played", "won", "mu"))
    shapes = {
        "two": [[north, south], [east, west]],
        "one": [[north, south, east, west]],
        "empty": [[north, south], []],
        "repeat": [[north, south], [east, north]],
        "guest": [[north, south], [east, AnonymousUser()]],
    }
    with pytest.raises(ValueError, match=message):
        record_result(game, shapes[teams], winning_team=winning_team)
    assert list(GameStats.objects.values_list("user_id", "game", "played", "won", "mu")) == before


def test_the_database_refuses_inconsistent_counts(make_user: Any) -> None:
    user = make_user("alice")
    with pytest.raises(IntegrityError):
        GameStats.objects.create(user=user, game="rung", played=1, won=1, lost=1)
