"""The levels' contract (docs/ENGINE_CONTRACT.md, "Bots"): LEVELS, choose(view, level),
an unknown level refused, the same view giving the same action, no level seeing another
seat's cards, and every level playing every variant to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.bots import courtpiece as cpbot
from game.engine import courtpiece as cp
from tests.bots.helpers import option_sets, play_hand


def test_levels_weakest_first() -> None:
    assert cpbot.LEVELS == ("easy", "medium", "hard")


@pytest.mark.parametrize("level", ["", "expert", "Medium", None, 2])
def test_unknown_level_is_refused(level: Any) -> None:
    view = cp.new_hand(cp.Rules("rung"), dealer=3, seed="lv").view(0)
    with pytest.raises(ValueError, match="level"):
        cpbot.choose(view, level)


def test_default_level_is_medium() -> None:
    hand = cp.new_hand(cp.Rules("rung"), dealer=3, seed="lv-default")
    hand = hand.apply("call:S") if "call:S" in hand.legal_actions() else hand
    view = hand.view(hand.to_move)
    assert cpbot.choose(view) == cpbot.choose(view, "medium")


def views_of(variant: str, seed: str, every: int = 5) -> list[dict[str, Any]]:
    """Views with a real choice met while the medium bot plays one seeded hand."""
    hand = cp.new_hand(cp.Rules(variant), dealer=1, seed=seed)
    out = []
    n = 0
    while not hand.is_over:
        seat = hand.to_move
        view = hand.view(seat)
        if len(view["legal_actions"]) > 1 and n % every == 0:
            out.append(view)
        n += 1
        hand = hand.apply(cpbot.choose(view, "medium"), seat)
    return out


@pytest.mark.parametrize("level", cpbot.LEVELS)
@pytest.mark.parametrize("variant", ["rung", "hukum", "hidden", "double_sar", "mendikot"])
def test_same_view_same_action(level: str, variant: str) -> None:
    for view in views_of(variant, f"det-{variant}"):
        first = cpbot.choose(view, level)
        assert first in view["legal_actions"]
        assert cpbot.choose(view, level) == first
        # A copy that is equal but not the same object: the bot keeps nothing between calls.
        assert cpbot.choose({**view}, level) == first


def swapped_twin(hand: cp.Hand, seat: int) -> cp.Hand | None:
    """The same hand with two cards of one suit swapped between the two seats other than
    ``seat`` and its partner... or between partner and an opponent: any two other seats,
    each still holding the card, neither card public nor face down. Replayed from the
    history, so it is a real hand; None when no such pair exists."""
    rules = hand.rules
    others = [s for s in range(4) if s != seat]
    held = hand.view(None)  # nothing private
    public = {held.get("thirteenth_card"), held.get("turned_card")}
    deal = [list(d) for d in hand.deal]
    played = {a[5:] for _, a in hand.history if a.startswith("play:")}
    hidden = {a[5:] for _, a in hand.history if a.startswith("hide:")}
    for i, x in enumerate(others):
        for y in others[i + 1 :]:
            for a in deal[x]:
                for b in deal[y]:
                    if a[1] != b[1] or a == b or {a, b} & (played | public | hidden):
                        continue
                    if deal[x].index(a) < 6 or deal[y].index(b) < 6:
                        continue  # the first five and the turn-up card stay put
                    twin = [list(d) for d in deal]
                    twin[x][twin[x].index(a)] = b
                    twin[y][twin[y].index(b)] = a
                    state = cp.new_hand(rules, dealer=hand.dealer, deal=twin)
                    for actor, action in hand.history:
                        state = state.apply(action, actor)
                    return state
    return None


@pytest.mark.parametrize("level", cpbot.LEVELS)
@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_no_level_sees_another_seats_cards(level: str, variant: str) -> None:
    """Swap two cards between two other seats: the seat's view is the same, and so is
    every level's action (a bot that peeked at the deal would see the difference)."""
    rng = random.Random(variant)
    checked = 0
    for k in range(3):
        hand = cp.new_hand(cp.Rules(variant), dealer=k, seed=f"peek-{variant}-{k}")
        steps = 0
        while not hand.is_over and checked < 3 * (k + 1):
            seat = hand.to_move
            view = hand.view(seat)
            if steps > 6 and len(view["legal_actions"]) > 1 and rng.random() < 0.3:
                twin = swapped_twin(hand, seat)
                if twin is not None:
                    assert twin.deal != hand.deal
                    assert twin.view(seat) == view
                    assert cpbot.choose(twin.view(seat), level) == cpbot.choose(view, level)
                    checked += 1
            hand = hand.apply(cpbot.choose(view, "medium"), seat)
            steps += 1
    assert checked >= 3


@pytest.mark.parametrize("level", cpbot.LEVELS)
@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_every_level_plays_every_variant_to_the_end(level: str, variant: str) -> None:
    """Four bots of the level play random deals of every option set to the end: every
    action legal (play_hand checks), every hand finished with a result."""
    sets = list(option_sets(variant))
    hands = 1 if level == "hard" else 4
    for i in range(max(hands, len(sets) if level != "hard" else hands)):
        rules = cp.Rules(variant, **sets[i % len(sets)])

        def bot(view: dict[str, Any]) -> str:
            return cpbot.choose(view, level)

        hand, _ = play_hand(rules, f"levels-{variant}-{level}-{i}", [bot] * 4, dealer=i % 4)
        assert hand.is_over and hand.result is not None


def test_easy_is_beatable_and_medium_is_not_easy() -> None:
    """Easy makes mistakes medium does not: on the same views they differ now and then,
    and only in card play (calls and bids are medium's)."""
    differ = 0
    total = 0
    for variant in ("rung", "single_sar", "mendikot"):
        for view in views_of(variant, f"easy-{variant}", every=1):
            e, m = cpbot.choose(view, "easy"), cpbot.choose(view, "medium")
            total += 1
            if e != m:
                differ += 1
                assert e.startswith("play:") and m.startswith("play:")
    assert 0.1 * total < differ < 0.5 * total
