"""The GNU Backgammon bot (game.bgbot): legal decisions, cube sense, and a crash in its
worker process costing one move, never the server (issue #10)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from game.backgammon import bot as bgbot
from game.engine import backgammon as bg

pytest.importorskip("gnubg")


@pytest.fixture(autouse=True)
def _fresh_pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


def _pos(mine: dict[int, int], theirs: dict[int, int]) -> bg.Position:
    return bg.Position.from_points(mine, theirs)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bot_plays_whole_games_with_legal_actions_only(level: str) -> None:
    for seed in ("bot-a", "bot-b"):
        game = bg.Game(bg.Rules(), seed=seed)
        sources = set()
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            decision = bgbot.decide(view, level)
            assert decision.action in view["legal_actions"]
            sources.add(decision.source)
            game = game.apply(decision.action, seat=seat)
        assert sources == {"gnubg"}


def test_bot_takes_the_best_move_gnubg_finds() -> None:
    # 6-5 from the start: gnubg's best play at 0-ply is the lover's leap, 24/13.
    game = bg.Game(bg.Rules(), dice=[(6, 5), (6, 5)])
    view = game.view(game.to_move)
    assert bgbot.decide(view, "easy").action == "move:24/13"


def test_bg_11_bot_doubles_a_strong_race_and_the_taker_drops_a_hopeless_one() -> None:
    ahead = _pos({6: 5, 5: 5, 4: 3, 3: 2}, {6: 5, 5: 4, 4: 2, 13: 4})
    game = bg.Game(bg.Rules(), dice=[(2, 1)], position=ahead, turn=0)
    view = game.view(0)
    assert "double" in view["legal_actions"]
    assert bgbot.decide(view, "easy").action == "double"
    doubled = game.apply("double")
    taker = doubled.view(1)
    assert bgbot.decide(taker, "easy").action == "drop"


def test_bg_11_bot_does_not_double_an_even_position_and_takes_it() -> None:
    game = bg.Game(bg.Rules(), dice=[(2, 1)], position=bg.Position.start(), turn=0)
    view = game.view(0)
    assert bgbot.decide(view, "easy").action == "roll"
    assert bgbot.decide(game.apply("double").view(1), "easy").action == "take"


def test_a_crashed_worker_costs_one_move_and_the_next_move_uses_a_fresh_one() -> None:
    game = bg.Game(bg.Rules(), seed="crash")
    view = game.view(game.to_move)
    with pytest.raises(bgbot.BotUnavailable):
        bgbot.call(os.abort)  # the worker dies the way a segfault would kill it
    assert bgbot.decide(view, "easy").source == "gnubg"


def test_the_fallback_is_legal_and_never_gives_the_game_away() -> None:
    assert bgbot.fallback(["roll", "double", "resign:1"]) == "roll"
    assert bgbot.fallback(["take", "drop"]) == "take"
    assert bgbot.fallback(["move:8/5 6/5", "move:13/10 6/5", "resign:1"]) == "move:8/5 6/5"


def test_the_bot_is_safe_to_call_from_a_thread_like_sync_to_async() -> None:
    game = bg.Game(bg.Rules(), seed="thread")
    view = game.view(game.to_move)
    out: list[bgbot.Decision] = []
    worker = threading.Thread(target=lambda: out.append(bgbot.decide(view, "medium")))
    worker.start()
    worker.join(30)
    assert out and out[0].source == "gnubg" and out[0].action in view["legal_actions"]


def test_a_bot_asked_out_of_turn_refuses() -> None:
    game = bg.Game(bg.Rules(), seed="turn")
    idle = 1 - game.to_move  # type: ignore[operator]
    with pytest.raises(ValueError):
        bgbot.decide(game.view(idle), "easy")
