"""Hukum with bidding (docs/RULES.md CP-HK-1 … CP-HK-6, CP-HK-9). Seat 3 deals, so seat 0 bids
first. Scores across hands (CP-HK-7) and the next dealer (CP-HK-8) are in
test_rules_match.py.

ladder(k) makes team 0 take exactly k of the 13 tricks with spades as trump, however the
cards are played, so a bid of n spades by seat 0 is made with ladder(n) and set with
ladder(n - 1).
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    BAAWAN,
    STRIPES,
    act,
    hand_cards,
    ladder,
    lead,
    lead_suit,
    new,
    play_out,
    plays,
    rotate,
    tricks_played,
)

ALL_BIDS = sorted(f"bid:{n}{s}" for n in range(7, 14) for s in "SHDC")


def bid_alone(n: int, suit: str = "S") -> str:
    """The first bidder bids n and everyone else passes (a 13 ends the bidding at once)."""
    return f"bid:{n}{suit}" if n == 13 else f"bid:{n}{suit} pass pass pass"


def penalty(n: int) -> int:
    """CP-HK-6: a failed bid of 7 loses 7; 8..13 lose double the bid."""
    return -7 if n == 7 else -2 * n


# --- CP-HK-1 bidding once round, starting after the dealer ------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cp_hk_1_bidding_starts_after_the_dealer(dealer: int) -> None:
    hand = new("hukum", STRIPES, dealer=dealer)
    assert hand.phase == "bid"
    assert hand.to_move == (dealer + 1) % 4
    assert sorted(hand.legal_actions()) == sorted([*ALL_BIDS, "pass"])


def test_cp_hk_1_bidding_goes_once_round_in_seat_order() -> None:
    hand = new("hukum", STRIPES)
    seen = []
    for action in ("bid:7S", "pass", "bid:8H", "pass"):
        seen.append(hand.to_move)
        hand = hand.apply(action)
    assert seen == [0, 1, 2, 3]
    assert hand.phase == "play"  # no second round, even though seat 0 was outbid


def test_cp_hk_1_bids_are_made_on_five_cards() -> None:
    hand = act(new("hukum", STRIPES), "bid:7S pass")
    assert hand_cards(hand, 2) == set(STRIPES[2][:5])
    hand = act(hand, "pass pass")
    assert hand_cards(hand, 2) == set(STRIPES[2])


# --- CP-HK-2 a bid must beat the highest number so far ----------------------------------------


def test_cp_hk_2_next_bid_must_be_a_higher_number() -> None:
    hand = new("hukum", STRIPES).apply("bid:8H")
    legal = hand.legal_actions()
    assert sorted(legal) == sorted([*(b for b in ALL_BIDS if int(b[4:-1]) > 8), "pass"])
    for same_or_lower in ("bid:8S", "bid:8C", "bid:7D"):
        with pytest.raises(cp.IllegalAction):
            hand.apply(same_or_lower)


def test_cp_hk_2_highest_number_wins_suits_have_no_order() -> None:
    hand = act(new("hukum", STRIPES), "bid:7S bid:8C pass bid:9D")
    assert hand.phase == "play"
    assert hand.trump == "D"
    assert hand.caller == 3
    assert hand.to_move == 3


def test_cp_hk_2_passing_keeps_the_highest_bid() -> None:
    hand = act(new("hukum", STRIPES), "pass bid:10H pass pass")
    assert hand.trump == "H"
    assert hand.caller == 1


@pytest.mark.parametrize("bad", ["bid:6S", "bid:14S", "bid:7X", "bid:S7", "bid:"])
def test_cp_hk_2_malformed_bids_are_refused(bad: str) -> None:
    hand = new("hukum", STRIPES)
    with pytest.raises(cp.IllegalAction):
        hand.apply(bad)


# --- CP-HK-3 13 ends the bidding --------------------------------------------------------------


def test_cp_hk_3_a_bid_of_13_ends_the_bidding_at_once() -> None:
    hand = act(new("hukum", STRIPES), "pass bid:13H")
    assert hand.phase == "play"
    assert hand.trump == "H"
    assert hand.to_move == 1
    assert not any(a.startswith("bid:") or a == "pass" for a in hand.legal_actions())


def test_cp_hk_3_first_bidder_13() -> None:
    hand = new("hukum", STRIPES).apply("bid:13C")
    assert hand.phase == "play" and hand.to_move == 0 and hand.trump == "C"


# --- CP-HK-4 all pass: the first bidder takes 7 -----------------------------------------------


def test_cp_hk_4_all_pass_first_bidder_names_trump_from_five() -> None:
    hand = act(new("hukum", STRIPES), "pass pass pass pass")
    assert hand.phase == "call"
    assert hand.to_move == 0
    # Seat 0's first five: AS TS 6S 2S JH.
    assert sorted(hand.legal_actions()) == ["call:H", "call:S"]
    with pytest.raises(cp.IllegalAction):
        hand.apply("call:D")
    hand = hand.apply("call:H")
    assert hand.trump == "H"
    assert hand.caller == 0
    assert hand.to_move == 0


@pytest.mark.parametrize(("k", "kind", "points"), [(7, "made", (7, 0)), (6, "set", (-7, 0))])
def test_cp_hk_4_all_pass_contract_is_7(k: int, kind: str, points: tuple[int, int]) -> None:
    hand = play_out(act(new("hukum", ladder(k)), "pass pass pass pass call:S"))
    assert tuple(hand.result.contract) == (7, 0)
    assert hand.result.kind == kind
    assert tuple(hand.result.points) == points


# --- CP-HK-5 the bidder's suit is trump, the bidder leads, all 13 are played ------------------


def test_cp_hk_5_bidder_leads_with_their_suit_as_trump() -> None:
    hand = act(new("hukum", ladder(13)), "pass pass bid:7D pass")
    assert hand.trump == "D"
    assert hand.caller == 2
    assert hand.to_move == 2


def test_cp_hk_5_all_13_tricks_are_played() -> None:
    hand = act(new("hukum", ladder(13)), "bid:7S pass pass pass")
    for _ in range(7):
        hand = lead_suit(hand, "S")
    assert not hand.is_over  # 7-0 and the bid made, but play goes on
    for _ in range(6):
        hand = lead_suit(hand, "S")
    assert hand.is_over
    assert tricks_played(hand) == 13
    assert tuple(hand.result.tricks) == (13, 0)


def test_cp_hk_5_play_goes_on_after_the_bid_is_beaten() -> None:
    hand = act(new("hukum", ladder(1)), "bid:7S pass pass pass")
    hand = lead(hand, "AS")
    for _ in range(6):
        hand = lead(hand, plays(hand)[0][5:])
    assert not hand.is_over  # 1-6: the bid can no longer be made
    hand = play_out(hand)
    assert tricks_played(hand) == 13


# --- CP-HK-6 score ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(7, 14))
def test_cp_hk_6_bid_made_scores_the_bid(n: int) -> None:
    hand = play_out(act(new("hukum", ladder(n)), bid_alone(n)))
    assert hand.result.kind == "made"
    assert hand.result.winner == 0
    assert tuple(hand.result.contract) == (n, 0)
    assert tuple(hand.result.tricks) == (n, 13 - n)
    assert tuple(hand.result.points) == (n, 0)


@pytest.mark.parametrize("n", range(7, 14))
def test_cp_hk_6_bid_set_loses_7_or_double(n: int) -> None:
    hand = play_out(act(new("hukum", ladder(n - 1)), bid_alone(n)))
    assert hand.result.kind == "set"
    assert hand.result.winner == 1
    assert tuple(hand.result.tricks) == (n - 1, 14 - n)
    assert tuple(hand.result.points) == (penalty(n), 0)


@pytest.mark.parametrize("n", [7, 10, 13])
def test_cp_hk_6_team_1_bidder(n: int) -> None:
    """CP-HK-6: the same for a bidder in team 1 (seat 1 bids first, dealer 0)."""
    made = play_out(act(new("hukum", rotate(ladder(n), 1), dealer=0), bid_alone(n)))
    assert tuple(made.result.points) == (0, n)
    assert made.result.winner == 1
    failed = play_out(act(new("hukum", rotate(ladder(n - 1), 1), dealer=0), bid_alone(n)))
    assert tuple(failed.result.points) == (0, penalty(n))
    assert failed.result.winner == 0


def test_cp_hk_6_overtricks_score_only_the_bid() -> None:
    hand = play_out(act(new("hukum", ladder(13)), "bid:7S pass pass pass"))
    assert tuple(hand.result.points) == (7, 0)


def test_cp_hk_6_later_bidder_set() -> None:
    """CP-HK-6: seat 2 outbids seat 0 and fails: only team 0's score changes (-18).
    (The ladder turned two seats: seat 2 holds the top spades and takes exactly 8.)"""
    hand = play_out(act(new("hukum", rotate(ladder(8), 2)), "bid:7D pass bid:9S pass"))
    assert tuple(hand.result.contract) == (9, 2)
    assert hand.result.kind == "set"
    assert tuple(hand.result.points) == (-18, 0)


# --- CP-HK-9 bidding off: the old household way -----------------------------------------------


def test_cp_hk_9_player_after_the_dealer_calls_from_five() -> None:
    hand = new("hukum", STRIPES, dealer=2, bidding=False)
    assert hand.phase == "call"
    assert hand.to_move == 3
    # Seat 3's first five: JS 7S 3S QH 8H.
    assert sorted(hand.legal_actions()) == ["call:H", "call:S"]
    hand = hand.apply("call:S")
    assert hand.caller == 3 and hand.to_move == 3


def test_cp_hk_9_kot_is_the_callers_first_seven_in_a_row() -> None:
    hand = act(new("hukum", ladder(7), bidding=False), "call:S")
    for _ in range(7):
        hand = lead_suit(hand, "S")
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"
    assert tuple(hand.result.points) == (1, 0)


def test_cp_hk_9_first_team_to_seven_wins() -> None:
    hand = act(new("hukum", ladder(7), bidding=False), "call:S")
    hand = lead(hand, "2H")  # 0-1
    hand = lead_suit(hand, "S")  # 1-1
    for _ in range(5):
        hand = lead_suit(hand, "S")
    assert not hand.is_over
    hand = lead_suit(hand, "S")
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert hand.result.kind == "win"
    assert tuple(hand.result.tricks) == (7, 1)
    assert tuple(hand.result.points) == (1, 0)


@pytest.mark.parametrize(("both", "kind"), [(False, "win"), (True, "kot")])
def test_cp_hk_9_other_teams_seven_in_a_row(both: bool, kind: str) -> None:
    """CP-HK-9: the other team's first 7 in a row is a plain win, or with kot_both_sides
    it "counts as kot too": the result kind is kot (never gone_kot in Hukum)."""
    hand = act(new("hukum", BAAWAN, bidding=False, kot_both_sides=both), "call:S")
    for _ in range(7):
        assert not hand.is_over
        hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert hand.result.kind == kind
    assert hand.result.winner == 1
    assert tuple(hand.result.points) == (0, 1)


def test_cp_hk_9_no_bids_when_bidding_is_off() -> None:
    hand = new("hukum", STRIPES, bidding=False)
    for action in ("bid:7S", "pass"):
        with pytest.raises(cp.IllegalAction):
            hand.apply(action)
