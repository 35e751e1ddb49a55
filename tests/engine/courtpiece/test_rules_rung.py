"""Rung, the classic game (docs/RULES.md CP-RUNG-1 … CP-RUNG-5b).

The match-level rules (CP-RUNG-5a's new deal for the same caller, CP-RUNG-6 succession,
CP-RUNG-7 target) are in test_rules_match.py. Seat 3 deals, so seat 0 calls.
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    BAAWAN,
    act,
    cards,
    deal_with,
    hand_cards,
    ladder,
    lead,
    lead_suit,
    new,
    play_out,
    plays,
    rotate,
    shows,
    tricks_played,
)

# Seat 0's first five are all ten or lower, one of each suit among them.
LOW_FIVE = deal_with({0: "TS 9H 8D 7C 6S AS KS QS JS AH KH QH JH"})
# Seat 0's first five are spades; its 13th card is the only diamond it holds.
THIRTEENTH_D = deal_with({0: "AS KS QS JS TS 9H 8H 7H 6H 5H 4H 3H 2D"})


def rung(deal: list[list[str]], dealer: int = 3, **options: object):
    return new("rung", deal, dealer=dealer, **options)


def spades_first(hand, n: int):
    """Seat to move leads its first legal spade, n times (forced ladder tricks)."""
    for _ in range(n):
        hand = lead_suit(hand, "S")
    return hand


# --- CP-RUNG-1 the caller's choices -----------------------------------------------------------


def test_cp_rung_1_caller_names_a_suit_of_the_five_or_thirteenth() -> None:
    """CP-RUNG-1: with a strong five (AS KS QS JS TS) the caller may name spades or take
    the thirteenth card's suit; no redeal (the five has cards above a ten)."""
    hand = rung(ladder(7))
    assert hand.phase == "call"
    assert sorted(hand.legal_actions()) == ["call:S", "thirteenth"]


def test_cp_rung_1_redeal_offered_when_no_card_above_ten() -> None:
    """CP-RUNG-1: TS 9H 8D 7C 6S — none higher than a ten — so redeal is offered."""
    hand = rung(LOW_FIVE)
    assert sorted(hand.legal_actions()) == [
        "call:C", "call:D", "call:H", "call:S", "redeal", "thirteenth",
    ]  # fmt: skip


@pytest.mark.parametrize("high", ["JS", "QS", "KS", "AS"])
def test_cp_rung_1_no_redeal_with_a_card_above_ten(high: str) -> None:
    """CP-RUNG-1: one jack or higher among the five forbids the redeal."""
    rest = [c for c in cards("TS 9H 8D 7C AS KS QS JS AH KH QH JH 6S") if c != high]
    hand = rung(deal_with({0: " ".join([high, *rest])}))
    assert "redeal" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("redeal")


def test_cp_rung_1_redeal_option_off() -> None:
    """CP-RUNG-1: option redeal=False removes the redeal even for a weak five."""
    hand = rung(LOW_FIVE, redeal=False)
    assert "redeal" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("redeal")


def test_cp_rung_1_redeal_ends_the_hand_without_points() -> None:
    """CP-RUNG-1/CP-RUNG-5a: after redeal the hand is over with no points."""
    hand = rung(LOW_FIVE).apply("redeal")
    assert hand.is_over
    assert hand.to_move is None
    assert hand.legal_actions() == []
    assert hand.result.kind == "redeal"
    assert tuple(hand.result.points) == (0, 0)
    assert hand.result.winner is None


def test_cp_rung_1_thirteenth_makes_the_13th_cards_suit_trump() -> None:
    """CP-RUNG-1: 'thirteenth': trump is the suit of the caller's 13th card (2D here, the
    caller's only diamond), known to everyone once the deal completes."""
    hand = rung(THIRTEENTH_D)
    assert "2D" not in hand_cards(hand, 0)  # not yet received while choosing (CP-4)
    hand = hand.apply("thirteenth")
    assert hand.trump == "D"
    assert hand.caller == 0
    assert hand.to_move == 0
    assert "2D" in hand_cards(hand, 0)
    # Seats 1 and 3 hold no diamond, so they know of unseen trumps; seat 2 holds the
    # other twelve diamonds and, knowing 2D is the caller's, has seen every trump.
    assert cp.trumps_out(hand.view(2)) == []
    for seat in (1, 3):
        out = cp.trumps_out(hand.view(seat))
        assert out, f"seat {seat} should know the trump suit"
        assert all(c.endswith("D") for c in out)
        assert not set(out) & hand_cards(hand, seat)


