"""Match-level Court Piece rules, driven through cp.Match: the toss (CP-11), the redeal's
new deal (CP-RUNG-5a), trump-caller succession (CP-RUNG-6), targets (CP-RUNG-7, CP-SS-5,
CP-HK-7), dealer rotation (CP-SS-1, CP-HK-8) and per-variant scoring across hands.

A Match shuffles from its seed, so these tests cannot pick deals; they play whole matches
with a deterministic policy (tests/engine/courtpiece/helpers.biased) and check every hand
transition against the rule, then check that each case of the rule actually occurred.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import RANKS, biased, finish_hand

RUNG = cp.Rules(variant="rung")


def rank(card: str) -> int:
    return 12 - RANKS.index(card[0])


def policy_for_hand(flip: bool) -> Callable[[Any], str]:
    """Help the first chooser's team (or, with flip, the other team) win tricks."""

    def choose(state: Any) -> str:
        return biased((state.first_chooser % 2) ^ int(flip))(state)

    return choose


def play_match(match: Any, hands: int, flip: Callable[[int], bool]) -> list[tuple[Any, Any]]:
    """Play up to ``hands`` hands; return (finished hand, next hand or None) pairs."""
    pairs = []
    for i in range(hands):
        if match.is_over:
            break
        match = finish_hand(match, policy_for_hand(flip(i)))
        pairs.append((match.hands[-1], None if match.is_over else match.hand))
    return pairs


# --- CP-11 the toss ---------------------------------------------------------------------------


def _toss_winner(rounds: list[dict[int, str]]) -> int:
    last = rounds[-1]
    best = max(rank(c) for c in last.values())
    top = [s for s, c in last.items() if rank(c) == best]
    assert len(top) == 1, "the toss ended on a tie"
    return top[0]


def _check_toss(rounds: list[dict[int, str]]) -> None:
    """Everyone draws first; after a tie only the tied highest draw again."""
    assert sorted(rounds[0]) == [0, 1, 2, 3]
    for before, after in pairwise(rounds):
        best = max(rank(c) for c in before.values())
        assert sorted(after) == sorted(s for s, c in before.items() if rank(c) == best)
        assert len(after) >= 2


def test_cp_11_highest_card_of_the_toss_calls_first() -> None:
    for i in range(12):
        match = cp.Match(RUNG, seed=f"toss-{i}")
        _check_toss(match.toss)
        winner = _toss_winner(match.toss)
        assert match.hand.first_chooser == winner
        assert match.hand.dealer == (winner - 1) % 4
        assert match.hand.to_move == winner


def test_cp_11_ties_among_the_highest_redraw() -> None:
    tied = next(m for m in (cp.Match(RUNG, seed=f"tie-{i}") for i in range(200)) if len(m.toss) > 1)
    _check_toss(tied.toss)
    assert tied.hand.first_chooser == _toss_winner(tied.toss)


def test_cp_11_hukum_toss_picks_the_first_dealer() -> None:
    for i in range(8):
        match = cp.Match(cp.Rules(variant="hukum"), seed=f"toss-{i}")
        winner = _toss_winner(match.toss)
        assert match.hand.dealer == winner
        assert match.hand.to_move == (winner + 1) % 4  # bidding starts after the dealer


# --- CP-RUNG-5a redeal: the same caller gets a new deal ---------------------------------------


def test_cp_rung_5a_redeal_same_caller_new_deal() -> None:
    match = next(
        m
        for m in (cp.Match(RUNG, seed=f"weak-{i}") for i in range(300))
        if "redeal" in m.hand.legal_actions()
    )
    before = match.hand
    after = match.apply("redeal")
    assert not after.is_over
    assert after.scores == (0, 0)
    assert after.hand.first_chooser == before.first_chooser
    assert after.hand.dealer == before.dealer
    assert after.hand.phase == "call"
    assert after.hand.deal != before.deal


# --- CP-RUNG-6 who calls next -----------------------------------------------------------------


def _expected_next_caller(hand: Any) -> tuple[int, str]:
    caller = hand.caller
    calling_team = caller % 2
    if hand.result.tricks[calling_team] == 13:
        return (caller + 2) % 4, "all13"
    if hand.result.winner == calling_team:
        return caller, "won"
    return (caller + 1) % 4, "lost"


def test_cp_rung_6_trump_caller_succession() -> None:
    """CP-RUNG-6: calling team wins → same caller; loses → the seat after the caller
    (interpretation); takes all 13 → the caller's partner. Checked on every hand of three
    matches; both the won and the lost case must occur."""
    seen: set[str] = set()
    for seed in range(3):
        match = cp.Match(RUNG, seed=f"succession-{seed}", target=10_000)
        for hand, nxt in play_match(match, 12, flip=lambda i: i % 3 == 2):
            assert nxt is not None
            if hand.result.kind == "redeal":
                continue
            expected, case = _expected_next_caller(hand)
            seen.add(case)
            assert nxt.first_chooser == expected, (case, hand.result.kind)
            assert nxt.dealer == (expected - 1) % 4
    assert {"won", "lost"} <= seen


def test_cp_rung_6_all_thirteen_passes_the_call_to_the_partner() -> None:
    """CP-RUNG-6: after a court the caller's partner calls. Court is rare in play, so
    first hands of many seeded matches are played until one is a court."""
    for i in range(1500):
        match = cp.Match(RUNG, seed=f"court-{i}", target=10_000)
        if "redeal" in match.hand.legal_actions():
            continue
        match = finish_hand(match, policy_for_hand(flip=False))
        hand = match.hands[-1]
        if hand.result.kind == "court":
            break
    else:
        pytest.fail("no court in 1500 first hands")
    assert match.hand.first_chooser == (hand.caller + 2) % 4
    assert match.hand.dealer == (hand.caller + 1) % 4


