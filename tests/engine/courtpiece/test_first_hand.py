"""``cp.Match(first_hand=(dealer, deal))``: a deal played again (issue #9). The first hand
is exactly the given cards and dealer with no toss; every later hand is dealt from the
seeds as usual; the fairness block says which hand was given."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import courtpiece as cp
from game.engine import fair

TOP = "first-hand-top"
CLIENTS = ["x", "y", "z", "w"]


def _play_hands(match: cp.Match, hands: int, seed: int = 2) -> cp.Match:
    rng = random.Random(seed)
    while len(match.hands) < hands and not match.is_over:
        match = match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("variant", sorted(cp.VARIANTS))
def test_the_first_hand_is_the_given_deal_and_dealer_without_a_toss(variant: str) -> None:
    deal = fair.deal("some other table's seed", ["a"], 7)
    m = cp.Match(cp.Rules(variant), seed=TOP, client_seeds=CLIENTS, chain=50,
                 first_hand=(2, deal))
    assert m.hand.deal == deal and m.hand.dealer == 2
    assert m.hand.first_chooser == 3 and m.to_move == 3
    assert m.toss == () and m.toss_winner is None
    assert m.view(None)["match"]["toss"] == []
    # Seat 3 is shown its own cards of that deal, and none of the others'.
    own = set(m.view(3)["hand"]["hand"])
    assert own and own <= set(deal[3])


def test_later_hands_are_dealt_from_the_chain_and_hand_0_is_listed_as_given() -> None:
    seeds = fair.chain(TOP, 50)
    deal = fair.deal("elsewhere", [], 0)
    m = cp.Match(cp.Rules("single_sar"), seed=TOP, client_seeds=CLIENTS, chain=50,
                 first_hand=(1, deal), target=3)
    assert m.view(0)["fairness"]["given"] == [0]
    m = _play_hands(m, 3)
    assert m.hands[0].deal == deal
    for k in (1, 2):
        assert m.hands[k].deal == fair.deal(seeds[k], CLIENTS, k)
    f = m.view(None)["fairness"]
    # The first seed dealt nothing but is still revealed: the later ones hang from it.
    assert f["server_seeds"] == seeds[:3] and fair.verify_chain(f["commitment"], seeds[:3])
    assert f["given"] == [0]
    text = json.dumps(m.view(None))
    assert all(s not in text for s in seeds[3:])


def test_an_ordinary_match_has_no_given_hands() -> None:
    m = cp.Match(cp.Rules("rung"), seed=TOP, client_seeds=CLIENTS, chain=50)
    assert "given" not in m.view(None)["fairness"] and m.toss_winner is not None


def test_a_redeal_of_the_given_hand_deals_fresh_cards_from_the_chain() -> None:
    # CP-RUNG-5a: a redeal is dealt again by the same dealer, from the next seed.
    seeds = fair.chain(TOP, 50)
    for n in range(200):
        deal = fair.deal(f"redeal-{n}", [], 0)
        m = cp.Match(cp.Rules("rung"), seed=TOP, client_seeds=CLIENTS, chain=50,
                     first_hand=(0, deal))
        if "redeal" in m.legal_actions():
            break
    else:
        pytest.fail("no deal among 200 allowed a redeal")
    m = m.apply("redeal")
    assert m.hands[0].deal == deal and m.hand.dealer == 0
    assert m.hand.deal == fair.deal(seeds[1], CLIENTS, 1)


@pytest.mark.parametrize(
    "first_hand",
    [(4, fair.deal("s", [], 0)), (0, [["AS"] * 13] * 4), (0, []), "nonsense", (0,)],
)
def test_a_bad_first_hand_is_refused(first_hand: object) -> None:
    with pytest.raises(ValueError):
        cp.Match(cp.Rules("rung"), seed=TOP, chain=50, first_hand=first_hand)  # type: ignore[arg-type]
