"""Mendi Coat / Mendikot (docs/RULES.md CP-MK-1, CP-MK-2). Seat 3 deals, so seat 0 leads.

TENS: a scripted deal where everyone follows suit for 12 tricks (each seat holds 3 cards of
every suit plus one spare), so trump is fixed only in trick 13 by the first void card.
Script A gives team 0 three tens in 4 tricks; script B (same deal, seat 2 plays 7D and TD
in the other order) splits the tens 2-2.
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    SUITS_DEAL,
    make_deal,
    new,
    play,
    play_out,
    tricks_played,
)

TENS = make_deal(
    "AS 6S 9S JS AH 6H 9H AD 6D 9D 2C 7C 9C",
    "2S KS QS 2H KH QH JH 2D KD QD AC KC QC",
    "TS 4S 7S TH 4H 7H TD 4D 7D JD 3C 5C 8C",
    "3S 5S 8S 3H 5H 8H 3D 5D 8D 4C 6C TC JC",
)
# Each trick in play order from its leader; the winner is shown after the arrow.
SCRIPT_A = [
    "AS 2S TS 3S",  # -> 0, TS
    "AH 2H TH 3H",  # -> 0, TH
    "AD 2D TD 3D",  # -> 0, TD
    "2C AC 3C 4C",  # -> 1
    "KS 4S 5S 6S",  # -> 1
    "QS 7S 8S 9S",  # -> 1
    "KH 4H 5H 6H",  # -> 1
    "QH 7H 8H 9H",  # -> 1
    "KD 4D 5D 6D",  # -> 1
    "QD 7D 8D 9D",  # -> 1
    "KC 5C 6C 7C",  # -> 1
    "QC 8C TC 9C",  # -> 1, TC
    "JH JD JC JS",  # -> 2: JD is the first card by a void player, diamonds are trump
]
SCRIPT_B = list(SCRIPT_A)
SCRIPT_B[2] = "AD 2D 7D 3D"  # -> 0, no ten
SCRIPT_B[9] = "QD TD 8D 9D"  # -> 1, TD


def run(script: list[str], upto: int = 13):
    hand = new("mendikot", TENS)
    for cards in script[:upto]:
        hand = play(hand, cards)
    return hand


# --- CP-MK-1 the tens decide; all 13 tricks are played ----------------------------------------


def test_cp_mk_1_three_tens_win_with_fewer_tricks() -> None:
    """CP-MK-1: team 0 takes only 4 tricks but three tens (TS TH TD): it wins."""
    hand = run(SCRIPT_A)
    assert hand.is_over
    assert tricks_played(hand) == 13
    assert tuple(hand.result.tricks) == (4, 9)
    assert tuple(hand.result.tens) == (3, 1)
    assert hand.result.winner == 0
    assert hand.result.kind == "win"
    assert tuple(hand.result.points) == (1, 0)


def test_cp_mk_1_all_13_tricks_are_played() -> None:
    """CP-MK-1: team 1 has 7 tricks after trick 10, and play goes on."""
    hand = run(SCRIPT_A, upto=10)
    assert not hand.is_over
    hand = run(SCRIPT_A, upto=12)
    assert not hand.is_over
    assert hand.to_move == 1


def test_cp_mk_1_all_four_tens_is_mendikot() -> None:
    """CP-MK-1: seat 1 fixes hearts in trick 1 and takes every trick, all four tens too."""
    hand = play_out(new("mendikot", SUITS_DEAL))
    assert tricks_played(hand) == 13
    assert hand.result.kind == "mendikot"
    assert hand.result.winner == 1
    assert tuple(hand.result.tens) == (0, 4)
    assert tuple(hand.result.tricks) == (0, 13)
    assert tuple(hand.result.points) == (0, 1)


# --- CP-MK-2 2-2 tens: tricks decide; trump as Be-Ranga; points as Single Sar -----------------


def test_cp_mk_2_tens_split_two_two_the_team_with_seven_tricks_wins() -> None:
    hand = run(SCRIPT_B)
    assert tuple(hand.result.tens) == (2, 2)
    assert tuple(hand.result.tricks) == (4, 9)
    assert hand.result.winner == 1
    assert hand.result.kind == "win"
    assert tuple(hand.result.points) == (0, 1)


def test_cp_mk_2_trump_is_fixed_by_the_first_void_card() -> None:
    """CP-MK-2: nobody was void for 12 tricks, so no trump; then JD, the first card of a
    void player, is trump in its own trick and beats the JH led."""
    hand = run(SCRIPT_A, upto=12)
    assert hand.trump is None
    hand = play(hand, "JH JD")
    assert hand.trump == "D"
    hand = play(hand, "JC JS")
    assert hand.is_over
    assert hand.result.tricks[0] == 4  # trick 13 went to seat 2


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cp_mk_2_player_after_the_dealer_leads_no_call(dealer: int) -> None:
    hand = new("mendikot", TENS, dealer=dealer)
    assert hand.phase == "play"
    assert hand.to_move == (dealer + 1) % 4
    with pytest.raises(cp.IllegalAction):
        hand.apply("call:S")


def test_cp_8_each_trick_winner_leads_the_next() -> None:
    """CP-8 (here in Mendikot, where all 13 tricks are played): after every trick of
    script A the winner — and nobody else — is to move."""
    winners = [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    hand = new("mendikot", TENS)
    for cards, winner in zip(SCRIPT_A, winners, strict=False):
        hand = play(hand, cards)
        assert hand.to_move == winner
        assert all(a.startswith("play:") for a in hand.legal_actions())