def test_cp_rung_1_thirteenth_option_off() -> None:
    hand = rung(THIRTEENTH_D, thirteenth=False)
    assert hand.legal_actions() == ["call:S"]
    with pytest.raises(cp.IllegalAction):
        hand.apply("thirteenth")


def test_cp_rung_1_named_trump_is_set() -> None:
    hand = rung(LOW_FIVE).apply("call:H")
    assert hand.trump == "H"
    assert hand.caller == 0
    assert hand.phase == "play"


# --- CP-RUNG-2 seven tricks win the hand ------------------------------------------------------


@pytest.mark.parametrize(("k", "winner"), [(7, 0), (8, 0), (12, 0), (6, 1), (4, 1), (1, 1)])
def test_cp_rung_2_seven_tricks_win(k: int, winner: int) -> None:
    """CP-RUNG-2: the team that takes 7 of the 13 tricks wins the hand."""
    hand = play_out(rung(ladder(k), claim82=False).apply("call:S"))
    assert hand.result.winner == winner
    assert hand.result.tricks[winner] >= 7
    assert hand.result.tricks[1 - winner] < 7
    assert hand.result.kind == "win"


# --- CP-RUNG-3 points -------------------------------------------------------------------------


@pytest.mark.parametrize(("k", "points"), [(7, (7, 0)), (12, (7, 0)), (6, (0, 7)), (2, (0, 7))])
def test_cp_rung_3_ordinary_win_scores_7_loser_0(k: int, points: tuple[int, int]) -> None:
    """CP-RUNG-3: an ordinary win scores 7, the losing team 0 (caller's side or not)."""
    hand = play_out(rung(ladder(k), claim82=False).apply("call:S"))
    assert hand.result.kind == "win"
    assert tuple(hand.result.points) == points


def test_cp_rung_3_court_scores_13() -> None:
    """CP-RUNG-3: the calling team taking all 13 tricks: court, 13 points."""
    hand = play_out(rung(ladder(13), claim82=False).apply("call:S"))
    assert hand.phase == "over"
    assert hand.result.caller == 0
    assert hand.result.kind == "court"
    assert tuple(hand.result.tricks) == (13, 0)
    assert tuple(hand.result.points) == (13, 0)
    assert hand.result.winner == 0


def test_cp_rung_3_court_for_team_1_caller() -> None:
    """CP-RUNG-3: the same for a caller in team 1 (seat 1 calls, dealer 0)."""
    hand = play_out(rung(rotate(ladder(13), 1), dealer=0, claim82=False).apply("call:S"))
    assert hand.result.kind == "court"
    assert tuple(hand.result.points) == (0, 13)


def test_cp_rung_3_baawan_scores_52() -> None:
    """CP-RUNG-3: the other team taking all 13: baawan, 52 points to them."""
    hand = play_out(rung(BAAWAN, claim82=False).apply("call:S"))
    assert hand.result.kind == "baawan"
    assert tuple(hand.result.tricks) == (0, 13)
    assert tuple(hand.result.points) == (0, 52)
    assert hand.result.winner == 1


def test_cp_rung_3_baawan_against_team_1_caller() -> None:
    hand = play_out(rung(rotate(BAAWAN, 1), dealer=0, claim82=False).apply("call:S"))
    assert hand.result.kind == "baawan"
    assert tuple(hand.result.points) == (52, 0)


def test_cp_rung_3_biyasi_scores_82() -> None:
    """CP-RUNG-3/CP-RUNG-5: a successful 82 claim scores 82."""
    hand = play_out(act(rung(ladder(13)), "call:S claim"))
    assert hand.result.kind == "biyasi"
    assert tuple(hand.result.tricks) == (13, 0)
    assert tuple(hand.result.points) == (82, 0)


# --- CP-RUNG-4 court: all13 (default) or first7 -----------------------------------------------


def test_cp_rung_4_default_is_all13() -> None:
    assert cp.Rules(variant="rung").court == "all13"


