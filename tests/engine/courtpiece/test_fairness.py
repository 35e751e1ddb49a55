"""The match view's fairness block (CP-2 deals from fair.deal; the hash chain of fair.py)."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import courtpiece as cp
from game.engine import fair


def _play_hands(match: cp.Match, hands: int, seed: int = 1) -> cp.Match:
    rng = random.Random(seed)
    while len(match.hands) < hands:
        match = match.apply(rng.choice(match.legal_actions()))
    return match


def test_chain_reveals_each_hands_seed_when_it_ends_and_never_the_next() -> None:
    m = cp.Match(cp.Rules(variant="single_sar"), seed="top secret", client_seeds=["a", "b"],
                 chain=40)
    seeds = fair.chain("top secret", 40)
    before = m.view(None)["fairness"]
    assert before["commitment"] == fair.commitment(seeds[0])
    assert before["server_seeds"] == [] and before["server_seed"] is None
    m = _play_hands(m, 3)
    for seat in (0, 1, 2, 3, None):
        f = m.view(seat)["fairness"]
        assert f["server_seeds"] == seeds[:3]
        assert fair.verify_chain(f["commitment"], f["server_seeds"])
        text = json.dumps(m.view(seat))
        assert all(s not in text for s in seeds[3:]), "a seed not yet used leaked"
    for k, hand in enumerate(m.hands):
        assert hand.deal == fair.deal(seeds[k], ["a", "b"], k)


def test_single_seed_is_shown_only_when_the_match_is_over() -> None:
    m = cp.Match(cp.Rules(variant="single_sar"), seed="one seed", target=1)
    assert "one seed" not in json.dumps(m.view(0))
    m = _play_hands(m, 1)
    assert m.is_over
    f = m.view(0)["fairness"]
    assert f["server_seed"] == "one seed" and f["commitment"] == fair.commitment("one seed")


@pytest.mark.parametrize("bad", [0, -1, True, "3"])
def test_chain_length_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(ValueError):
        cp.Match(cp.Rules(), seed="s", chain=bad)  # type: ignore[arg-type]
