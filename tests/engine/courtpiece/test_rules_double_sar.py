"""Double Sar (docs/RULES.md CP-DS-1 … CP-DS-4). Seat 3 deals, seat 0 calls spades.

Collected tricks are visible only through the end of the hand (result.tricks counts the
tricks collected in piles), so each test checks when the hand ends and with what.
"""

from __future__ import annotations

from tests.engine.courtpiece.helpers import (
    BAAWAN,
    act,
    ladder,
    lead,
    lead_suit,
    make_deal,
    new,
    plays,
    suit,
    trick,
    tricks_played,
)

# Seats 0 and 2 (partners) can be made to win alternate tricks for the whole hand: seat 0
# leads a low spade that seat 2 beats, seat 2 leads a low heart that seat 0 beats. Seats 1
# and 3 hold only clubs and diamonds: no trumps, never the led suit.
ALTERNATE = make_deal(
    "2S 4S 6S 8S TS QS 3H 5H 7H 9H JH KH AH",
    suit("C"),
    "3S 5S 7S 9S JS KS AS 2H 4H 6H 8H TH QH",
    suit("D"),
)
SEAT0_LEADS = ["2S", "4S", "6S", "8S", "TS", "QS"]
SEAT2_BEATS = ["3S", "5S", "7S", "9S", "JS", "KS"]
SEAT2_LEADS = ["2H", "4H", "6H", "8H", "TH", "QH"]
SEAT0_BEATS = ["3H", "5H", "7H", "9H", "JH", "KH"]


def double_sar(deal, **options):
    return act(new("double_sar", deal, **options), "call:S")


def alternate(hand, pairs: int):
    """``pairs`` x (seat 2 wins a trick, then seat 0 wins one): no one wins twice in a row."""
    for j in range(pairs):
        hand = trick(hand, {0: SEAT0_LEADS[j], 2: SEAT2_BEATS[j]})
        assert hand.to_move == 2
        hand = trick(hand, {2: SEAT2_LEADS[j], 0: SEAT0_BEATS[j]})
        assert hand.to_move == 0
    return hand


def spades_in_order(hand, order: str):
    for card in order.split():
        hand = lead(hand, card)
    return hand


# --- CP-DS-1 piles: the same player winning twice in a row takes them -------------------------


def test_cp_ds_1_one_player_taking_every_trick_collects_in_pairs() -> None:
    """CP-DS-1: seat 0 wins every trick: piles of 2 at tricks 2, 4, 6 (6 collected), the
    7th trick only starts a new pile, so the hand ends after trick 8 with 8 collected."""
    hand = spades_in_order(double_sar(ladder(13)), "AS KS QS JS TS 9S 8S")
    assert not hand.is_over
    hand = spades_in_order(hand, "7S")
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert tuple(hand.result.tricks) == (8, 0)


def test_cp_ds_1_partners_winning_in_turn_take_nothing() -> None:
    """CP-DS-1: a player, not merely the team: seats 0 and 2 win alternately for 8 tricks
    and nothing is collected (a team rule would have ended the hand at 8-0); seat 0 then
    wins trick 9 too — two in a row — and takes the whole pile of 9."""
    hand = alternate(double_sar(ALTERNATE), 4)
    assert tricks_played(hand) == 8
    assert not hand.is_over
    hand = trick(hand, {0: "QS", 2: "JS"})
    assert hand.is_over
    assert tricks_played(hand) == 9
    assert tuple(hand.result.tricks) == (9, 0)


def test_cp_ds_1_run_starts_again_after_taking_the_pile() -> None:
    """CP-DS-1: after a pile is taken the winner's run restarts from zero; with 2 + 2 + 2
    collected, one more win (trick 7) is not enough."""
    hand = spades_in_order(double_sar(ladder(13)), "AS KS QS JS TS 9S 8S")
    assert tricks_played(hand) == 7
    assert not hand.is_over


# --- CP-DS-2 the end: 7 collected; leftovers go to the last trick's winner --------------------


def test_cp_ds_2_leftover_pile_goes_to_the_last_tricks_winner() -> None:
    """CP-DS-2: seats 0 and 2 alternate all 13 tricks, so no pile is ever taken; after the
    13th trick (seat 2 trumps seat 0's AH) the whole pile goes to seat 2."""
    hand = alternate(double_sar(ALTERNATE), 6)
    assert tricks_played(hand) == 12
    assert not hand.is_over
    hand = trick(hand, {0: "AH", 2: "AS"})
    assert hand.is_over
    assert tuple(hand.result.tricks) == (13, 0)
    assert hand.result.winner == 0


