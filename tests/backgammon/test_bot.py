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


@pytest.mark.parametrize("level", bgbot.LEVELS)
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
    assert bgbot.decide(view, "intermediate").action == "move:24/13"


def test_bg_11_bot_doubles_a_strong_race_and_the_taker_drops_a_hopeless_one() -> None:
    ahead = _pos({6: 5, 5: 5, 4: 3, 3: 2}, {6: 5, 5: 4, 4: 2, 13: 4})
    game = bg.Game(bg.Rules(), dice=[(2, 1)], position=ahead, turn=0)
    view = game.view(0)
    assert "double" in view["legal_actions"]
    assert bgbot.decide(view, "intermediate").action == "double"
    doubled = game.apply("double")
    taker = doubled.view(1)
    assert bgbot.decide(taker, "intermediate").action == "drop"


def test_bg_11_bot_does_not_double_an_even_position_and_takes_it() -> None:
    game = bg.Game(bg.Rules(), dice=[(2, 1)], position=bg.Position.start(), turn=0)
    view = game.view(0)
    assert bgbot.decide(view, "intermediate").action == "roll"
    assert bgbot.decide(game.apply("double").view(1), "intermediate").action == "take"


def test_a_crashed_worker_costs_one_move_and_the_next_move_uses_a_fresh_one() -> None:
    game = bg.Game(bg.Rules(), seed="crash")
    view = game.view(game.to_move)
    with pytest.raises(bgbot.BotUnavailable):
        bgbot.call(os.abort)  # the worker dies the way a segfault would kill it
    assert bgbot.decide(view, "intermediate").source == "gnubg"


def test_the_fallback_is_legal_and_never_gives_the_game_away() -> None:
    assert bgbot.fallback(["roll", "double", "resign:1"]) == "roll"
    assert bgbot.fallback(["take", "drop"]) == "take"
    assert bgbot.fallback(["move:8/5 6/5", "move:13/10 6/5", "resign:1"]) == "move:8/5 6/5"


def test_the_bot_is_safe_to_call_from_a_thread_like_sync_to_async() -> None:
    game = bg.Game(bg.Rules(), seed="thread")
    view = game.view(game.to_move)
    out: list[bgbot.Decision] = []
    worker = threading.Thread(target=lambda: out.append(bgbot.decide(view, "expert")))
    worker.start()
    worker.join(30)
    assert out and out[0].source == "gnubg" and out[0].action in view["legal_actions"]


def test_a_bot_asked_out_of_turn_refuses() -> None:
    game = bg.Game(bg.Rules(), seed="turn")
    idle = 1 - game.to_move  # type: ignore[operator]
    with pytest.raises(ValueError):
        bgbot.decide(game.view(idle), "intermediate")


# ---------------------------------------------------------------------------- levels
def _decisions(seed: str, plays: int) -> list[dict[str, object]]:
    """The views of the first ``plays`` checker plays with a choice in a game played by
    intermediate against itself."""
    game = bg.Game(bg.Rules(cube=False), seed=seed)
    views: list[dict[str, object]] = []
    while not game.is_over and len(views) < plays:
        seat = game.to_move
        view = game.view(seat)
        if len([a for a in view["legal_actions"] if a.startswith("move:")]) > 1:
            views.append(view)
        game = game.apply(bgbot.decide(view, "intermediate").action, seat=seat)
    return views


def test_the_levels_and_the_names_stored_before_them() -> None:
    assert bgbot.LEVELS == ("beginner", "intermediate", "expert")
    assert bgbot.PLIES == {"beginner": 0, "intermediate": 0, "expert": 2}
    # Tables stored with the old names keep their bot: "easy" was 0-ply, "medium" 1-ply.
    assert bgbot.level_of("easy") == "intermediate"
    assert bgbot.level_of("medium") == "expert"
    for bad in ("hard", "", None, 2, "Expert"):
        with pytest.raises(ValueError, match="bot_level"):
            bgbot.level_of(bad)
    view = bg.Game(bg.Rules(), seed="levels").view(0)
    with pytest.raises(ValueError, match="bot_level"):
        bgbot.decide(view, "grandmaster")
    old = bgbot.decide(view, "easy")  # an old table's level plays as intermediate
    assert old == bgbot.decide(view, "intermediate")


def test_the_beginners_noise_comes_from_the_position_so_it_is_deterministic() -> None:
    ids = ["4HPwATDgc/ABMA", "sGfwATDgc/ABMA", "4HPwATDgc/ABMB"]
    draws = [bgbot.noise(p, "beginner") for p in ids]
    assert draws == [bgbot.noise(p, "beginner") for p in ids]  # the same every time
    assert len(set(draws)) == len(draws)  # and different for different positions
    assert bgbot.noise(ids[0], "beginner", "cube") != draws[0]
    assert all(bgbot.noise(p, level) == 0.0 for p in ids for level in ("intermediate", "expert"))


def test_the_beginner_errs_where_intermediate_does_not_and_always_the_same_way() -> None:
    views = _decisions("beginner", 30)
    beginner = [bgbot.decide(v, "beginner").action for v in views]
    intermediate = [bgbot.decide(v, "intermediate").action for v in views]
    assert beginner == [bgbot.decide(v, "beginner").action for v in views]
    differ = sum(b != i for b, i in zip(beginner, intermediate, strict=True))
    # Some plays differ (the noise decides between plays close in equity), not all.
    assert 0 < differ < len(views), differ


def test_the_expert_plays_no_worse_than_intermediate_at_two_ply() -> None:
    views = _decisions("expert", 16)
    differ = 0
    for view in views:
        expert = bgbot.decide(view, "expert").action
        intermediate = bgbot.decide(view, "intermediate").action
        assert expert in view["legal_actions"]
        if expert == intermediate:
            continue
        differ += 1
        pos = bg.Position.from_id(str(view["position_id"]))
        dice = (int(view["dice"][0]), int(view["dice"][1]))  # type: ignore[index]
        after = {f"move:{p}": p.after.to_id() for p in bg.legal_plays(pos, dice)}
        mine, other = bgbot.equities_at([after[expert], after[intermediate]], 2)
        assert mine <= other + 1e-9  # the opponent's equity after the expert's play
    assert differ  # 2-ply disagrees with 0-ply somewhere in sixteen plays
