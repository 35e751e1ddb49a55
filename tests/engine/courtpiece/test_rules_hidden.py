"""Hidden Rung / Band Rung (docs/RULES.md CP-HID-1 … CP-HID-9). Seat 3 deals, seat 0 chooses.

HIDDEN: seat 0 hides 9H, its only heart. Seats 1 and 2 are void in diamonds (seat 0 leads
2D in trick 1), seat 3 holds the diamonds and no heart.
"""

from __future__ import annotations

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    BAAWAN,
    act,
    cards,
    hand_cards,
    ladder,
    lead,
    lead_suit,
    make_deal,
    new,
    play,
    play_out,
    plays,
    shows,
    tricks_played,
)

HIDDEN = make_deal(
    "9H 2D KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
    "AH KH QH JH TH AC KC QC JC TC 9C 8C 7C",
    "8H 7H 6H 5H 4H 3H 2H 6C 5C 4C 3C 2C AS",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2S",
)
# ladder(7) with seat 0's 2H moved into its first five, to be hidden.
HIDDEN_LADDER = make_deal("AS KS QS JS 2H TS 9S 8S 3H 4H 5H 6H 7H", *ladder(7)[1:])
SEATS = (0, 1, 2, 3, None)


def hidden(deal=HIDDEN, actions: str = "hide:9H"):
    return act(new("hidden", deal), actions)


def no_ask(state) -> str:
    """Policy: the first legal card; ask or reveal only when no card is playable."""
    legal = plays(state)
    return legal[0] if legal else state.legal_actions()[0]


# --- CP-HID-1 a face-down card instead of a named trump ---------------------------------------


def test_cp_hid_1_chooser_hides_one_of_the_first_five_or_passes() -> None:
    hand = new("hidden", HIDDEN)
    assert sorted(hand.legal_actions()) == sorted(
        ["hide:9H", "hide:2D", "hide:KS", "hide:QS", "hide:JS", "pass"]
    )
    with pytest.raises(cp.IllegalAction):
        hand.apply("hide:TS")  # the 6th card, not among the first five
    with pytest.raises(cp.IllegalAction):
        hand.apply("call:H")  # no naming trump in Hidden Rung


def test_cp_hid_1_only_the_caller_knows_the_card_and_there_is_no_trump_yet() -> None:
    hand = hidden()
    assert hand.caller == 0
    assert hand.to_move == 0
    assert hand.trump is None
    assert hand.phase == "play"
    assert shows(hand.view(0), "9H")
    for seat in (1, 2, 3, None):
        assert not shows(hand.view(seat), "9H"), seat
        assert cp.trumps_out(hand.view(seat)) == []


def test_cp_hid_1_partner_hides_after_a_pass() -> None:
    """CP-HID-1/CP-SS-4: after a pass the partner hides one of their own first five, is
    the caller and leads; only they know the card."""
    hand = new("hidden", HIDDEN).apply("pass")
    assert hand.to_move == 2
    assert sorted(hand.legal_actions()) == sorted(f"hide:{c}" for c in HIDDEN[2][:5])
    hand = hand.apply("hide:4H")
    assert hand.caller == 2 and hand.to_move == 2
    assert shows(hand.view(2), "4H")
    for seat in (0, 1, 3, None):
        assert not shows(hand.view(seat), "4H"), seat


# --- CP-HID-2 the face-down card cannot be played and does not count for following ------------


def _heart_led_to_seat_0():
    """Trick 1: KS 7C AS 2S (seat 2 wins); trick 2: seat 2 leads 2H, seat 3 discards."""
    hand = play(hidden(), "KS 7C AS 2S")
    assert hand.to_move == 2
    hand = play(hand, "2H 3D")
    assert hand.to_move == 0
    return hand


def test_cp_hid_2_face_down_card_cannot_be_played() -> None:
    hand = hidden()
    assert "play:9H" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("play:9H")


def test_cp_hid_2_caller_whose_only_card_of_the_suit_is_hidden_counts_as_void() -> None:
    hand = _heart_led_to_seat_0()
    legal = hand.legal_actions()
    assert set(plays(hand)) == {f"play:{c}" for c in cards("2D QS JS TS 9S 8S 7S 6S 5S 4S 3S")}
    assert "ask" in legal  # void, so the caller too may ask (CP-HID-4)
    with pytest.raises(cp.IllegalAction):
        hand.apply("play:9H")


# --- CP-HID-3 no trump before the reveal, trump from the moment of the reveal -----------------


def test_cp_hid_3_trump_suit_card_played_before_the_reveal_loses() -> None:
    """CP-HID-3: seat 1 plays AH before the reveal (an ordinary discard); seat 2 then asks,
    hearts become trump, and seat 2's 2H — a trump played after the reveal — wins."""
    hand = play(hidden(), "2D AH")
    hand = hand.apply("ask")
    assert hand.trump == "H"
    hand = play(hand, "2H AD")
    assert hand.to_move == 2


