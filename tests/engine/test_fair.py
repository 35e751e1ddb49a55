"""game.engine.fair: commit-reveal deals and dice that a player can check themselves."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import pytest

from game.engine import fair


def _recipe() -> dict[str, object]:
    """The code printed in fair's docstring, run as a player would run it."""
    code = "\n".join(
        line[4:]
        for line in fair.__doc__.split("only, so a player can copy it):")[1]
        .split("``n`` is the counter")[0]
        .splitlines()
    )
    namespace: dict[str, object] = {}
    exec(compile(code, "recipe", "exec"), namespace)
    return namespace


def test_the_documented_recipe_reproduces_deals_and_dice() -> None:
    recipe = _recipe()
    for n in range(25):
        seeds = ["alice", f"bob-{n}"]
        assert recipe["deal"]("server-secret", seeds, n) == fair.deal("server-secret", seeds, n)  # type: ignore[operator]
        assert recipe["dice"]("server-secret", seeds, n) == fair.dice("server-secret", seeds, n)  # type: ignore[operator]


def test_deal_is_a_deterministic_partition_of_the_deck() -> None:
    deal = fair.deal("s", ["c"], 3)
    assert deal == fair.deal("s", ["c"], 3)
    assert [len(h) for h in deal] == [13] * 4
    assert sorted(c for h in deal for c in h) == sorted(fair.DECK)
    assert deal != fair.deal("s", ["c"], 4)
    assert deal != fair.deal("s", ["d"], 3)
    assert deal != fair.deal("t", ["c"], 3)


def test_commitment_is_sha256_and_verifies() -> None:
    assert fair.commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    assert fair.verify("abc", fair.commitment("abc"))
    assert not fair.verify("abd", fair.commitment("abc"))
    assert re.fullmatch(r"[0-9a-f]{64}", fair.commitment("x"))


def test_dice_are_fair_enough() -> None:
    counts = Counter(d for n in range(6000) for d in fair.dice("seed", [], n))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert 1750 < counts[face] < 2250  # 12,000 dice: expected 2,000 each


@pytest.mark.parametrize("count", [1, 4])
def test_draw_gives_distinct_cards(count: int) -> None:
    cards = fair.draw("seed", [], 0, count)
    assert len(set(cards)) == count and all(c in fair.DECK for c in cards)


def test_chain_links_each_seed_to_the_one_before_and_the_commitment() -> None:
    seeds = fair.chain("a secret top", 6)
    assert len(seeds) == 6 and seeds[-1] == "a secret top"
    committed = fair.commitment(seeds[0])
    assert fair.verify_chain(committed, seeds)
    for k in range(1, 6):
        assert fair.verify(seeds[k], seeds[k - 1])
    # A reveal out of order, or a seed not on the chain, fails the check.
    assert not fair.verify_chain(committed, seeds[1:])
    assert not fair.verify_chain(committed, [seeds[0], "forged"])
    with pytest.raises(ValueError):
        fair.chain("x", 0)
