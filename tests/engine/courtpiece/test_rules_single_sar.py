"""Single Sar (docs/RULES.md CP-SS-1 … CP-SS-5); CP-SS-4 also for Double Sar, which calls the
same way. Dealer rotation (CP-SS-1) and the match target (CP-SS-5) are in
test_rules_match.py. Seat 3 deals, so seat 0 is the first chooser.
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    BAAWAN,
    act,
    deal_with,
    hand_cards,
    ladder,
    lead,
    lead_suit,
    new,
    play_out,
    plays,
    shows,
    tricks_played,
)

# First chooser (seat 0): first five all spades, 6th card 9D (its only diamond).
# Partner (seat 2): first five clubs and a heart.
CALLING = deal_with(
    {
        0: "AS KS QS JS TS 9D 8S 7S 6S 5S 4S 3S 2S",
        2: "AC KC QC JC AH KD QD JD TD 8D 7D 6D 5D",
    }
)
CALLING_VARIANTS = ("single_sar", "double_sar")


def spades_first(hand, n: int):
    for _ in range(n):
        hand = lead_suit(hand, "S")
    return hand


# --- CP-SS-2 tricks one by one, the hand ends the moment a team has 7 -------------------------


def test_cp_ss_2_hand_ends_when_callers_reach_7() -> None:
    """CP-SS-2: 6-1 plays on, 7-1 ends the hand at once."""
    hand = new("single_sar", ladder(7)).apply("call:S")
    hand = lead(hand, "2H")  # seat 3 wins: 0-1
    hand = lead_suit(hand, "S")  # seat 3 leads a spade, seat 0 wins: 1-1
    hand = spades_first(hand, 5)
    assert not hand.is_over  # 6-1
    hand = spades_first(hand, 1)
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert tuple(hand.result.tricks) == (7, 1)
    assert hand.result.kind == "win"
    assert hand.result.winner == 0


def test_cp_ss_2_hand_ends_when_the_other_team_reaches_7() -> None:
    """CP-SS-2: the non-calling team reaching 7 (at 2-7) ends the hand too."""
    hand = new("single_sar", ladder(6)).apply("call:S")
    hand = lead_suit(hand, "S")  # 1-0
    hand = lead_suit(hand, "H")  # seat 3 wins with a high heart: 1-1
    for _ in range(5):
        hand = lead_suit(hand, "H")  # seat 3 leads its hearts: 1-6
    hand = lead_suit(hand, "S")  # seat 3, out of hearts, leads a low spade: 2-6
    assert not hand.is_over
    hand = lead_suit(hand, "H")  # seat 0's last heart; seat 3 trumps: 2-7
    assert hand.is_over
    assert tricks_played(hand) == 9
    assert tuple(hand.result.tricks) == (2, 7)
    assert hand.result.kind == "win"
    assert hand.result.winner == 1
    assert tuple(hand.result.points) == (0, 1)


# --- CP-SS-3 kot and gone kot -----------------------------------------------------------------


def test_cp_ss_3_kot_is_the_callers_first_seven_in_a_row() -> None:
    hand = spades_first(new("single_sar", ladder(7)).apply("call:S"), 7)
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"
    assert hand.result.winner == 0
    assert tuple(hand.result.tricks) == (7, 0)


def test_cp_ss_3_kot_ends_the_hand_even_with_more_tricks_to_come() -> None:
    """CP-SS-3: with all 13 spades the callers stop at 7: kot, nothing more to play."""
    hand = play_out(new("single_sar", ladder(13)).apply("call:S"))
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"


def test_cp_ss_3_gone_kot_is_the_other_teams_first_seven() -> None:
    hand = new("single_sar", BAAWAN).apply("call:S")
    for _ in range(7):
        assert not hand.is_over
        hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert hand.result.kind == "gone_kot"
    assert hand.result.winner == 1
    assert tuple(hand.result.tricks) == (0, 7)


def test_cp_ss_3_seven_not_in_a_row_is_a_win() -> None:
    hand = new("single_sar", ladder(7)).apply("call:S")
    hand = lead(hand, "2H")
    hand = play_out(hand)
    assert hand.result.kind == "win"
    assert hand.result.tricks[1] >= 1


# --- CP-SS-4 calling: one pass to partner, timeouts -------------------------------------------


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_first_chooser_may_call_or_pass(variant: str) -> None:
    """CP-SS-4: the first chooser names a suit of the first five or passes; `timeout` is
    never offered (CP-SS-4a)."""
    hand = new(variant, CALLING)
    assert hand.to_move == 0
    assert sorted(hand.legal_actions()) == ["call:S", "pass"]


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_partner_calls_from_own_five_and_cannot_pass(variant: str) -> None:
    hand = new(variant, CALLING).apply("pass")
    assert hand.to_move == 2
    assert sorted(hand.legal_actions()) == ["call:C", "call:H"]
    with pytest.raises(cp.IllegalAction):
        hand.apply("pass")
    with pytest.raises(cp.IllegalAction):
        hand.apply("call:S")  # the first chooser's suit, not in the partner's five


@pytest.mark.parametrize("variant", [*CALLING_VARIANTS, "hidden"])
def test_cp_ss_4_choosers_see_only_their_first_five(variant: str) -> None:
    """CP-SS-4/CP-4: the partner chooses from their own five; nobody holds the other
    eight yet — and the 6th card the dealer may turn up is still in the pack."""
    hand = new(variant, CALLING)
    assert hand_cards(hand, 0) == set(CALLING[0][:5])
    hand = hand.apply("pass")
    for seat in range(4):
        assert hand_cards(hand, seat) == set(CALLING[seat][:5])
    assert not shows(hand.view(0), "9D")


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_partner_who_calls_is_the_caller_and_leads(variant: str) -> None:
    hand = act(new(variant, CALLING), "pass call:C")
    assert hand.trump == "C"
    assert hand.caller == 2
    assert hand.to_move == 2
    assert hand.phase == "play"


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_partner_caller_is_the_hands_caller_to_the_end(variant: str) -> None:
    hand = play_out(act(new(variant, CALLING), "pass call:C"))
    assert hand.result.caller == 2


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_first_chooser_timeout_is_a_pass(variant: str) -> None:
    """CP-SS-4: a caller who times out passes automatically."""
    timed_out = new(variant, CALLING).apply("timeout")
    passed = new(variant, CALLING).apply("pass")
    assert timed_out.to_move == passed.to_move == 2
    assert timed_out.legal_actions() == passed.legal_actions()
    assert timed_out.history[-1] == (0, "timeout")


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_partner_timeout_turns_up_the_sixth_card(variant: str) -> None:
    """CP-SS-4: if the partner times out too, the first chooser's 6th card (9D) is turned
    up for all and its suit is trump, though diamonds were in neither player's first five;
    the first chooser keeps the card, is the caller and leads."""
    hand = act(new(variant, CALLING), "timeout timeout")
    assert hand.trump == "D"
    assert hand.caller == 0
    assert hand.to_move == 0
    assert hand.phase == "play"
    assert "9D" in hand_cards(hand, 0)
    assert len(hand_cards(hand, 0)) == 13
    for seat in (1, 2, 3, None):
        assert shows(hand.view(seat), "9D"), seat
    assert "play:9D" in hand.legal_actions()


@pytest.mark.parametrize("variant", CALLING_VARIANTS)
def test_cp_ss_4_partner_timeout_after_a_real_pass(variant: str) -> None:
    hand = act(new(variant, CALLING), "pass timeout")
    assert hand.trump == "D"
    assert hand.caller == 0
    assert hand.to_move == 0


def test_cp_ss_4_first_chooser_who_calls_leads() -> None:
    hand = new("single_sar", CALLING).apply("call:S")
    assert hand.caller == 0 and hand.to_move == 0 and hand.trump == "S"


# --- CP-SS-4a timeouts belong to the table, never to a player's choices -----------------------


@pytest.mark.parametrize("variant", ["single_sar", "hidden", "double_sar"])
def test_cp_ss_4a_timeout_is_never_offered(variant: str) -> None:
    """CP-SS-4a: `timeout` works in the call phase but is never among the legal actions."""
    hand = new(variant, CALLING)
    assert "timeout" not in hand.legal_actions()
    assert hand.apply("timeout").to_move == 2
    for _ in range(200):
        if hand.is_over:
            break
        assert "timeout" not in hand.legal_actions()
        hand = hand.apply(hand.legal_actions()[0])
    assert hand.is_over


@pytest.mark.parametrize("variant", ["single_sar", "hidden", "double_sar"])
def test_cp_ss_4a_timeout_in_play_phase_is_refused(variant: str) -> None:
    hand = new(variant, CALLING).apply("pass")
    hand = hand.apply(hand.legal_actions()[0])
    assert hand.phase == "play"
    with pytest.raises(cp.IllegalAction):
        hand.apply("timeout")


# --- CP-SS-5 one point per hand ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "points", "kind"),
    [(ladder(13), (1, 0), "kot"), (BAAWAN, (0, 1), "gone_kot"), (ladder(2), (0, 1), "win")],
)
def test_cp_ss_5_each_hand_won_scores_one(deal, points: tuple[int, int], kind: str) -> None:
    """CP-SS-5 interpretation: a hand won scores 1; kots are counted beside it, not extra.
    Seat 0 leads a spade first, so with ladder(2) the callers take trick 1 (no gone kot)."""
    hand = play_out(lead_suit(new("single_sar", deal).apply("call:S"), "S"))
    assert hand.result.kind == kind
    assert tuple(hand.result.points) == points
