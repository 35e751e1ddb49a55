"""Backgammon games and matches (bg.Game, bg.Match): opening roll, fair dice, cube,
resignation, results, Crawford/Jacoby/beaver/automatic doubles, views. Rule IDs from
docs/RULES.md (the BG- rules)."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import backgammon as bg
from game.engine import fair
from tests.engine.backgammon.helpers import play_randomly, pos

SECRET = "server-seed-never-shown-early-7f3a"


# --- BG-2 opening roll ----------------------------------------------------------------
def test_bg_2_higher_die_moves_first_with_both_numbers() -> None:
    g = bg.Game(dice=[(3, 5)])
    assert g.opening == ((3, 5),)
    assert g.to_move == 1 and g.dice == (3, 5)
    assert all(a.startswith(("move:", "resign:")) for a in g.legal_actions())
    assert "double" not in g.legal_actions() and "roll" not in g.legal_actions()


def test_bg_2_equal_dice_are_thrown_again() -> None:
    g = bg.Game(dice=[(4, 4), (2, 2), (6, 1)])
    assert g.opening == ((4, 4), (2, 2), (6, 1))
    assert g.to_move == 0 and g.dice == (6, 1) and g.cube == 1


@pytest.mark.parametrize(("limit", "cube"), [(1, 2), (2, 4), (3, 4)])
def test_bg_2_automatic_doubles_house_rule(limit: int, cube: int) -> None:
    g = bg.Game(bg.Rules(auto_doubles=limit), dice=[(4, 4), (3, 3), (2, 6)])
    assert g.cube == cube and g.owner is None  # the cube stays in the middle


# --- BG-12 fair dice --------------------------------------------------------------------
def test_bg_12_dice_are_the_fair_recipe_in_order() -> None:
    g = bg.Game(seed=SECRET, client_seeds=("alice", "bob"))
    rng = random.Random(1)
    g = play_randomly(g, rng)
    throws = [*g.opening, *(d for _s, d in g.rolls[1:])]
    n_opening = len(g.opening)
    assert g.rolls[0][1] == g.opening[-1]
    for n, d in enumerate(throws):
        assert fair.dice(SECRET, ["alice", "bob"], n) == d, n
    assert n_opening >= 1
    assert g.throws_used == len(throws)  # every throw drawn is on the record, none more


def test_bg_12_view_hides_the_seed_until_the_game_is_over() -> None:
    g = bg.Game(seed=SECRET, client_seeds=("alice",))
    for seat in (0, 1, None):
        text = json.dumps(g.view(seat))
        assert SECRET not in text
        assert g.view(seat)["fairness"]["commitment"] == fair.commitment(SECRET)
    over = play_randomly(g, random.Random(2))
    assert over.view(0)["fairness"]["server_seed"] == SECRET
    assert fair.verify(over.view(None)["fairness"]["server_seed"], fair.commitment(SECRET))


def test_views_show_the_whole_board_but_no_future_throw() -> None:
    g = bg.Game(seed=SECRET)
    g = g.apply(g.legal_actions()[0])  # the opening move; now the other seat must roll
    assert g.phase == "roll"
    nxt = fair.dice(SECRET, [], len(g.opening))  # the throw that "roll" will produce
    v0, v1 = g.view(0), g.view(1)
    assert v0["dice"] is None and v1["dice"] is None
    assert v0["position_id"] == v1["position_id"]
    assert sum(abs(x) for x in v0["board"]["points"]) == 30  # both sides' checkers
    assert v0["board"]["points"] == [-x for x in reversed(v1["board"]["points"])]
    after = g.apply("roll")
    assert after.dice == nxt or after.rolls[-1][1] == nxt
    assert g.view(g.to_move)["legal_actions"] == g.legal_actions()
    assert g.view(1 - g.to_move)["legal_actions"] == []  # type: ignore[operator]
    with pytest.raises(ValueError):
        g.view(2)


# --- BG-8: a roll with no legal play ----------------------------------------------------
def test_bg_8_no_legal_play_loses_the_turn_by_itself() -> None:
    closed = pos({25: 1, 13: 14}, dict.fromkeys(range(19, 25), 2) | {10: 3})
    g = bg.Game(dice=[(6, 5)], position=closed, turn=0).apply("roll")
    assert g.to_move == 1 and g.phase == "roll" and g.dice is None
    assert g.history == ((0, "roll"),) and g.rolls == ((0, (6, 5)),)
    assert g.pos == closed.swapped()


# --- BG-10 results ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("theirs", "kind", "points"),
    [
        ({20: 14}, "single", 1),  # the loser has borne one off
        ({20: 15}, "gammon", 2),  # none off
        ({20: 14, 3: 1}, "backgammon", 3),  # none off, one in the winner's home board
        ({20: 14, 25: 1}, "backgammon", 3),  # none off, one on the bar
        ({20: 14, 7: 1}, "gammon", 2),  # just outside the winner's home board
    ],
)
def test_bg_10_single_gammon_backgammon(theirs: dict[int, int], kind: str, points: int) -> None:
    g = bg.Game(dice=[(6, 5)], position=pos({2: 1, 1: 1}, theirs), turn=0)
    g = g.apply("roll").apply("move:2/off 1/off")
    assert g.is_over and g.to_move is None and g.legal_actions() == []
    assert g.result == bg.Result(0, kind, "bearoff", 1, points)
    assert g.view(0)["board"]["off"][0] == 15 and g.view(1)["board"]["off"][1] == 15


def test_bg_10_result_is_multiplied_by_the_cube() -> None:
    g = bg.Game(dice=[(6, 5)], position=pos({2: 1, 1: 1}, {20: 15}), turn=0)
    g = g.apply("double").apply("take").apply("roll").apply("move:2/off 1/off")
    assert g.result == bg.Result(0, "gammon", "bearoff", 2, 4)


# --- BG-11 cube ---------------------------------------------------------------------------
def _on_roll(seat: int = 0, rules: bg.Rules | None = None, **kw: object) -> bg.Game:
    return bg.Game(rules, dice=[(3, 1)] * 40, position=bg.Position.start(), turn=seat, **kw)  # type: ignore[arg-type]


def test_bg_11_take_doubles_and_hands_over_the_cube() -> None:
    g = _on_roll(0).apply("double")
    assert g.to_move == 1 and g.legal_actions() == ["take", "drop"]
    g = g.apply("take")
    assert (g.cube, g.owner, g.to_move, g.phase) == (2, 1, 0, "roll")
    assert "double" not in g.legal_actions()  # only the owner may redouble
    with pytest.raises(bg.IllegalMove, match="owner"):
        g.apply("double")
    g = g.apply("roll")
    g = g.apply(g.legal_actions()[0])
    assert g.to_move == 1 and "double" in g.legal_actions()  # the owner redoubles
    g = g.apply("double").apply("take")
    assert (g.cube, g.owner) == (4, 0)


def test_bg_11_drop_loses_the_value_before_the_double() -> None:
    g = _on_roll(0).apply("double").apply("take").apply("roll")
    g = g.apply(g.legal_actions()[0]).apply("double").apply("drop")
    assert g.result == bg.Result(1, "single", "drop", 2, 2)


def test_bg_11_beaver_option() -> None:
    assert "beaver" not in _on_roll(0).apply("double").legal_actions()
    with pytest.raises(bg.IllegalMove):
        _on_roll(0).apply("double").apply("beaver")
    g = _on_roll(0, bg.Rules(beaver=True)).apply("double")
    assert g.legal_actions() == ["take", "drop", "beaver"]
    g = g.apply("beaver")
    assert (g.cube, g.owner, g.to_move, g.phase) == (4, 1, 0, "roll")


def test_bg_11_jacoby_gammons_count_only_after_the_cube_is_turned() -> None:
    rules = bg.Rules(jacoby=True)
    g = _on_roll(0, rules).apply("resign:2").apply("accept")
    assert g.result == bg.Result(1, "gammon", "resign", 1, 1)  # a gammon, worth 1
    g = _on_roll(0, rules).apply("double").apply("take").apply("resign:3").apply("accept")
    assert g.result == bg.Result(1, "backgammon", "resign", 2, 6)
    g = _on_roll(0).apply("resign:2").apply("accept")  # without Jacoby
    assert g.result is not None and g.result.points == 2


def test_bg_11_crawford_game_has_no_doubling_and_comes_once() -> None:
    rng = random.Random(4)
    m = bg.Match(3, seed="crawford")
    crawford_games = set()
    while not m.is_over:
        g = m.game
        if g.crawford_game:
            crawford_games.add(len(m.games))
            assert "double" not in g.legal_actions()
            assert bg.MatchState.from_id(m.match_id()).crawford
        acts = [a for a in m.legal_actions() if not a.startswith("resign")]
        # double at every chance and always drop: each game is worth one point
        forced = "double" if "double" in acts else "drop" if "drop" in acts else None
        m = m.apply(forced or rng.choice(acts))
    assert len(crawford_games) == 1
    assert m.winner in (0, 1) and max(m.scores) >= 3
    first_at_two = next(i for i in range(len(m.games)) if max(_scores_after(m, i)) == 2)
    assert crawford_games == {first_at_two + 1}


def _scores_after(m: bg.Match, i: int) -> tuple[int, int]:
    s = [0, 0]
    for r in m.games[: i + 1]:
        s[r.winner] += r.points
    return s[0], s[1]


def test_bg_11_no_crawford_when_the_option_is_off() -> None:
    m = bg.Match(2, bg.Rules(crawford=False), seed="no-crawford")
    while not m.is_over:
        assert not m.game.crawford_game
        acts = m.legal_actions()
        m = m.apply("double" if "double" in acts else "drop" if "drop" in acts else acts[0])


# --- resignation --------------------------------------------------------------------------
def test_resign_accept_and_reject() -> None:
    g = _on_roll(1).apply("roll")
    dice = g.dice
    r = g.apply("resign:1")
    assert r.to_move == 0 and r.legal_actions() == ["accept", "reject"]
    back = r.apply("reject")
    assert back.phase == "move" and back.dice == dice and back.to_move == 1
    done = r.apply("accept")
    assert done.result == bg.Result(0, "single", "resign", 1, 1)
    with pytest.raises(bg.IllegalMove, match="resign:1"):
        g.apply("resign:4")


# --- BG-13 Tavla: no cube -----------------------------------------------------------------
def test_bg_13_tavla_style_without_the_cube() -> None:
    g = _on_roll(0, bg.Rules(cube=False))
    assert "double" not in g.legal_actions()
    with pytest.raises(bg.IllegalMove, match="without the cube"):
        g.apply("double")
    win = bg.Game(bg.Rules(cube=False), dice=[(6, 5)], position=pos({2: 1, 1: 1}, {20: 15}))
    win = win.apply("roll").apply("move:2/off 1/off")
    assert win.result is not None and (win.result.kind, win.result.points) == ("gammon", 2)


def test_bg_13_nackgammon_game() -> None:
    g = bg.Game(bg.Rules(start="nackgammon"), dice=[(2, 1)])
    assert g.pos == bg.Position.nackgammon()


# --- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube": False, "jacoby": True},
        {"start": "hypergammon"},
        {"auto_doubles": -1},
        {"beaver": "yes"},
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        bg.Rules(**kwargs)  # type: ignore[arg-type]


def test_money_options_are_refused_in_a_match_and_bad_lengths() -> None:
    with pytest.raises(ValueError, match="money"):
        bg.Match(5, bg.Rules(jacoby=True), seed="x")
    with pytest.raises(ValueError):
        bg.Match(0, seed="x")
    with pytest.raises(ValueError, match="exactly one"):
        bg.Game()


@pytest.mark.parametrize("action", ["take", "accept", "move:24/21 13/8", "dance", "roll:5", ""])
def test_illegal_actions_say_why_and_change_nothing(action: str) -> None:
    g = _on_roll(0)
    before = g.view(0)
    with pytest.raises(bg.IllegalMove):
        g.apply(action)
    assert g.view(0) == before


def test_an_illegal_move_is_refused_with_the_rule() -> None:
    g = bg.Game(dice=[(5, 3)])  # seat 1 moves first with 5-3
    with pytest.raises(bg.IllegalMove, match="both"):
        g.apply("move:8/3")
    with pytest.raises(bg.IllegalMove):
        g.apply(7)  # type: ignore[arg-type]


def test_the_dice_list_running_out_is_an_error() -> None:
    g = bg.Game(dice=[(2, 1)])
    g = g.apply(g.legal_actions()[0])
    with pytest.raises(bg.IllegalMove, match="run out"):
        g.apply("roll")


# --- complete games and matches -----------------------------------------------------------
def test_complete_money_games_with_the_cube_and_replay() -> None:
    rng = random.Random(5)
    kinds = set()
    for i in range(25):
        rules = bg.Rules(jacoby=i % 2 == 0, beaver=i % 3 == 0, auto_doubles=i % 3)
        start = bg.Game(rules, seed=f"money-{i}")
        g = play_randomly(start, rng, double_rate=0.03)
        r = g.result
        assert r is not None and g.is_over and g.to_move is None
        level = {"single": 1, "gammon": 2, "backgammon": 3}[r.kind]
        jacoby_single = rules.jacoby and g.owner is None
        assert r.points == r.cube * (1 if jacoby_single else level)
        kinds.add((r.how, r.kind))
        # State is derived from the log: replaying the history gives the same game.
        again = start
        for _seat, action in g.history:
            again = again.apply(action)
        assert again.view(0) == g.view(0)
        json.dumps(g.view(None))
    assert {"bearoff", "drop"} <= {how for how, _k in kinds}


@pytest.mark.parametrize("length", [1, 5, 7])
def test_complete_matches_with_the_cube(length: int) -> None:
    m = play_randomly(bg.Match(length, seed=f"match-{length}"), random.Random(length), 0.2)
    assert m.is_over and m.winner is not None
    assert m.scores[m.winner] >= length > m.scores[1 - m.winner]
    assert list(m.scores) == list(_scores_after(m, len(m.games) - 1))
    v = m.view(0)
    assert v["match"]["winner"] == m.winner and v["fairness"]["server_seed"] == f"match-{length}"
    with pytest.raises(bg.IllegalMove, match="over"):
        m.apply("roll")


def test_a_match_reveals_its_seed_only_at_the_end() -> None:
    m = bg.Match(3, seed=SECRET)
    rng = random.Random(6)
    while not m.is_over:
        assert SECRET not in json.dumps(m.view(0))
        acts = [a for a in m.legal_actions() if not a.startswith("resign")]
        m = m.apply(rng.choice(acts))
    assert m.view(1)["fairness"]["server_seed"] == SECRET


def test_the_plays_names_are_formatted_once_and_each_caller_gets_its_own_list() -> None:
    """Game.legal_actions keeps a moving game's names (a table asks several times a
    move): the same names as formatting the plays afresh, in a list each caller may
    change without changing the game's, and the right ones for every game (a game made
    from another by ``apply`` starts with the other's names, which its own plays
    replace)."""
    from game.engine.backgammon import game as game_module

    games = []
    g = bg.Game(seed="names")
    while len(games) < 6 and not g.is_over:
        if g.phase == "move":
            games.append(g)
        g = g.apply(g.legal_actions()[0])
    assert games
    for g in games:
        fresh = [f"move:{p}" for p in g.legal_plays()] + game_module.RESIGNS
        first = g.legal_actions()
        assert first == fresh
        first.append("spoiled")
        assert g.legal_actions() == fresh
    # Forgotten: the same games replayed, never asked before, format them again, the same.
    replayed, g = [], bg.Game(seed="names")
    for action in [a for _seat, a in games[-1].history]:
        if g.phase == "move":
            replayed.append(g)
        g = g.apply(action)
    replayed.append(g)
    assert [r.history for r in replayed] == [g.history for g in games]
    assert [r.legal_actions() for r in replayed] == [
        [f"move:{p}" for p in g.legal_plays()] + game_module.RESIGNS for g in games
    ]
