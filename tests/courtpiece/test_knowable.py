"""The knowable verdict (issue 29): a seat's card judged from what that seat knew when
it played it, never from the other seats' cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.courtpiece import knowable, steps
from game.engine import courtpiece as cp
from tests.bots.helpers import play_hand, random_legal


def _hand(variant: str = "rung", seed: int = 11) -> Any:
    rng = random.Random(seed)
    for attempt in range(20):
        hand, _n = play_hand(cp.Rules(variant), f"kn-{seed}-{attempt}", [random_legal(rng)] * 4)
        if hand.trick_count >= 6:
            return hand
    raise AssertionError("no hand of six tricks")


def _replayed_with(hand: Any, deal: list[list[str]], upto: int) -> Any:
    state = cp.new_hand(hand.rules, hand.dealer, deal=deal)
    for seat, action in hand.history[:upto]:
        state = state.apply(action, seat)
    return state


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_verdict_never_sees_another_seats_cards(seed: int) -> None:
    """Swap two cards still hidden in two other seats' hands (same suit, so the play so
    far stays legal): the seat's view is the same, and so is the verdict."""
    hand = _hand(seed=seed)
    me = 0
    judged = 0
    for index, (actor, action, state) in enumerate(steps.states(hand)):
        if actor != me or not action.startswith("play:") or state.trick_count < 1:
            continue
        before = knowable.verdict(state, me, action[5:], samples=4)
        if before is None:
            continue
        deal = [list(cards) for cards in hand.deal]
        gone = {a[5:] for _s, a in hand.history[:index] if a.startswith("play:")}
        now = [set(deal[s]) - gone for s in range(4)]
        swapped = None
        for a, b in ((1, 2), (1, 3), (2, 3)):
            for x in sorted(now[a]):
                for y in sorted(now[b]):
                    if x[1] != y[1] or x == y:
                        continue
                    trial = [list(cards) for cards in deal]
                    trial[a][trial[a].index(x)] = y
                    trial[b][trial[b].index(y)] = x
                    try:
                        swapped = _replayed_with(hand, trial, index)
                    except ValueError:
                        continue
                    break
                if swapped is not None:
                    break
            if swapped is not None:
                break
        if swapped is None:
            continue
        assert swapped.deal != state.deal  # the other seats' cards really differ
        assert swapped.view(me) == state.view(me)
        assert knowable.verdict(swapped, me, action[5:], samples=4) == before
        judged += 1
        if judged == 2:
            break
    assert judged, "no position to swap in"


def test_verdicts_are_losses_from_the_legal_cards() -> None:
    hand = _hand(seed=21)
    found = knowable.verdicts([hand], 0, 1)
    assert found, "seat 1 made no judged choice"
    for entry in found:
        assert entry["seat"] == 1 and entry["loss"] >= 0 and entry["samples"] > 0
        assert entry["best"] >= entry["played"]
        assert bool(entry["better"]) == (entry["loss"] > 0)
        assert entry["card"] not in entry["better"]


def test_hands_the_sampler_cannot_judge_get_no_verdict() -> None:
    # CP-HID-1 trump face down; CP-DS-1 piles: double-dummy scores do not describe them
    for variant in ("hidden", "double_sar"):
        hand, _n = play_hand(cp.Rules(variant), "kn-u", [random_legal(random.Random(2))] * 4)
        assert knowable.verdicts([hand], 0, 0) == []