def test_cp_hid_3_without_a_reveal_the_led_suit_wins() -> None:
    """CP-HID-3: nobody asks: AH and 2H are off-suit discards; AD wins the diamond lead."""
    hand = play(hidden(), "2D AH 2H AD")
    assert hand.to_move == 3
    assert hand.trump is None


def test_cp_hid_3_trump_led_after_reveal_compares_by_rank() -> None:
    """CP-HID-3: a heart lead, the caller asks mid-trick: the led suit is now trump and the
    hearts compare by rank (AH beats 9H and 2H)."""
    hand = _heart_led_to_seat_0().apply("ask")
    assert plays(hand) == ["play:9H"]
    hand = play(hand, "9H AH")
    assert hand.to_move == 1


def test_cp_hid_3_trump_suit_led_before_the_reveal_still_compares_by_rank() -> None:
    """CP-HID-3: seat 1 leads AH before anyone knows hearts are trump; seat 3 then asks.
    The led suit is now the trump suit, so every heart in the trick — AH played before the
    reveal included — compares by rank: AH beats the caller's 9H played after it."""
    hand = play(hidden(), "KS 7C AS 2S")  # seat 2 wins
    hand = play(hand, "2C 3D QS AC")  # no trump yet: AC wins, seat 1 leads
    assert hand.to_move == 1
    hand = play(hand, "AH 8H")
    hand = hand.apply("ask")  # seat 3 has no heart
    hand = play(hand, "KD")
    assert plays(hand) == ["play:9H"]  # the caller must follow with the revealed card
    hand = play(hand, "9H")
    assert hand.to_move == 1


def test_cp_hid_3_two_trumps_after_the_reveal() -> None:
    """CP-HID-3: seat 1 asks and must trump (AH); seat 2 then trumps lower (2H): AH wins."""
    hand = play(hidden(), "2D").apply("ask")
    hand = play(hand, "AH 2H AD")
    assert hand.to_move == 1


# --- CP-HID-4 asking for the reveal -----------------------------------------------------------


def test_cp_hid_4_only_a_void_player_may_ask() -> None:
    hand = hidden()
    assert "ask" not in hand.legal_actions()  # the leader
    hand = play(hand, "2D")
    assert "ask" in hand.legal_actions()  # seat 1, void in diamonds
    hand = play(hand, "AH")
    assert "ask" in hand.legal_actions()  # seat 2, void in diamonds
    hand = play(hand, "2H")
    assert hand.to_move == 3
    assert "ask" not in hand.legal_actions()  # seat 3 holds diamonds
    with pytest.raises(cp.IllegalAction):
        hand.apply("ask")


def test_cp_hid_4_the_card_is_turned_up_for_all_and_goes_back_to_the_caller() -> None:
    hand = play(hidden(), "2D AH")
    for seat in (1, 2, 3, None):
        assert not shows(hand.view(seat), "9H")
    hand = hand.apply("ask")
    assert hand.trump == "H"
    for seat in SEATS:
        assert shows(hand.view(seat), "9H"), seat
    assert "9H" in hand_cards(hand, 0)
    for seat in (1, 2, 3):
        out = cp.trumps_out(hand.view(seat))
        assert out and all(c.endswith("H") for c in out)


def test_cp_hid_4_revealed_card_is_an_ordinary_card_of_the_callers_hand() -> None:
    """CP-HID-4: back in the hand, 9H must follow a heart lead like any other card."""
    hand = play(hidden(), "2D AH").apply("ask")
    hand = play(hand, "2H AD")  # seat 2 wins with the trump
    hand = play(hand, "3H")  # seat 2 leads a heart
    hand = play(hand, "KD")  # seat 3 has no heart
    assert hand.to_move == 0
    assert plays(hand) == ["play:9H"]
    assert "ask" not in hand.legal_actions()


def test_cp_hid_4_no_ask_after_the_reveal() -> None:
    hand = play(hidden(), "2D AH").apply("ask")
    hand = play(hand, "2H AD")
    hand = play(hand, "2C")  # seat 2 leads a club; seat 3 is void in clubs
    assert hand.to_move == 3
    assert "ask" not in hand.legal_actions()


# --- CP-HID-5 the asker must trump ------------------------------------------------------------


def test_cp_hid_5_asker_must_trump() -> None:
    hand = play(hidden(), "2D AH").apply("ask")
    assert hand.to_move == 2
    assert set(hand.legal_actions()) == {f"play:{c}" for c in cards("8H 7H 6H 5H 4H 3H 2H")}
    with pytest.raises(cp.IllegalAction):
        hand.apply("play:6C")


