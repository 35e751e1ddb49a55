"""Hypothesis properties of the Court Piece engine (STYLE.md: invariants as properties).

Random seeds, dealers and choice sequences drive whole hands and matches; after every
action: the 52 cards are conserved (hands + played + face-down card, disjoint), trick
counts add up, and match scores are the sum of the hands' points.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import courtpiece as cp
from game.engine.courtpiece.cards import FULL_DECK

RULES = [
    cp.Rules(variant="rung"),
    cp.Rules(variant="rung", court="first7"),
    cp.Rules(variant="single_sar"),
    cp.Rules(variant="hidden"),
    cp.Rules(variant="double_sar"),
    cp.Rules(variant="double_sar", ace_rule=True),
    cp.Rules(variant="be_ranga"),
    cp.Rules(variant="mendikot"),
    cp.Rules(variant="hukum"),
    cp.Rules(variant="hukum", bidding=False, kot_both_sides=True),
]

rules_strategy = st.sampled_from(RULES)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=60, max_size=60)


def check_invariants(hand: cp.Hand) -> None:
    held = 0
    total = 0
    for mask in hand.hands:
        assert held & mask == 0  # no card in two hands
        held |= mask
        total += mask.bit_count()
    face_down = 0
    if hand.hidden_card >= 0 and not hand.revealed:
        face_down = 1 << hand.hidden_card
        assert held & face_down == 0
    played = hand.played
    assert played & held == 0
    assert held | face_down | played == FULL_DECK  # CP-2: 52 cards, conserved
    assert played.bit_count() == 4 * hand.trick_count + len(hand.trick)
    assert total + (1 if face_down else 0) == 52 - played.bit_count()
    won = sum(hand.won)
    if hand.rules.variant == "double_sar":
        assert won + hand.pile == hand.trick_count  # CP-DS-1: piles are only moved
    else:
        assert won == hand.trick_count
    assert len(hand.completed_tricks()) == hand.trick_count <= 13


def drive(hand: cp.Hand, picks: list[int]) -> cp.Hand:
    for pick in picks:
        if hand.is_over:
            break
        legal = hand.legal_actions()
        if hand.timeout_legal and pick % 7 == 0:
            hand = hand.apply("timeout")
        else:
            hand = hand.apply(legal[pick % len(legal)])
        check_invariants(hand)
    return hand


@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, seed=st.text(min_size=1, max_size=12), dealer=st.integers(0, 3),
       picks=choices)
def test_cards_and_tricks_are_conserved(
    rules: cp.Rules, seed: str, dealer: int, picks: list[int]
) -> None:
    hand = cp.new_hand(rules, dealer=dealer, seed=seed)
    check_invariants(hand)
    hand = drive(hand, picks)
    if hand.is_over and hand.result.kind != "redeal":
        assert sum(hand.result.tricks) == sum(hand.won)
        assert hand.result.tricks == hand.won


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, seed=st.text(min_size=1, max_size=12),
       picks=st.lists(st.integers(0, 10_000), min_size=400, max_size=400))
def test_match_scores_are_the_sum_of_hand_points(
    rules: cp.Rules, seed: str, picks: list[int]
) -> None:
    match = cp.Match(rules, seed=seed)
    for pick in picks:
        if match.is_over:
            break
        legal = match.legal_actions()
        match = match.apply(legal[pick % len(legal)])
        assert match.scores == (
            sum(h.result.points[0] for h in match.hands),
            sum(h.result.points[1] for h in match.hands),
        )
    # The match is a replay of its log (STYLE.md: state is derived from a log).
    replay = cp.Match(rules, seed=seed)
    for _seat, action in match.history:
        replay = replay.apply(action)
    assert replay.scores == match.scores
    assert replay.hand == match.hand
    assert len(replay.hands) == len(match.hands)


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.text(min_size=1, max_size=12), picks=choices)
def test_an_illegal_action_changes_nothing(rules: cp.Rules, seed: str, picks: list[int]) -> None:
    hand = drive(cp.new_hand(rules, dealer=0, seed=seed), picks[:20])
    if hand.is_over:
        return
    legal = set(hand.legal_actions())
    before = (hand.history, hand.view(None), hand.view(hand.to_move))
    for bad in ["play:ZZ", "bogus", "call:X", "bid:14S", "hide:1S"] + [
        f"play:{c}" for c in hand.deal[(hand.to_move + 1) % 4]
    ]:
        if bad in legal:
            continue
        try:
            hand.apply(bad)
        except cp.IllegalAction as exc:
            assert str(exc)  # always says why
        else:
            raise AssertionError(f"{bad} was accepted")
    assert (hand.history, hand.view(None), hand.view(hand.to_move)) == before
