"""The backgammon analysis' cube decisions (issue 29): the doubler's "double / no double"
and the taker's "take / pass", judged by GNU Backgammon's own cubeful cube analysis at
2-ply in the worker processes. Losses are never negative and 0 for the right decision;
constructed positions where gnubg clearly doubles and the taker passes (or takes);
the performance rating counts cube decisions with the checker plays. BG-11: the cube."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game.backgammon import analysis
from game.backgammon import bot as bgbot
from game.engine import backgammon as bg

pytest.importorskip("gnubg")

# A bear-off race: the doubler on roll with four checkers left, the opponent with five
# (both need two rolls, the doubler rolls first): gnubg doubles and the opponent passes.
DOUBLE_PASS = bg.Position.from_points({6: 2, 5: 1, 4: 1}, {6: 2, 5: 2, 4: 1})
# Four checkers each on 6-5-4-3, the doubler on roll: a double the opponent should take.
DOUBLE_TAKE = bg.Position.from_points({6: 1, 5: 1, 4: 1, 3: 1}, {6: 1, 5: 1, 4: 1, 3: 1})


@pytest.fixture(scope="module", autouse=True)
def _pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


def _asked(position: bg.Position | None = None, **options: object) -> tuple[str, bool]:
    game = bg.Game(position=position, turn=0, dice=[(3, 1)] * 4, **options)  # type: ignore[arg-type]
    view = game.view(game.turn)
    assert "double" in view["legal_actions"]
    return f"{view['position_id']}:{view['match_id']}", False


def _judged(asked: tuple[str, bool]) -> dict[str, dict[str, object]]:
    """Every action judged at one position: the doubler's two, the taker's two."""
    found = [
        {"move": 0, "seat": 0, "action": "double", "asked": asked},
        {"move": 0, "seat": 0, "action": "no_double", "asked": asked},
        {"move": 0, "seat": 1, "action": "take", "asked": asked},
        {"move": 0, "seat": 1, "action": "pass", "asked": asked},
    ]
    return {str(e["action"]): e for e in analysis.judge_cube(found)}


def test_a_clear_double_and_pass() -> None:
    judged = _judged(_asked(DOUBLE_PASS))
    equities = judged["double"]["equities"]
    assert isinstance(equities, dict)
    # money play: a pass gives the doubler the cube's value; the take would be worse
    assert equities["double_pass"] == 1.0
    assert equities["double_take"] > equities["double_pass"] > equities["no_double"]
    assert judged["double"]["best"] == "double" and judged["double"]["equity_loss"] == 0
    assert judged["pass"]["best"] == "pass" and judged["pass"]["equity_loss"] == 0
    # not doubling loses what the pass would have won over playing on: a blunder
    assert judged["no_double"]["best"] == "double"
    lost = judged["no_double"]["equity_loss"]
    assert lost == pytest.approx(1.0 - equities["no_double"], abs=1e-3)
    assert judged["no_double"]["equity_loss"] > analysis.BLUNDER
    assert judged["take"]["best"] == "pass"
    assert judged["take"]["equity_loss"] > analysis.BLUNDER


def test_a_clear_double_and_take() -> None:
    judged = _judged(_asked(DOUBLE_TAKE))
    equities = judged["double"]["equities"]
    assert isinstance(equities, dict)
    assert equities["no_double"] < equities["double_take"] < equities["double_pass"]
    assert judged["double"]["equity_loss"] == 0 and judged["take"]["equity_loss"] == 0
    assert judged["no_double"]["best"] == "double" and judged["no_double"]["equity_loss"] > 0
    assert judged["pass"]["best"] == "take" and judged["pass"]["equity_loss"] > analysis.BLUNDER


def test_doubling_at_the_start_is_a_blunder_and_not_doubling_is_no_decision() -> None:
    judged = _judged(_asked(bg.Position.start()))
    assert judged["double"]["best"] == "no_double"
    assert judged["double"]["equity_loss"] > analysis.BLUNDER
    # the right "no double" far from a double is no decision: it is not listed (CLOSE)
    assert "no_double" not in judged
    # after a double the taker must take the start position
    assert judged["take"]["equity_loss"] == 0 and judged["pass"]["best"] == "take"


def test_match_play_cube_decisions_are_judged_in_match_equity() -> None:
    judged = _judged(_asked(DOUBLE_TAKE, length=5, score=(2, 3)))
    for entry in judged.values():
        assert entry["equity_loss"] >= 0  # type: ignore[operator]
        assert (entry["equity_loss"] == 0) == (entry["action"] == entry["best"])


def _random_game_with_the_cube(seed: str) -> bg.Game:
    """A game from the start, random plays; each player doubles when gnubg's 0-ply
    cubeless equity (the intermediate bot's cube) says so, and the taker answers as it
    does, so the game has real doubles, takes or passes."""
    rnd = random.Random(seed)
    game = bg.Game(seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        moves = [a for a in legal if a.startswith("move:")]
        if moves:
            game = game.apply(rnd.choice(moves))
        elif game.phase in ("roll", "doubled"):
            game = game.apply(bgbot.decide(game.view(game.to_move), "intermediate").action)
        else:
            game = game.apply(legal[0])
    return game


def test_a_whole_game_judges_its_doubles_and_answers_and_rates_them() -> None:
    for seed in ("cube-analysis-1", "cube-analysis-2", "cube-analysis-3"):
        game = _random_game_with_the_cube(seed)
        if any(a == "double" for _s, a in game.history):
            break
    else:
        pytest.fail("no game doubled: the bot's cube changed?")
    data = analysis.analyse([game], 0)
    cube = data["cube"]
    doubles = [(s, a) for s, a in game.history if a == "double"]
    answers = [(s, a) for s, a in game.history if a in ("take", "drop", "beaver")]
    assert [(e["seat"], "double") for e in cube if e["action"] == "double"] == doubles
    assert [(e["seat"], e["action"]) for e in cube if e["action"] in ("take", "pass")] == [
        (s, "pass" if a == "drop" else "take") for s, a in answers
    ]
    checker_plays = sum(1 for _s, a in game.history if a.startswith("move:"))
    for e in cube:
        assert e["equity_loss"] >= 0 and 0 <= e["move"] <= checker_plays
        assert (e["equity_loss"] == 0) == (e["action"] == e["best"])
        assert e["action"] in ("double", "no_double", "take", "pass")
    every = data["moves"] + cube
    for seat in (0, 1):
        mine = [m["equity_loss"] for m in every if m["seat"] == seat]
        # XG's rating: per non-forced decision, checker plays and cube decisions alike
        assert data["rating"][seat] == pytest.approx(500 * sum(mine) / len(mine), abs=0.1)
        assert data["blunders"][seat] == sum(1 for x in mine if x > analysis.BLUNDER)
    assert any(m["seat"] == s for m in cube for s in (0, 1))


def test_the_rating_counts_cube_decisions() -> None:
    checker = [{"seat": 0, "equity_loss": 0.0}, {"seat": 0, "equity_loss": 0.1}]
    cube = [{"seat": 0, "equity_loss": 0.2}, {"seat": 1, "equity_loss": 0.0}]
    assert analysis.rating(checker, 0) == 25.0
    assert analysis.rating([*checker, *cube], 0) == pytest.approx(500 * 0.3 / 3, abs=0.1)
    assert analysis.rating([*checker, *cube], 1) == 0.0