def test_cp_hid_5_asker_without_trump_plays_anything() -> None:
    """CP-HID-5: seat 3 asks on a heart lead but holds no heart: any card."""
    hand = play(hidden(), "KS 7C AS 2S 2H")
    assert hand.to_move == 3
    hand = hand.apply("ask")
    assert hand.trump == "H"
    assert set(plays(hand)) == {f"play:{c}" for c in HIDDEN[3] if c != "2S"}


def test_cp_hid_5_trumping_stays_optional_for_everyone_else() -> None:
    """CP-HID-5/CP-6: after the reveal, a void player who did not ask may discard."""
    hand = play(hidden(), "2D AH").apply("ask")
    hand = play(hand, "2H AD")
    hand = play(hand, "2C KD")  # seat 2 leads a club, seat 3 discards
    assert hand.to_move == 0
    legal = set(plays(hand))
    assert "play:9H" in legal  # may trump
    assert "play:QS" in legal  # need not


# --- CP-HID-6 the caller reveals when leading -------------------------------------------------


def test_cp_hid_6_caller_may_reveal_when_leading_then_must_lead_trump() -> None:
    hand = hidden()
    assert "reveal" in hand.legal_actions()
    hand = hand.apply("reveal")
    assert hand.trump == "H"
    for seat in SEATS:
        assert shows(hand.view(seat), "9H"), seat
    assert hand.legal_actions() == ["play:9H"]
    with pytest.raises(cp.IllegalAction):
        hand.apply("play:KS")


def test_cp_hid_6_caller_with_several_trumps_must_lead_one() -> None:
    hand = hidden(actions="hide:KS").apply("reveal")
    assert hand.trump == "S"
    assert set(hand.legal_actions()) == {f"play:{c}" for c in HIDDEN[0] if c.endswith("S")}


def test_cp_hid_6_reveal_only_for_the_caller_leading() -> None:
    hand = play(hidden(), "KS")
    for _ in range(3):  # the others are following, not leading
        assert "reveal" not in hand.legal_actions()
        hand = hand.apply(plays(hand)[0])
    hand = play(hidden(), "KS 7C AS 2S")
    assert hand.to_move == 2  # seat 2 leads, but is not the caller
    assert "reveal" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("reveal")


def test_cp_hid_6_no_reveal_once_revealed() -> None:
    hand = hidden(actions="hide:KS").apply("reveal")
    hand = play(hand, "KS 7C AS 2S")  # seat 2's AS wins
    hand = play(hand, "2C 3D QS AC")  # seat 0 trumps the club lead
    assert hand.to_move == 0
    assert "reveal" not in hand.legal_actions()
    with pytest.raises(cp.IllegalAction):
        hand.apply("reveal")


# --- CP-HID-7 nobody called: the dealer's card, unknown to all --------------------------------


def test_cp_hid_7_nobody_knows_the_card_caller_included() -> None:
    """CP-HID-7: both time out; the first chooser's 6th card (TS) is placed face down and
    nobody — the first chooser included — sees it; the first chooser is caller and leads."""
    hand = act(new("hidden", HIDDEN), "timeout timeout")
    assert HIDDEN[0][5] == "TS"
    assert hand.caller == 0
    assert hand.to_move == 0
    assert hand.trump is None
    for seat in SEATS:
        assert not shows(hand.view(seat), "TS"), seat
        assert cp.trumps_out(hand.view(seat)) == []
    assert "TS" not in hand_cards(hand, 0)
    assert "play:TS" not in hand.legal_actions()


def test_cp_hid_7_after_a_pass_and_partner_timeout() -> None:
    hand = act(new("hidden", HIDDEN), "pass timeout")
    assert hand.caller == 0 and hand.to_move == 0
    for seat in SEATS:
        assert not shows(hand.view(seat), "TS"), seat


def test_cp_hid_7_unknown_card_revealed_by_the_leading_caller() -> None:
    hand = act(new("hidden", HIDDEN), "timeout timeout")
    assert "reveal" in hand.legal_actions()
    hand = hand.apply("reveal")
    assert hand.trump == "S"
    for seat in SEATS:
        assert shows(hand.view(seat), "TS"), seat
    assert "TS" in hand_cards(hand, 0)
    assert set(hand.legal_actions()) == {f"play:{c}" for c in HIDDEN[0] if c.endswith("S")}


def test_cp_hid_7_unknown_card_revealed_by_an_ask() -> None:
    hand = act(new("hidden", HIDDEN), "timeout timeout")
    hand = play(hand, "2D").apply("ask")  # seat 1, void in diamonds, holds no spade
    assert hand.trump == "S"
    for seat in SEATS:
        assert shows(hand.view(seat), "TS"), seat
    assert set(plays(hand)) == {f"play:{c}" for c in HIDDEN[1]}


