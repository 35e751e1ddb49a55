"""bg.Game and bg.Match through the one protocol (game/engine/protocol.py): seat checks,
immutability of every state object, the step table that dispatches each action, and the
fairness block with and without a hash chain. BG-n are the rule IDs of docs/RULES.md."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from game.engine import IllegalAction, fair
from game.engine import backgammon as bg
from game.engine.backgammon import game as bg_game
from game.engine.protocol import NOT_YOUR_TURN, GameState
from tests.engine.backgammon.helpers import play_randomly, pos, random_action

SECRET = "top-of-the-chain-never-shown-early-91c4"


def _on_roll(seat: int = 0, rules: bg.Rules | None = None) -> bg.Game:
    """Seat ``seat`` to roll in the start position; every throw is 3-1."""
    return bg.Game(rules, dice=[(3, 1)] * 20, position=bg.Position.start(), turn=seat)


def _in_phase(phase: str, rules: bg.Rules | None = None) -> bg.Game:
    g = _on_roll(0, rules)
    if phase == "move":
        return g.apply("roll")
    if phase == "doubled":
        return g.apply("double")
    if phase == "resign":
        return g.apply("resign:2")
    assert phase == "roll"
    return g


# --- the protocol -----------------------------------------------------------------------
def test_game_and_match_are_game_states() -> None:
    g = bg.Game(seed="s")
    m = bg.Match(3, seed="s")
    for state in (g, m, g.apply(g.legal_actions()[0]), m.apply(m.legal_actions()[0])):
        assert isinstance(state, GameState)
        assert state.result is None and not state.is_over and state.to_move in (0, 1)
        json.dumps(state.view(None))


def test_history_is_seat_action_pairs_oldest_first_in_games_and_matches() -> None:
    rng = random.Random(11)
    m = bg.Match(3, seed="history")
    seats: list[int] = []
    while not m.is_over:
        assert m.to_move is not None
        seats.append(m.to_move)
        m = m.apply(random_action(m, rng, 0.2))
    assert [s for s, _a in m.history] == seats
    assert m.history == tuple((s, a) for _k, s, a in m.game_history)
    # game_history numbers the games; the current game's own history is its tail
    numbers = [k for k, _s, _a in m.game_history]
    assert numbers == sorted(numbers) and numbers[-1] == len(m.games) - 1
    last = [(s, a) for k, s, a in m.game_history if k == numbers[-1]]
    assert list(m.game.history) == last
    # replaying the history, with the seats, gives the same match
    again = bg.Match(3, seed="history")
    for seat, action in m.history:
        again = again.apply(action, seat)
    assert again.view(0) == m.view(0)
    result = again.result
    assert isinstance(result, bg.MatchResult)
    assert (result.winner, result.scores, result.games) == (m.winner, m.scores, m.games)


# --- seat checks --------------------------------------------------------------------------
@pytest.mark.parametrize("phase", ["roll", "move", "doubled", "resign"])
def test_a_seat_that_is_not_to_move_is_refused(phase: str) -> None:
    g = _in_phase(phase)
    assert g.to_move is not None
    other = 1 - g.to_move
    action = g.legal_actions()[0]
    before = g.view(None)
    with pytest.raises(IllegalAction, match=NOT_YOUR_TURN):
        g.apply(action, other)
    assert g.view(None) == before
    # the seat to move, or no seat at all (a lesson or a replay), may act
    assert g.apply(action, g.to_move).view(None) == g.apply(action).view(None)


def test_a_match_checks_the_seat_of_the_game_on_the_board() -> None:
    m = bg.Match(1, seed="seats")
    assert m.to_move is not None
    with pytest.raises(IllegalAction, match=NOT_YOUR_TURN):
        m.apply(m.legal_actions()[0], 1 - m.to_move)
    assert m.apply(m.legal_actions()[0], m.to_move).history[-1][0] == m.to_move
    over = play_randomly(m, random.Random(1))
    with pytest.raises(IllegalAction, match="over"):
        over.apply("roll", 0)


def test_a_finished_game_refuses_every_seat_saying_it_is_over() -> None:
    g = bg.Game(dice=[(6, 5)], position=pos({2: 1, 1: 1}, {20: 15}), turn=0)
    g = g.apply("roll").apply("move:2/off 1/off")
    for seat in (0, 1, None):
        with pytest.raises(bg.IllegalMove, match="over"):
            g.apply("roll", seat)


# --- immutability -------------------------------------------------------------------------
def test_a_position_refuses_writes_and_keeps_its_hash() -> None:
    p = bg.Position.start()
    h = hash(p)
    for name in ("mine", "theirs", "anything"):
        with pytest.raises(AttributeError):
            setattr(p, name, 0)
    with pytest.raises(AttributeError):
        del p.mine
    assert hash(p) == h and p == bg.Position.start()
    # a Position equals only a Position, not the tuple of its two ints
    assert p != (p.mine, p.theirs)
    assert (p == (p.mine, p.theirs)) is False
    assert {p: 1}[bg.Position.from_id(p.to_id())] == 1


@pytest.mark.parametrize(
    ("make", "fields"),
    [
        (lambda: bg.Game(seed="frozen"), bg_game.GAME_FIELDS),
        (lambda: bg.Match(3, seed="frozen"), bg_game.MATCH_FIELDS),
    ],
    ids=["Game", "Match"],
)
def test_games_and_matches_refuse_every_write(
    make: Callable[[], Any], fields: tuple[str, ...]
) -> None:
    state = make()
    before = state.view(0)
    for name in (*fields, "extra"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(state, name, None)
        if name != "extra":
            with pytest.raises(AttributeError, match="immutable"):
                delattr(state, name)
    assert state.view(0) == before


def test_apply_leaves_the_old_state_as_it_was() -> None:
    rng = random.Random(3)
    states: list[tuple[bg.Match, dict[str, Any]]] = []
    m = bg.Match(3, seed="old states")
    while not m.is_over:
        states.append((m, m.view(None)))
        m = m.apply(random_action(m, rng, 0.3))
    assert all(s.view(None) == v for s, v in states)
    assert all(type(s) is bg.Match and type(s.game) is bg.Game for s, _v in states)


# --- the step table -------------------------------------------------------------------------
# (phase, verb) -> (action sent, what the game looks like after it)
STEP_CASES: dict[tuple[str, str], tuple[str, Callable[[bg.Game], bool]]] = {
    ("roll", "roll"): ("roll", lambda g: g.phase == "move" and g.dice == (3, 1)),
    ("roll", "double"): ("double", lambda g: g.phase == "doubled" and g.to_move == 1),
    ("roll", "resign"): ("resign:3", lambda g: g.phase == "resign" and g.resign_level == 3),
    ("move", "move"): (
        "move:6/5 8/5",  # written in another order: the history keeps GNU's spelling
        lambda g: g.phase == "roll" and g.turn == 1 and g.history[-1] == (0, "move:8/5 6/5"),
    ),
    ("move", "resign"): ("resign:1", lambda g: g.phase == "resign" and g.dice == (3, 1)),
    ("doubled", "take"): ("take", lambda g: (g.phase, g.cube, g.owner) == ("roll", 2, 1)),
    ("doubled", "drop"): (
        "drop",
        lambda g: g.result == bg.Result(0, "single", "drop", 1, 1),
    ),
    ("doubled", "beaver"): ("beaver", lambda g: (g.cube, g.owner, g.to_move) == (4, 1, 0)),
    ("resign", "accept"): (
        "accept",
        lambda g: g.result == bg.Result(1, "gammon", "resign", 1, 2) and g.resign_level == 0,
    ),
    ("resign", "reject"): ("reject", lambda g: g.phase == "roll" and g.resign_level == 0),
}


def test_the_step_table_is_the_one_covered_here() -> None:
    assert set(bg_game.STEPS) == set(STEP_CASES)


@pytest.mark.parametrize(("phase", "verb"), sorted(STEP_CASES))
def test_each_action_runs_its_step(phase: str, verb: str) -> None:
    g = _in_phase(phase, bg.Rules(beaver=True))
    action, looks_right = STEP_CASES[phase, verb]
    seat = g.to_move
    after = g.apply(action)
    assert looks_right(after), after.view(None)
    assert after.history[-1][0] == seat and after.history[:-1] == g.history
    if verb != "move":
        assert after.history[-1][1] == action


@pytest.mark.parametrize("phase", ["roll", "move", "doubled", "resign"])
def test_every_verb_outside_its_phase_is_refused_saying_what_is_open(phase: str) -> None:
    g = _in_phase(phase, bg.Rules(beaver=True))
    for verb in ("roll", "move", "double", "take", "drop", "beaver", "resign", "accept"):
        if (phase, verb) in STEP_CASES:
            continue
        action = verb + {"resign": ":1", "move": ":24/21"}.get(verb, "")
        with pytest.raises(bg.IllegalMove, match=f"not possible now: seat {g.to_move} must"):
            g.apply(action)


@pytest.mark.parametrize("action", ["roll:1", "double:2", "take:now", "reject:x"])
def test_a_verb_without_argument_refuses_one(action: str) -> None:
    phase_of = {"roll": "roll", "double": "roll", "take": "doubled", "reject": "resign"}
    g = _in_phase(phase_of[action.partition(":")[0]])
    with pytest.raises(bg.IllegalMove, match="not possible now"):
        g.apply(action)


# --- BG-12 fairness with and without a hash chain ----------------------------------------
def _throws(game: bg.Game) -> list[tuple[int, int]]:
    """Every throw of a game in order: the opening throws, then one roll a turn."""
    return [*game.opening, *(d for _s, d in game.rolls[1:])]


def _play_match(m: bg.Match, rng: random.Random) -> tuple[bg.Match, list[bg.Game], list[Any]]:
    """Play to the end; return the match, every finished game and every view seen."""
    finished: list[bg.Game] = []
    views: list[Any] = [(m, [m.view(s) for s in (0, 1, None)])]
    while not m.is_over:
        action = random_action(m, rng, 0.2)
        nxt = m.apply(action)
        if len(nxt.games) > len(m.games):
            finished.append(m.game.apply(action))
        m = nxt
        views.append((m, [m.view(s) for s in (0, 1, None)]))
    return m, finished, views


def test_bg_12_chain_game_k_throws_from_the_kth_seed_from_zero() -> None:
    seeds = fair.chain(SECRET, 9)
    m = bg.Match(5, seed=SECRET, client_seeds=["ana", "ben"], chain=9)
    m, finished, _views = _play_match(m, random.Random(12))
    assert len(finished) == len(m.games) >= 3
    for k, game in enumerate(finished):
        for n, throw in enumerate(_throws(game)):
            assert fair.dice(seeds[k], ["ana", "ben"], n) == throw, (k, n)


def test_bg_12_chain_reveals_each_game_seed_when_it_ends_and_no_other() -> None:
    seeds = fair.chain(SECRET, 9)
    m = bg.Match(5, seed=SECRET, client_seeds=["ana"], chain=9)
    _m, _finished, views = _play_match(m, random.Random(13))
    for state, seat_views in views:
        done = len(state.games)
        for v in seat_views:
            block = v["fairness"]
            assert block == {
                "scheme": "chain",
                "commitment": fair.commitment(seeds[0]),
                "client_seeds": ["ana"],
                "game": done - 1 if state.is_over else done,
                "server_seeds": seeds[:done],
                "server_seed": None,
            }
            assert fair.verify_chain(block["commitment"], block["server_seeds"])
            text = json.dumps(v)
            for hidden in seeds[done:]:  # the top among them until the last game ends
                assert hidden not in text


def test_bg_12_without_a_chain_the_one_seed_shows_when_the_match_ends() -> None:
    m = bg.Match(3, seed=SECRET, client_seeds=["ana"])
    m, finished, views = _play_match(m, random.Random(14))
    for state, seat_views in views[:-1]:
        for v in seat_views:
            assert SECRET not in json.dumps(v)
            assert v["fairness"] == {
                "scheme": "single",
                "commitment": fair.commitment(SECRET),
                "client_seeds": ["ana"],
                "game": len(state.games),
                "server_seeds": [],
                "server_seed": None,
            }
    final = views[-1][1][0]["fairness"]
    assert final["server_seed"] == SECRET and final["server_seeds"] == [SECRET] * len(m.games)
    assert final["game"] == len(m.games) - 1
    # the n-th throw of the match, counted across its games, as before
    throws = [t for game in finished for t in _throws(game)]
    assert throws == [fair.dice(SECRET, ["ana"], n) for n in range(len(throws))]


def test_bg_12_a_money_game_shows_its_seed_at_its_end_in_the_same_block() -> None:
    g = bg.Game(seed=SECRET, client_seeds=("ana",))
    block = g.view(0)["fairness"]
    assert block["scheme"] == "single" and block["server_seeds"] == [] and block["game"] == 0
    assert SECRET not in json.dumps(g.view(None))
    over = play_randomly(g, random.Random(15))
    assert over.view(1)["fairness"]["server_seeds"] == [SECRET]
    assert over.view(1)["fairness"]["server_seed"] == SECRET


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"seed": SECRET, "chain": 4}, "2 \\* length - 1"),  # a match to 3 may take 5
        ({"seed": SECRET, "chain": True}, "whole number"),
        ({"seed": SECRET, "chain": "5"}, "whole number"),
        ({"dice": [(3, 1)] * 9, "chain": 5}, "needs seed"),
        ({"seed": SECRET, "dice": [(3, 1)], "chain": 5}, "no list of dice"),
    ],
)
def test_a_bad_chain_is_refused(kwargs: dict[str, Any], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        bg.Match(3, **kwargs)


def test_a_chain_long_enough_for_the_longest_match_is_accepted() -> None:
    m = bg.Match(3, seed=SECRET, chain=5)
    assert m.view(None)["fairness"]["commitment"] == fair.commitment(fair.chain(SECRET, 5)[0])
    assert m.chain == 5 and m.apply(m.legal_actions()[0]).chain == 5
    assert bg.Match(3, seed=SECRET).chain is None
