"""cp.find_reneges (CP-10) and cp.trumps_out (trump counting, docs/RULES.md table manners)."""

from __future__ import annotations

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import make_deal

# Seat 0: all spades; seat 1: all hearts; seat 2: all diamonds; seat 3: all clubs,
# except that seat 1 and seat 3 swap one card so seat 1 holds a club and seat 3 a heart.
DEAL = make_deal(
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2C",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2H",
)


def test_cp_10_a_renege_in_a_recorded_game_is_found() -> None:
    # A physical table: seat 0 leads a spade, everyone else is void. Then seat 3 leads
    # clubs and seat 1, holding the 2 of clubs, plays a heart: a renege (CP-10).
    history = [
        (0, "call:S"),
        (0, "play:AS"),
        (1, "play:AH"),
        (2, "play:AD"),
        (3, "play:AC"),
        (0, "play:KS"),
        (1, "play:KH"),
        (2, "play:KD"),
        (3, "play:KC"),
        (3, "play:QC"),
        (0, "play:QS"),
        (1, "play:QH"),
        (2, "play:QD"),
    ]
    assert cp.find_reneges(history, DEAL) == [(2, 1, "QH")]


def test_cp_10_following_or_being_void_is_no_renege() -> None:
    history = [(0, "call:S"), (3, "play:QC"), (0, "play:QS"), (1, "play:2C"), (2, "play:QD")]
    assert cp.find_reneges(history, DEAL) == []


def test_cp_10_engine_games_never_renege() -> None:
    for seed in range(30):
        hand = cp.new_hand(cp.Rules(variant="hidden"), dealer=seed % 4, seed=f"r{seed}")
        while not hand.is_over:
            hand = hand.apply(hand.legal_actions()[seed % len(hand.legal_actions())])
        assert cp.find_reneges(hand.history, hand.deal, hand.rules) == []


def test_cp_hid_2_the_face_down_card_does_not_count_for_following() -> None:
    # Seat 1 hides its only club, 2C; when clubs are led it is void and may play a heart.
    history = [(1, "hide:2C"), (3, "play:QC"), (0, "play:QS"), (1, "play:QH")]
    assert cp.find_reneges(history, DEAL) == []
    # After the reveal the card is back in the hand and counts again (CP-HID-4).
    history = [(1, "hide:2C"), (3, "play:QC"), (0, "ask"), (0, "play:QS"), (1, "play:QH")]
    assert cp.find_reneges(history, DEAL) == [(0, 1, "QH")]


def test_trumps_out_counts_as_a_player_would() -> None:
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, deal=DEAL).apply("call:S")
    # Seat 0 holds all 13 spades: nothing is out.
    assert cp.trumps_out(hand.view(0)) == []
    # Seat 2 has seen no spade yet: all 13 are out, high to low.
    out = cp.trumps_out(hand.view(2))
    assert out[0] == "AS" and out[-1] == "2S" and len(out) == 13
    hand = hand.apply("play:AS").apply("play:AH").apply("play:AD").apply("play:AC")
    assert cp.trumps_out(hand.view(2)) == [r + "S" for r in "KQJT98765432"]


def test_trumps_out_is_empty_while_the_trump_is_unknown() -> None:
    hand = cp.new_hand(cp.Rules(variant="hidden"), dealer=3, deal=DEAL).apply("hide:AS")
    assert cp.trumps_out(hand.view(1)) == []  # CP-HID-1: only the caller knows
    assert len(cp.trumps_out(hand.view(0))) == 0  # the caller holds every spade