def test_cp_rung_4_all13_plays_on_after_seven_for_court() -> None:
    """CP-RUNG-4 all13: 7-0 does not end the hand; court needs all 13."""
    hand = spades_first(rung(ladder(13), claim82=False).apply("call:S"), 7)
    assert not hand.is_over
    hand = spades_first(hand, 6)
    assert hand.is_over
    assert hand.result.kind == "court"
    assert tuple(hand.result.points) == (13, 0)


def test_cp_rung_4_all13_first_seven_in_a_row_is_not_court() -> None:
    """CP-RUNG-4 all13: the first 7 in a row then a lost trick is an ordinary win."""
    hand = spades_first(rung(ladder(7), claim82=False).apply("call:S"), 7)
    assert not hand.is_over
    hand = lead(hand, "2H")
    assert hand.is_over
    assert hand.result.kind == "win"
    assert tuple(hand.result.tricks) == (7, 1)
    assert tuple(hand.result.points) == (7, 0)


def test_cp_rung_4_first7_first_seven_in_a_row_is_court() -> None:
    """CP-RUNG-4 first7: the same seven tricks are court, and the hand ends there."""
    hand = spades_first(rung(ladder(7), court="first7").apply("call:S"), 7)
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert hand.result.kind == "court"
    assert tuple(hand.result.tricks) == (7, 0)
    assert tuple(hand.result.points) == (13, 0)


def test_cp_rung_4_first7_ends_at_seven_with_a_plain_win() -> None:
    """CP-RUNG-4 first7: seven tricks not in a row: an ordinary win, hand over at once."""
    hand = rung(ladder(7), court="first7").apply("call:S")
    hand = lead(hand, "2H")  # seat 3 wins with a high heart and leads
    hand = lead_suit(hand, "S")  # seat 0 must follow with a top spade and wins
    hand = spades_first(hand, 5)
    assert not hand.is_over  # 6-1
    hand = spades_first(hand, 1)
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert hand.result.kind == "win"
    assert tuple(hand.result.tricks) == (7, 1)
    assert tuple(hand.result.points) == (7, 0)


def test_cp_rung_4_first7_baawan_is_the_other_teams_first_seven() -> None:
    """CP-RUNG-4 first7: the other team's first 7 in a row is baawan; hand over."""
    hand = rung(BAAWAN, court="first7").apply("call:S")
    for _ in range(7):
        assert not hand.is_over
        hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert hand.result.kind == "baawan"
    assert tuple(hand.result.tricks) == (0, 7)
    assert tuple(hand.result.points) == (0, 52)


def test_cp_rung_4_first7_other_team_seven_not_in_a_row() -> None:
    """CP-RUNG-4 first7: the callers take the first trick, so the other team's 7 is a
    plain win, not baawan."""
    hand = rung(ladder(6), court="first7").apply("call:S")
    hand = lead_suit(hand, "S")  # 1-0 to the callers
    hand = play_out(hand)
    assert hand.result.winner == 1
    assert hand.result.kind == "win"
    assert hand.result.tricks[1] == 7
    assert tuple(hand.result.points) == (0, 7)


# --- CP-RUNG-5 the 82 claim -------------------------------------------------------------------


def test_cp_rung_5_claim_offered_to_the_first_leader_before_any_card() -> None:
    """CP-RUNG-5: claim is offered to the player about to lead the first trick."""
    hand = rung(ladder(13)).apply("call:S")
    assert hand.to_move == 0
    assert "claim" in hand.legal_actions()
    after_card = hand.apply("play:AS")
    for _ in range(3):
        assert "claim" not in after_card.legal_actions()
        after_card = after_card.apply(plays(after_card)[0])
    assert "claim" not in after_card.legal_actions()
    with pytest.raises(cp.IllegalAction):
        after_card.apply("claim")


def test_cp_rung_5_claim_only_once() -> None:
    hand = act(rung(ladder(13)), "call:S claim")
    assert hand.to_move == 0
    assert "claim" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("claim")


def test_cp_rung_5_claim_not_in_call_phase() -> None:
    hand = rung(ladder(13))
    assert "claim" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("claim")


def test_cp_rung_5_claim82_option_off() -> None:
    hand = rung(ladder(13), claim82=False).apply("call:S")
    assert "claim" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("claim")


def test_cp_rung_5_no_claim_with_first7() -> None:
    """CP-RUNG-5: the claim exists only with court=all13."""
    hand = rung(ladder(13), court="first7").apply("call:S")
    assert "claim" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("claim")