# --- CP-HID-8 a card never revealed is shown at the end ---------------------------------------


def test_cp_hid_8_hidden_card_turned_up_when_the_hand_ends_unrevealed() -> None:
    hand = act(new("hidden", HIDDEN_LADDER), "hide:2H")
    for _ in range(6):
        hand = lead_suit(hand, "S", policy=no_ask)
    assert not hand.is_over
    for seat in (1, 2, 3, None):
        assert not shows(hand.view(seat), "2H"), seat
    hand = lead_suit(hand, "S", policy=no_ask)
    assert hand.is_over
    for seat in SEATS:
        assert shows(hand.view(seat), "2H"), seat


def test_cp_hid_8_blind_card_turned_up_at_the_end_too() -> None:
    """CP-HID-8 with CP-HID-7: nobody called; the blind 6th card (2H) is never revealed in
    play — seat 0's top spades win 7 in a row — and is shown to everyone at the end."""
    blind_ladder = make_deal("AS KS QS JS TS 2H 9S 8S 7S 3H 4H 5H 6H", *ladder(8)[1:])
    hand = act(new("hidden", blind_ladder), "timeout timeout")
    for _ in range(6):
        hand = lead_suit(hand, "S", policy=no_ask)
    for seat in SEATS:
        assert not shows(hand.view(seat), "2H"), seat
    hand = lead_suit(hand, "S", policy=no_ask)
    assert hand.is_over
    assert hand.result.kind == "kot"
    for seat in SEATS:
        assert shows(hand.view(seat), "2H"), seat


# --- CP-HID-9 hand end, kot and gone kot as Single Sar ----------------------------------------


def test_cp_hid_9_kot() -> None:
    """CP-HID-9: unrevealed, the top spades win their tricks; 7 in a row is kot."""
    hand = act(new("hidden", HIDDEN_LADDER), "hide:2H")
    for _ in range(7):
        hand = lead_suit(hand, "S", policy=no_ask)
    assert hand.is_over
    assert tricks_played(hand) == 7
    assert hand.result.kind == "kot"
    assert hand.result.winner == 0
    assert tuple(hand.result.points) == (1, 0)


def test_cp_hid_9_gone_kot() -> None:
    hand = act(new("hidden", BAAWAN), "hide:6S")
    for _ in range(7):
        assert not hand.is_over
        hand = lead(hand, plays(hand)[0][5:], policy=no_ask)
    assert hand.is_over
    assert hand.result.kind == "gone_kot"
    assert hand.result.winner == 1
    assert tuple(hand.result.tricks) == (0, 7)
    assert tuple(hand.result.points) == (0, 1)


def test_cp_hid_9_seven_not_in_a_row_is_a_win_and_ends_the_hand() -> None:
    hand = act(new("hidden", HIDDEN_LADDER), "hide:2H")
    hand = lead(hand, "3H", policy=no_ask)  # seat 3 follows with a high heart: 0-1
    hand = lead_suit(hand, "S", policy=no_ask)  # seat 3 leads a low spade: 1-1
    for _ in range(5):
        hand = lead_suit(hand, "S", policy=no_ask)
    assert not hand.is_over  # 6-1
    hand = lead_suit(hand, "S", policy=no_ask)
    assert hand.is_over
    assert tricks_played(hand) == 8
    assert hand.result.kind == "win"
    assert tuple(hand.result.tricks) == (7, 1)


def test_cp_hid_9_play_out_ends_at_seven() -> None:
    hand = play_out(act(new("hidden", HIDDEN_LADDER), "hide:2H"), policy=no_ask)
    assert max(hand.result.tricks) == 7


# --- CP-10 with CP-HID-2: a face-down card is not a card one could have followed with ---------


def test_cp_10_hid_2_discard_beside_the_face_down_card_is_no_renege() -> None:
    """CP-10/CP-HID-2: seat 0's only heart is face down, so QS on a heart lead is legal
    and a record of it shows no renege."""
    hand = play(_heart_led_to_seat_0(), "QS")
    assert cp.find_reneges(hand.history, HIDDEN) == []


def test_cp_10_hid_4_after_the_reveal_the_card_counts_for_following() -> None:
    """CP-10/CP-HID-4: once 9H is back in seat 0's hand, a spade on a heart lead (from a
    physical table's record) is a renege."""
    hand = play(hidden(), "2D AH").apply("ask")
    hand = play(hand, "2H AD 3H KD")  # seat 2 wins trick 0, leads 3H; seat 3 discards
    history = [*hand.history, (0, "play:QS"), (1, "play:KH")]
    assert [tuple(r) for r in cp.find_reneges(history, HIDDEN)] == [(1, 0, "QS")]