def test_cp_ds_2_ends_as_soon_as_a_team_has_collected_7() -> None:
    """CP-DS-2: 8 collected after trick 10 (2 for the others earlier): hand over."""
    hand = double_sar(ladder(9))
    hand = lead_suit(hand, "H")  # seat 3 wins
    hand = lead_suit(hand, "H")  # seat 3 again: takes 2
    hand = lead_suit(hand, "S")  # seat 3 leads a low spade, seat 0 wins
    for _ in range(6):
        assert not hand.is_over
        hand = lead_suit(hand, "S")
    assert tricks_played(hand) == 9
    assert not hand.is_over  # 6 collected, 1 in the pile
    hand = lead_suit(hand, "S")
    assert hand.is_over
    assert tricks_played(hand) == 10
    assert tuple(hand.result.tricks) == (8, 2)


# --- CP-DS-3 kot: 7 collected while the others have none --------------------------------------


def test_cp_ds_3_kot() -> None:
    hand = spades_in_order(double_sar(ladder(13)), "AS KS QS JS TS 9S 8S 7S")
    assert hand.result.kind == "kot"
    assert hand.result.winner == 0
    assert tuple(hand.result.points) == (1, 0)


def test_cp_ds_3_kot_through_the_last_trick_rule() -> None:
    hand = trick(alternate(double_sar(ALTERNATE), 6), {0: "AH", 2: "AS"})
    assert hand.result.kind == "kot"


def test_cp_ds_3_gone_kot() -> None:
    """CP-DS-3: seat 1 takes every trick: 8 collected at trick 8, callers none."""
    hand = double_sar(BAAWAN)
    for _ in range(8):
        hand = lead(hand, plays(hand)[0][5:])
    assert hand.is_over
    assert hand.result.kind == "gone_kot"
    assert hand.result.winner == 1
    assert tuple(hand.result.tricks) == (0, 8)
    assert tuple(hand.result.points) == (0, 1)


def test_cp_ds_3_not_kot_when_the_others_collected_some() -> None:
    hand = double_sar(ladder(9))
    hand = lead_suit(lead_suit(hand, "H"), "H")  # the others collect 2
    for _ in range(8):
        hand = lead_suit(hand, "S")
    assert hand.is_over
    assert hand.result.kind == "win"
    assert hand.result.winner == 0
    assert tuple(hand.result.points) == (1, 0)


# --- CP-DS-4 option ace_rule ------------------------------------------------------------------


def test_cp_ds_4_ace_rule_is_off_by_default() -> None:
    """CP-DS-4 off: KS then AS: the ace trick is the second in a row and takes the pile,
    so the hand runs to trick 8 as usual."""
    hand = spades_in_order(double_sar(ladder(13)), "KS AS QS JS TS 9S 8S")
    assert not hand.is_over
    hand = spades_in_order(hand, "7S")
    assert hand.is_over
    assert tuple(hand.result.tricks) == (8, 0)


def test_cp_ds_4_ace_rule_off_explicit() -> None:
    hand = spades_in_order(double_sar(ladder(13), ace_rule=False), "KS AS QS JS TS 9S 8S 7S")
    assert hand.is_over and tuple(hand.result.tricks) == (8, 0)


def test_cp_ds_4_ace_rule_on_ace_trick_never_takes_the_pile() -> None:
    """CP-DS-4 on: KS (run 1), AS (won with an ace: no pile, run goes on), QS takes 3;
    JS, TS take 2 more (5); 9S, 8S take 2 more (7): the hand ends after trick 7."""
    hand = spades_in_order(double_sar(ladder(13), ace_rule=True), "KS AS")
    assert not hand.is_over
    hand = spades_in_order(hand, "QS JS TS 9S")
    assert not hand.is_over
    hand = spades_in_order(hand, "8S")
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert tuple(hand.result.tricks) == (7, 0)
    assert hand.result.kind == "kot"


def test_cp_ds_4_ace_rule_on_ace_first_then_a_plain_win_takes_both() -> None:
    """CP-DS-4 on: AS starts a run, KS (no ace) takes both tricks: 8 after trick 8."""
    hand = spades_in_order(double_sar(ladder(13), ace_rule=True), "AS KS QS JS TS 9S 8S")
    assert not hand.is_over
    hand = spades_in_order(hand, "7S")
    assert hand.is_over
    assert tuple(hand.result.tricks) == (8, 0)
