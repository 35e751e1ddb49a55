"""Be-Ranga (docs/RULES.md CP-BR-1, CP-BR-2): no trump call; the first card played by a player
who cannot follow suit fixes trump. Seat 3 deals, so seat 0 leads unless a test says so.
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    SUITS_DEAL,
    lead,
    make_deal,
    new,
    play,
    play_out,
    plays,
    rotate,
    suit,
    tricks_played,
)

# Seat 1 must follow trick 1's spade lead with its one spade; seat 2, void, then fixes
# diamonds as trump with any card and holds all 13 of them.
PARTNER_FIXES = make_deal(
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
    "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    suit("D"),
    suit("C"),
)
# On seat 0's spade lead seats 1 and 2 are both void and both hold hearts.
TWO_VOIDS = make_deal(
    suit("S"),
    "2H 3H 4H 5H 6H 7H AC KC QC JC TC 9C 8C",
    "8H 9H TH JH QH KH AH AD KD QD JD TD 9D",
    "8D 7D 6D 5D 4D 3D 2D 7C 6C 5C 4C 3C 2C",
)
# Seat 1 fixes clubs with 2C and wins trick 1; after that seat 2 (12 clubs) wins the rest.
ONE_THEN_SEVEN = make_deal(
    suit("S"),
    "2C AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
    "2H AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    suit("D"),
)


# --- CP-BR-1 the first void card fixes trump --------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cp_br_1_no_call_play_starts_after_the_dealer(dealer: int) -> None:
    """CP-BR-1/CP-BR-2: nobody calls; the player after the dealer leads at once."""
    hand = new("be_ranga", SUITS_DEAL, dealer=dealer)
    assert hand.phase == "play"
    assert hand.to_move == (dealer + 1) % 4
    assert hand.trump is None
    assert hand.legal_actions() == plays(hand)
    for action in ("call:S", "pass", "hide:AS", "bid:7S"):
        with pytest.raises(cp.IllegalAction):
            hand.apply(action)


def test_cp_br_1_following_suit_does_not_fix_trump() -> None:
    hand = play(new("be_ranga", PARTNER_FIXES), "AS 2S")
    assert hand.trump is None


def test_cp_br_1_first_void_card_is_trump_in_its_own_trick() -> None:
    """CP-BR-1: seat 2's 2D (void in spades) fixes diamonds and beats the AS led; seat 3's
    AC, also a void card but after trump is fixed, is an ordinary discard."""
    hand = play(new("be_ranga", PARTNER_FIXES), "AS 2S 2D")
    assert hand.trump == "D"
    hand = play(hand, "AC")
    assert hand.to_move == 2
    assert hand.trump == "D"


def test_cp_br_1_a_higher_card_of_the_new_trump_in_the_same_trick_wins() -> None:
    """CP-BR-1: 2H fixes hearts; seat 2, also void, plays AH: the higher trump wins."""
    hand = play(new("be_ranga", TWO_VOIDS), "AS 2H AH 2D")
    assert hand.trump == "H"
    assert hand.to_move == 2


def test_cp_br_1_later_void_card_of_another_suit_is_not_trump() -> None:
    """CP-BR-1: 2H fixes hearts; seat 2's AD is just a discard: 2H wins over AS."""
    hand = play(new("be_ranga", TWO_VOIDS), "AS 2H AD 2D")
    assert hand.trump == "H"
    assert hand.to_move == 1


def test_cp_br_1_trump_stays_fixed_for_the_hand() -> None:
    hand = play(new("be_ranga", TWO_VOIDS), "AS 2H AD 2D")  # seat 1 leads next
    # Seat 1 leads AC; seat 2, void in clubs, plays KD; seat 3 follows; seat 0 discards.
    hand = play(hand, "AC KD 7C KS")
    assert hand.trump == "H"
    assert hand.to_move == 1  # AC won: KD was not trump
    assert hand.legal_actions()


# --- CP-BR-2 hand end and kot, either side ----------------------------------------------------


def test_cp_br_2_team_0_seven_in_a_row_is_kot() -> None:
    hand = new("be_ranga", PARTNER_FIXES)
    hand = play(hand, "AS 2S 2D AC")
    for _ in range(6):
        assert not hand.is_over
        hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"
    assert hand.result.winner == 0
    assert tuple(hand.result.tricks) == (7, 0)
    assert tuple(hand.result.points) == (1, 0)


def test_cp_br_2_team_1_seven_in_a_row_is_kot_too() -> None:
    """CP-BR-2: no calling team: the other side's first 7 in a row is kot, not gone kot."""
    hand = play_out(new("be_ranga", SUITS_DEAL))
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"
    assert hand.result.winner == 1
    assert tuple(hand.result.tricks) == (0, 7)
    assert tuple(hand.result.points) == (0, 1)


def test_cp_br_2_seven_not_in_a_row_is_a_win_and_ends_at_once() -> None:
    hand = play(new("be_ranga", ONE_THEN_SEVEN), "2S 2C 2H 2D")
    assert hand.trump == "C"
    assert hand.to_move == 1  # 0-1
    hand = play(hand, "AH 3C")  # seat 2 is void in hearts: its club is trump
    hand = play(hand, "AD AS")
    assert hand.to_move == 2  # 1-1
    for _ in range(5):
        hand = lead(hand, plays(hand)[0][5:])
    assert not hand.is_over  # 6-1
    hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert hand.result.kind == "win"
    assert tuple(hand.result.tricks) == (7, 1)
    assert tuple(hand.result.points) == (1, 0)


def test_cp_br_2_player_after_the_dealer_leads() -> None:
    """CP-BR-2 interpretation: dealer 1 → seat 2 leads the first trick."""
    hand = new("be_ranga", rotate(SUITS_DEAL, 2), dealer=1)
    assert hand.to_move == 2
    assert set(plays(hand)) == {f"play:{c}" for c in suit("S")}