# --- CP-RUNG-7 match to a points target -------------------------------------------------------


def _sum_points(match: Any) -> tuple[int, int]:
    s0 = sum(h.result.points[0] for h in match.hands)
    s1 = sum(h.result.points[1] for h in match.hands)
    return s0, s1


@pytest.mark.parametrize("target", [None, 7, 20])
def test_cp_rung_7_first_team_to_the_target_wins(target: int | None) -> None:
    goal = 52 if target is None else target
    match = cp.Match(RUNG, seed="rung-target", target=target)
    for i in range(60):
        if match.is_over:
            break
        assert max(match.scores) < goal
        match = finish_hand(match, policy_for_hand(flip=i % 2 == 1))
        assert tuple(match.scores) == _sum_points(match)
    assert match.is_over
    assert match.scores[match.winner] >= goal
    assert match.scores[1 - match.winner] < goal
    with pytest.raises(cp.IllegalAction):
        match.apply(match.hand.legal_actions()[0] if match.hand.legal_actions() else "pass")


def test_cp_rung_7_bad_target() -> None:
    for bad in (0, -5, "52"):
        with pytest.raises(ValueError):
            cp.Match(RUNG, seed="x", target=bad)


# --- CP-SS-1 the deal passes on one seat each hand --------------------------------------------


@pytest.mark.parametrize("variant", ["single_sar", "hidden", "double_sar"])
def test_cp_ss_1_deal_passes_on_one_seat_each_hand(variant: str) -> None:
    match = cp.Match(cp.Rules(variant=variant), seed=f"rotation-{variant}")
    assert match.hand.first_chooser == _toss_winner(match.toss)
    for hand, nxt in play_match(match, 8, flip=lambda i: i % 2 == 1):
        assert nxt is not None
        assert nxt.dealer == (hand.dealer + 1) % 4
        assert nxt.first_chooser == (nxt.dealer + 1) % 4
        assert nxt.to_move == nxt.first_chooser


# --- CP-SS-5 (and CP-BR-2, CP-MK-2, CP-HK-9): one point a hand, first to 10 hands -------------


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("single_sar", {}),
        ("hidden", {}),
        ("double_sar", {}),
        ("be_ranga", {}),
        ("mendikot", {}),
        ("hukum", {"bidding": False}),
    ],
)
def test_cp_ss_5_hands_won_first_to_ten(variant: str, options: dict[str, Any]) -> None:
    match = cp.Match(cp.Rules(variant=variant, **options), seed=f"ten-{variant}")
    for i in range(40):
        if match.is_over:
            break
        assert max(match.scores) < 10
        match = finish_hand(match, policy_for_hand(flip=i % 3 == 0))
        wins = [h.result.winner for h in match.hands]
        assert tuple(match.scores) == (wins.count(0), wins.count(1))
        assert all(sum(h.result.points) == 1 for h in match.hands)
    assert match.is_over
    assert match.scores[match.winner] == 10
    assert match.scores[1 - match.winner] < 10


def test_cp_ss_5_target_is_a_table_option() -> None:
    match = cp.Match(cp.Rules(variant="single_sar"), seed="three", target=3)
    for _ in range(10):
        if match.is_over:
            break
        match = finish_hand(match, policy_for_hand(flip=False))
    assert match.is_over
    assert max(match.scores) == 3
    assert len(match.hands) <= 5


# --- CP-HK-7 one difference; 52 behind loses --------------------------------------------------


def test_cp_hk_7_the_team_52_behind_loses() -> None:
    match = cp.Match(cp.Rules(variant="hukum"), seed="hukum-difference")
    steps = 0
    while not match.is_over and steps < 80:
        s0, s1 = match.scores
        assert abs(s0 - s1) < 52
        match = finish_hand(match, lambda state: biased(0)(state))
        steps += 1
        totals = (
            sum(h.result.points[0] for h in match.hands),
            sum(h.result.points[1] for h in match.hands),
        )
        assert tuple(match.scores) == totals
    assert match.is_over
    s0, s1 = match.scores
    assert abs(s0 - s1) >= 52
    assert match.winner == (0 if s0 > s1 else 1)


def test_cp_hk_7_only_the_bidding_team_score_changes() -> None:
    match = cp.Match(cp.Rules(variant="hukum"), seed="hukum-scores", target=10_000)
    match = finish_hand(match, biased(0))
    hand = match.hands[-1]
    bidder_team = hand.result.contract[1] % 2
    assert hand.result.points[1 - bidder_team] == 0


# --- CP-HK-8 the losing team deals ------------------------------------------------------------


@pytest.mark.parametrize("bidding", [True, False])
def test_cp_hk_8_next_dealer(bidding: bool) -> None:
    """CP-HK-8: the dealer's team lost → the same dealer; otherwise the next player.
    (The losing team: the bidding team if it failed, else the other team.)"""
    seen: set[str] = set()
    match = cp.Match(cp.Rules(variant="hukum", bidding=bidding), seed="hukum-dealer", target=10_000)
    for hand, nxt in play_match(match, 16, flip=lambda i: i % 3 == 1):
        assert nxt is not None
        if bidding:
            bidder_team = hand.result.contract[1] % 2
            losers = bidder_team if hand.result.kind == "set" else 1 - bidder_team
        else:
            losers = 1 - hand.result.winner
        if hand.dealer % 2 == losers:
            seen.add("dealer lost")
            assert nxt.dealer == hand.dealer
        else:
            seen.add("dealer won")
            assert nxt.dealer == (hand.dealer + 1) % 4
    assert seen == {"dealer lost", "dealer won"}
