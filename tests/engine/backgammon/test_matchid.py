"""GNU Backgammon Match IDs (BG-14), checked against GNU Backgammon's own encoder
(PyPI ``gnubg``, the ``oracles`` extra: this fails rather than skips without it)."""

from __future__ import annotations

import random
from dataclasses import replace

import gnubg
import pytest

from game.engine import backgammon as bg
from game.engine.backgammon.matchid import CENTRED, MatchState


def gnubg_id(m: MatchState) -> str:
    owner = -1 if m.owner is None else m.owner
    ci = gnubg.cubeinfo(m.cube, owner, m.on_roll, m.length, m.score, int(m.crawford), 0)
    pi = gnubg.posinfo(m.turn, m.resigned, int(m.doubled), m.state, m.dice)
    return gnubg.matchid(ci, pi)


def without_jacoby_bit(match_id: str) -> MatchState:
    """gnubg's cubeinfo() sets its Jacoby flag (bit 66) in match play only, where the
    rule has no meaning; every other bit must agree."""
    return replace(MatchState.from_id(match_id), jacoby=False)


def test_bg_14_fresh_money_game_id() -> None:
    assert CENTRED == 3
    m = MatchState(state=0)
    assert m.to_id() == gnubg_id(m) == "MAAAAAAAAAAA"
    assert MatchState.from_id("MAAAAAAAAAAA") == m


def test_bg_14_random_match_states_agree_with_gnubg_both_ways() -> None:
    rng = random.Random(3)
    for _ in range(400):
        length = rng.choice([0, 1, 3, 5, 7, 11, 25])
        m = MatchState(
            cube=2 ** rng.randint(0, 6),
            owner=rng.choice([None, 0, 1]),
            on_roll=rng.randint(0, 1),
            crawford=bool(rng.randint(0, 1)) if length else False,
            state=rng.randint(0, 4),
            turn=rng.randint(0, 1),
            doubled=bool(rng.randint(0, 1)),
            resigned=rng.randint(0, 3),
            dice=rng.choice([(0, 0), (3, 1), (6, 6), (2, 5)]),
            length=length,
            score=(rng.randint(0, max(0, length - 1)), rng.randint(0, max(0, length - 1))),
        )
        theirs = gnubg_id(m)
        assert without_jacoby_bit(theirs) == m
        assert replace(m, jacoby=MatchState.from_id(theirs).jacoby).to_id() == theirs


@pytest.mark.parametrize("bad", ["", "MAAAAAAAAAA", "MAAAAAAAAAA!", "MAAAAAAAAAAAA"])
def test_bg_14_bad_match_ids_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        MatchState.from_id(bad)


def test_bg_14_values_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError):
        MatchState(cube=3).to_id()
    with pytest.raises(ValueError):
        MatchState(length=40000).to_id()


def test_bg_14_game_match_ids_follow_the_game_as_gnubg_would_write_them() -> None:
    """Cube turned, offered, Crawford game, dice on the board: every state a random match
    passes through encodes as GNU Backgammon encodes it."""
    rng = random.Random(9)
    seen_states = set()
    m = bg.Match(5, seed="match-id-check")
    while not m.is_over:
        g = m.game
        s = g.match_state()
        assert MatchState.from_id(g.match_id()) == without_jacoby_bit(gnubg_id(s))
        assert MatchState.from_id(g.match_id()) == s
        seen_states.add((s.doubled, s.owner is not None, s.crawford, s.dice != (0, 0)))
        acts = m.legal_actions()
        a = rng.choice(acts)
        if a.startswith("resign") or (a == "double" and rng.random() < 0.7):
            a = acts[0]
        m = m.apply(a)
    assert (True, False, False, False) in seen_states  # a double was offered
    assert any(owned for _d, owned, _c, _r in seen_states)  # a cube was taken
