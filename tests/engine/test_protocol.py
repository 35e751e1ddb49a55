"""One conformance test for every state type, through game.engine.protocol only.

cp.Hand, cp.Match, bg.Game and bg.Match are driven by nothing but the GameState surface
(to_move, legal_actions, apply(action, seat), is_over, result, view, history), as a
table, a bot or a lesson drives them. OpenSpiel's random_sim_test has the same shape.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from game.engine import IllegalAction, protocol
from game.engine import backgammon as bg
from game.engine import courtpiece as cp

Factory = Callable[[int], protocol.GameState]

FACTORIES: dict[str, Factory] = {
    "cp.Hand": lambda n: cp.new_hand(cp.Rules(variant="hidden"), dealer=n % 4, seed=f"h{n}"),
    "cp.Match": lambda n: cp.Match(cp.Rules(variant="single_sar"), seed=f"m{n}", target=2),
    "bg.Game": lambda n: bg.Game(seed=f"g{n}"),
    "bg.Match": lambda n: bg.Match(3, seed=f"bm{n}"),
}


def _seats(state: protocol.GameState) -> range:
    return range(4) if isinstance(state, (cp.Hand, cp.Match)) else range(2)


def _frozen(state: protocol.GameState) -> str:
    return json.dumps([state.view(s) for s in (*_seats(state), None)], sort_keys=True)


def _play_out(state: protocol.GameState, rng: random.Random) -> protocol.GameState:
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 20_000, "the game never ended"
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        assert legal, "legal actions are never empty while someone is to move"
        # A seat that is not to move is refused, and nothing changes.
        other = next(s for s in _seats(state) if s != seat)
        before = _frozen(state) if steps % 25 == 1 else None
        with pytest.raises(IllegalAction, match="not your turn"):
            state.apply(legal[0], seat=other)
        action = rng.choice(legal)
        new = state.apply(action, seat=seat)
        if before is not None:
            assert _frozen(state) == before, "apply changed the old state"
        assert new is not state
        state = new
        assert state.history, "history records what was applied"
    assert state.to_move is None and state.legal_actions() == []
    assert state.result is not None
    with pytest.raises(IllegalAction):
        state.apply("pass")
    return state


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_every_state_type_plays_to_the_end_through_the_protocol(name: str) -> None:
    for n in range(3):
        state = FACTORIES[name](n)
        assert isinstance(state, protocol.GameState)
        assert state.result is None and not state.is_over
        _play_out(state, random.Random(n))


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_states_are_immutable(name: str) -> None:
    state = FACTORIES[name](0)
    for attribute in ("to_move", "history", "result", "anything_new"):
        with pytest.raises(AttributeError):
            setattr(state, attribute, None)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_malformed_actions_are_refused_with_the_one_error(name: str) -> None:
    state = FACTORIES[name](1)
    before = _frozen(state)
    for bad in ("", "play:ZZ", "move:bar/99", "fly", "bid:99X"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert _frozen(state) == before


def test_the_two_engine_errors_are_the_one_protocol_error() -> None:
    assert cp.IllegalAction is IllegalAction
    assert issubclass(bg.IllegalMove, IllegalAction)
    assert issubclass(IllegalAction, ValueError)


VIEW_STATES: dict[str, Factory] = {
    **FACTORIES,
    **{
        f"cp.Match/{variant}": (
            lambda n, variant=variant: cp.Match(cp.Rules(variant=variant), seed=f"v{n}", target=1)
        )
        for variant in cp.VARIANTS
    },
}


@pytest.mark.parametrize("name", sorted(VIEW_STATES))
def test_views_built_together_are_each_seats_view_key_for_key(name: str) -> None:
    """``views`` (a table's every frame at once) shares what all seats see alike, and
    must still give each seat exactly ``view(seat)``, in the same key order: a frame's
    text is compared to catch repeats. The hidden-trump log (CP-HID-1: ``hide`` to all but
    its caller until turned up) is the part that differs by seat."""
    rng = random.Random(name)
    state = VIEW_STATES[name](0)
    seats = [None, *_seats(state)]
    steps = 0
    while not state.is_over:
        steps += 1
        together = state.views(seats)
        assert list(together) == seats
        for seat in seats:
            assert json.dumps(together[seat]) == json.dumps(state.view(seat)), (steps, seat)
        state = state.apply(rng.choice(state.legal_actions()))
    last = seats[-1]
    assert json.dumps(state.views([last])[last]) == json.dumps(state.view(last))