def test_cp_rung_5_claimer_lays_the_hand_open_for_everyone() -> None:
    """CP-RUNG-5: the claimer's whole hand becomes visible to every seat and spectators."""
    hand = rung(ladder(13)).apply("call:S")
    assert not shows(hand.view(1), "AS")
    hand = hand.apply("claim")
    for seat in (1, 2, 3, None):
        view = hand.view(seat)
        assert all(shows(view, c) for c in ladder(13)[0]), seat
    # Cards played since stay out of the open hand, the rest stay open.
    hand = lead(hand, "AS")
    assert all(shows(hand.view(1), c) for c in ladder(13)[0][1:])


def test_cp_rung_5_successful_claim_scores_82() -> None:
    hand = play_out(act(rung(ladder(13)), "call:S claim"))
    assert hand.result.kind == "biyasi"
    assert tuple(hand.result.points) == (82, 0)
    assert hand.result.winner == 0


def test_cp_rung_5_failed_claim_scores_as_without_it_win() -> None:
    """CP-RUNG-5 interpretation: a failed claim scores as the hand would have: 12 tricks
    for the callers is a plain 7."""
    hand = play_out(act(rung(ladder(12)), "call:S claim"))
    assert hand.result.kind == "win"
    assert hand.result.winner == 0
    assert tuple(hand.result.points) == (7, 0)


def test_cp_rung_5_failed_claim_other_team_wins() -> None:
    hand = play_out(act(rung(ladder(5)), "call:S claim"))
    assert hand.result.kind == "win"
    assert hand.result.winner == 1
    assert tuple(hand.result.points) == (0, 7)


def test_cp_rung_5_failed_claim_baawan() -> None:
    hand = play_out(act(rung(BAAWAN), "call:S claim"))
    assert hand.result.kind == "baawan"
    assert tuple(hand.result.points) == (0, 52)


# --- CP-RUNG-5a redeal ------------------------------------------------------------------------


def test_cp_rung_5a_redeal_result() -> None:
    """CP-RUNG-5a: after redeal the hand ends with no points (same caller: see match)."""
    hand = rung(LOW_FIVE).apply("redeal")
    assert hand.result.kind == "redeal"
    assert tuple(hand.result.points) == (0, 0)
    assert hand.result.winner is None
    assert hand.history[-1] == (0, "redeal")


# --- CP-RUNG-5b all13: the hand ends when its points are settled ------------------------------


def test_cp_rung_5b_ends_when_callers_have_7_and_others_1() -> None:
    """CP-RUNG-5b: 7-0 is not settled (court possible); 7-1 is."""
    hand = spades_first(rung(ladder(7), claim82=False).apply("call:S"), 7)
    assert not hand.is_over
    hand = lead(hand, "2H")
    assert hand.is_over and tricks_played(hand) == 8


def test_cp_rung_5b_ends_when_callers_reach_7_after_losing_one() -> None:
    hand = rung(ladder(7), claim82=False).apply("call:S")
    hand = lead(hand, "2H")  # 0-1
    hand = lead_suit(hand, "S")  # seat 3 leads a low spade, seat 0 wins it: 1-1
    hand = spades_first(hand, 5)  # 6-1
    assert not hand.is_over
    hand = spades_first(hand, 1)  # 7-1
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert tuple(hand.result.tricks) == (7, 1)


def test_cp_rung_5b_others_seven_nil_is_not_settled() -> None:
    """CP-RUNG-5b: the other team at 7-0 may still make baawan, so play goes on."""
    hand = rung(BAAWAN, claim82=False).apply("call:S")
    for _ in range(7):
        hand = lead(hand, plays(hand)[0][5:])
    assert not hand.is_over
    assert hand.to_move == 1
    hand = play_out(hand)
    assert tricks_played(hand) == 13


def test_cp_rung_5b_others_reach_seven_with_callers_on_one() -> None:
    """CP-RUNG-5b: callers take the first trick, the others then take 7: over at 1-7."""
    hand = rung(ladder(1), claim82=False).apply("call:S")
    hand = lead(hand, "AS")  # 1-0
    for _ in range(6):
        hand = lead(hand, plays(hand)[0][5:])
    assert not hand.is_over  # 1-6
    hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert tuple(hand.result.tricks) == (1, 7)
    assert tuple(hand.result.points) == (0, 7)
