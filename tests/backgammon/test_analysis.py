"""The backgammon analysis (the protocol's "equity" form, issue 29): every checker play
with a choice judged by GNU Backgammon at 2-ply in the worker processes; losses are never
negative and 0 for the best play; blunders, errors and XG's performance rating."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game.backgammon import analysis
from game.backgammon import bot as bgbot
from game.engine import backgammon as bg

pytest.importorskip("gnubg")


@pytest.fixture(scope="module", autouse=True)
def _pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


def _opening(dice: tuple[int, int]) -> bg.Game:
    return bg.Game(dice=[dice, (3, 1), (4, 2)])


def test_every_opening_play_loses_nothing_or_more_and_the_best_play_loses_nothing() -> None:
    game = _opening((6, 4))
    plays = [a for a in game.legal_actions() if a.startswith("move:")]
    assert len(plays) > 5
    judged = {}
    for play in plays:
        moves = analysis.judge(analysis.decisions(game.apply(play)))
        assert len(moves) == 1
        entry = moves[0]
        assert entry["move"] == 1 and entry["dice"] in ([6, 4], [4, 6])
        assert entry["played"] == play[5:] and f"move:{entry['best']}" in plays
        assert entry["equity_loss"] >= 0
        assert (entry["equity_loss"] == 0) == (entry["best"] == entry["played"])
        judged[play[5:]] = entry
    # the best play, played, loses nothing; some other play loses more than nothing
    best = {e["best"] for e in judged.values() if e["equity_loss"] > 0}
    for play in best:
        assert judged[play]["equity_loss"] == 0
    assert any(e["equity_loss"] > 0 for e in judged.values())


def test_a_whole_game_rated_for_both_players() -> None:
    rnd = random.Random(5)
    game = bg.Game(seed="analysis-game")
    while not game.is_over:
        legal = game.legal_actions()
        moves = [a for a in legal if a.startswith("move:")]
        action = rnd.choice(moves) if moves else ("roll" if "roll" in legal else legal[0])
        game = game.apply("roll" if action == "double" else action)
    data = analysis.analyse([game], 0)
    assert data["kind"] == "equity" and data["level"] == "2-ply"
    checker_plays = sum(1 for _s, a in game.history if a.startswith("move:"))
    numbers = [m["move"] for m in data["moves"]]
    assert numbers == sorted(set(numbers)) and numbers[0] >= 1 and numbers[-1] <= checker_plays
    for m in data["moves"]:
        assert m["equity_loss"] >= 0 and m["seat"] in (0, 1)
        assert (m["equity_loss"] == 0) == (m["best"] == m["played"])
    for seat in (0, 1):
        # the rating counts every decision: checker plays and cube decisions
        mine = [m["equity_loss"] for m in data["moves"] + data["cube"] if m["seat"] == seat]
        assert data["rating"][seat] == pytest.approx(500 * sum(mine) / len(mine), abs=0.1)
        assert data["blunders"][seat] == sum(1 for x in mine if x > analysis.BLUNDER)
        errors = sum(1 for x in mine if analysis.ERROR < x <= analysis.BLUNDER)
        assert data["errors"][seat] == errors


def test_a_decision_where_a_play_bears_off_the_last_checker_is_judged() -> None:
    # A random game in which one decision could bear off the last checker (a win, judged
    # without gnubg: a gammon when the opponent has borne off none). It raised
    # AttributeError before (the position's sides were misnamed), and the game's whole
    # analysis with it.
    rnd = random.Random(12)
    game = bg.Game(seed="analysis-win-12")
    while not game.is_over:
        legal = game.legal_actions()
        moves = [a for a in legal if a.startswith("move:")]
        action = rnd.choice(moves) if moves else ("roll" if "roll" in legal else legal[0])
        game = game.apply("roll" if action == "double" else action)
    found = analysis.decisions(game)
    winning = [
        d for d in found
        if any(after.theirs & 15 == 15 for after in d["afters"].values())
    ]
    assert winning, "the game no longer has a decision that can win (engine changed?)"
    judged = {m["move"]: m for m in analysis.judge(found)}
    for decision in winning:
        entry = judged[decision["move"]]
        wins = {p for p, after in decision["afters"].items() if after.theirs & 15 == 15}
        assert entry["best"] in wins  # bearing off the last checker is never worse
        assert (entry["equity_loss"] == 0) == (entry["played"] in wins or
                                               entry["played"] == entry["best"])
