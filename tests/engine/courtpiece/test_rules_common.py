"""Rules common to every Court Piece variant (docs/RULES.md CP-1 … CP-12), plus bad input.

Each test builds an explicit deal and cites the rule it checks. Seat 3 deals unless a test
says otherwise, so seat 0 is the first chooser / trump caller.
"""

from __future__ import annotations

import re

import pytest

from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import (
    ALL_CARDS,
    STRIPES,
    act,
    cards,
    hand_cards,
    ladder,
    make_deal,
    new,
    play,
    play_out,
    plays,
    rotate,
    snapshot,
    suit,
)

# Spades are trump (seat 0's first five are all spades). Seats 1 and 2 are void in hearts
# and each holds one low trump; seat 3 holds eleven hearts: good for CP-5/6/7 tricks.
TRUMP_TRICKS = make_deal(
    "AS KS QS JS TS AH 2H 9S 8S 7S 6S 5S 4S",
    ["2S", *suit("D", "AKQJT9876543")],
    ["3S", *suit("C", "AKQJT9876543")],
    "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2D 2C",
)

VARIANTS = ("rung", "single_sar", "hidden", "double_sar", "be_ranga", "mendikot", "hukum")


def rung_spades(deal: list[list[str]] = TRUMP_TRICKS, dealer: int = 3):
    """A rung hand in play: the first chooser has called spades."""
    return act(new("rung", deal, dealer=dealer, claim82=False), "call:S")


# --- CP-1 partnerships and seat order ---------------------------------------------------------


@pytest.mark.parametrize("leader", [0, 1, 2, 3])
def test_cp_1_play_goes_to_the_next_seat(leader: int) -> None:
    """CP-1/CP-3: after seat s comes seat (s + 1) % 4, whoever leads."""
    hand = act(new("rung", rotate(ladder(13), leader), dealer=(leader - 1) % 4), "call:S")
    assert hand.to_move == leader
    for step in range(1, 4):
        hand = hand.apply(plays(hand)[0])
        assert hand.to_move == (leader + step) % 4


@pytest.mark.parametrize(("holder", "team"), [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_cp_1_teams_are_seats_0_2_and_1_3(holder: int, team: int) -> None:
    """CP-1: teams are {0,2} and {1,3}; tricks won by a seat count for its team."""
    hand = act(new("rung", rotate(ladder(13), holder), dealer=(holder - 1) % 4), "call:S")
    hand = play_out(hand)
    assert hand.result.winner == team
    assert hand.result.tricks[team] == 13
    assert hand.result.tricks[1 - team] == 0


# --- CP-2 deck, ranks, notation ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("TS 9S 8S 7S", 0),  # a ten beats a nine
        ("TS 9S 8S JS", 3),  # a jack beats a ten
        ("6S KS QS JS", 1),  # K > Q > J
        ("AS KS QS JS", 0),  # the ace is highest
        ("2S 5S 4S 3S", 1),  # 5 > 4 > 3 > 2
        ("2S 9S 8S 7S", 1),
    ],
)
def test_cp_2_rank_order_a_high_2_low(cards: str, winner: int) -> None:
    """CP-2: within the led suit A K Q J T 9 … 2, high to low."""
    hand = play(act(new("rung", STRIPES, claim82=False), "call:S"), cards)
    assert hand.to_move == winner


def test_cp_2_ten_is_written_t() -> None:
    """CP-2: card notation rank+suit with T for ten; the engine speaks the same codes."""
    hand = act(new("rung", STRIPES, claim82=False), "call:S")
    assert "play:TS" in hand.legal_actions()
    assert all(re.fullmatch(r"[AKQJT98765432][SHDC]", c) for c in hand.view(0)["hand"])


@pytest.mark.parametrize(
    "bad",
    [
        "duplicate",
        "short",
        "joker",
    ],
)
def test_cp_2_deal_must_be_one_52_card_deck(bad: str) -> None:
    """CP-2: one 52-card deck, no jokers; a malformed deal is refused with ValueError."""
    deal = [list(h) for h in ladder(7)]
    if bad == "duplicate":
        deal[1][0] = deal[0][0]
    elif bad == "short":
        deal[2] = deal[2][:12]
    else:
        deal[3][0] = "JK"
    with pytest.raises(ValueError):
        cp.new_hand(cp.Rules(variant="rung"), dealer=3, deal=deal)


def test_cp_2_all_52_cards_are_dealt_13_each() -> None:
    """CP-2/CP-4: after trump is named every seat holds its 13 dealt cards."""
    hand = rung_spades(STRIPES)
    seen: set[str] = set()
    for seat in range(4):
        cards = hand_cards(hand, seat)
        assert cards == set(STRIPES[seat])
        seen |= cards
    assert seen == set(ALL_CARDS)


# --- CP-3 dealing and play anticlockwise ------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cp_3_first_chooser_is_the_seat_after_the_dealer(dealer: int) -> None:
    """CP-3/CP-11: the trump caller of a hand sits after the dealer."""
    hand = new("rung", STRIPES, dealer=dealer)
    assert hand.to_move == (dealer + 1) % 4
    assert hand.first_chooser == (dealer + 1) % 4
    assert hand.dealer == dealer


def test_cp_3_deal_list_s_belongs_to_seat_s() -> None:
    """CP-3/CP-4: deal[s] is seat s's cards; the engine keeps the deal as given."""
    hand = new("rung", STRIPES, dealer=1)
    assert [list(h) for h in hand.deal] == STRIPES


# --- CP-4 five cards first, trump on those five -----------------------------------------------


def test_cp_4_while_calling_each_seat_holds_only_its_first_five() -> None:
    """CP-4: trump is decided on the first five alone; the other eight come after."""
    hand = new("rung", STRIPES)
    for seat in range(4):
        assert hand_cards(hand, seat) == set(STRIPES[seat][:5])


def test_cp_4_after_the_call_everyone_holds_thirteen() -> None:
    """CP-4: once trump is named every player receives the other eight cards."""
    hand = act(new("rung", STRIPES), "call:S")
    for seat in range(4):
        assert hand_cards(hand, seat) == set(STRIPES[seat])


def test_cp_4_call_options_come_from_the_first_five_only() -> None:
    """CP-4/CP-11a: seat 0's first five are spades and one heart; the diamonds and clubs it
    receives later cannot be named."""
    hand = new("rung", STRIPES, thirteenth=False)
    assert sorted(hand.legal_actions()) == ["call:H", "call:S"]
    for late_suit in ("D", "C"):
        with pytest.raises(cp.IllegalAction):
            hand.apply(f"call:{late_suit}")


def test_cp_4_hukum_bidding_sees_first_five_only() -> None:
    """CP-4/CP-HK-1: bids are made on the first five cards."""
    hand = new("hukum", STRIPES)
    for seat in range(4):
        assert hand_cards(hand, seat) == set(STRIPES[seat][:5])


# --- CP-5 follow suit -------------------------------------------------------------------------


def test_cp_5_holder_of_led_suit_may_only_play_it() -> None:
    """CP-5: seat 3 holds hearts, so on a heart lead only hearts are legal."""
    hand = play(rung_spades(), "AH 2S 3S")
    assert hand.to_move == 3
    assert sorted(plays(hand)) == sorted(
        f"play:{c}" for c in cards("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H")
    )


def test_cp_5_not_following_is_refused_with_must_follow() -> None:
    """CP-5: playing another suit while holding the led suit is refused, saying why."""
    hand = play(rung_spades(), "AH 2S 3S")
    with pytest.raises(cp.IllegalAction, match="must follow"):
        hand.apply("play:2D")


def test_cp_5_follow_suit_uses_current_holding() -> None:
    """CP-5: seat 3's one club must be played on a club lead; void seats may discard."""
    hand = play(rung_spades(), "AH 2S 3S KH")  # seat 2 wins with 3S and leads
    assert hand.to_move == 2
    hand = play(hand, "AC")  # seat 3 holds 2C and must follow
    assert plays(hand) == ["play:2C"]
    hand = play(hand, "2C 9S")  # seat 0 void in clubs
    assert hand.to_move == 1
    assert "play:AD" in plays(hand)


# --- CP-6 void: any card, trumping optional ---------------------------------------------------


def test_cp_6_void_player_may_trump_or_discard() -> None:
    """CP-6: seat 1 has no heart: any card is legal, its trump included, none compulsory."""
    hand = play(rung_spades(), "AH")
    legal = set(plays(hand))
    assert legal == {f"play:{c}" for c in TRUMP_TRICKS[1]}
    assert "play:2S" in legal and "play:AD" in legal


# --- CP-7 who wins a trick --------------------------------------------------------------------


def test_cp_7_highest_trump_wins() -> None:
    """CP-7: two trumps on a heart lead: the higher trump (3S) wins, not the ace of hearts."""
    hand = play(rung_spades(), "AH 2S 3S KH")
    assert hand.to_move == 2


def test_cp_7_a_single_low_trump_beats_the_led_ace() -> None:
    """CP-7: 2S is the only trump in the trick and beats AH and KH."""
    hand = play(rung_spades(), "AH 2S AC KH")
    assert hand.to_move == 1


def test_cp_7_without_trump_highest_of_led_suit_wins() -> None:
    """CP-7: no trump played: the aces of other suits do not count, 3H beats 2H."""
    hand = play(rung_spades(), "2H AD AC 3H")
    assert hand.to_move == 3


# --- CP-8 winner leads ------------------------------------------------------------------------


def test_cp_8_trick_winner_leads_next() -> None:
    """CP-8: after each trick the winner is to move with the whole led suit open."""
    hand = play(rung_spades(), "AH 2S AC KH")
    assert hand.to_move == 1
    # A leader may lead anything: every card in seat 1's hand is legal.
    assert set(plays(hand)) == {f"play:{c}" for c in TRUMP_TRICKS[1] if c != "2S"}
    hand = play(hand, "AD")
    assert hand.to_move == 2


# --- CP-9 the trump caller leads --------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cp_9_caller_leads_first_trick(dealer: int) -> None:
    """CP-9: the player who decided trump leads the first trick."""
    fc = (dealer + 1) % 4
    hand = act(new("rung", rotate(ladder(13), fc), dealer=dealer), "call:S")
    assert hand.caller == fc
    assert hand.to_move == fc
    assert all(a.startswith(("play:", "claim")) for a in hand.legal_actions())


def test_cp_9_hukum_winning_bidder_leads() -> None:
    """CP-9: in Hukum the winning bidder leads, not the first bidder."""
    hand = act(new("hukum", ladder(7)), "pass bid:7D pass pass")
    assert hand.phase == "play"
    assert hand.to_move == 1


# --- CP-10 renege -----------------------------------------------------------------------------


def _clean_history() -> list[tuple[int, str]]:
    hand = play(rung_spades(), "AH 2S 3S KH AC 2C 9S AD")
    return list(hand.history)


def test_cp_10_online_play_cannot_renege() -> None:
    """CP-10: the engine refuses a renege outright."""
    hand = play(rung_spades(), "AH 2S 3S")
    with pytest.raises(cp.IllegalAction, match="must follow"):
        hand.apply("play:2C")


def test_cp_10_clean_history_has_no_renege() -> None:
    """CP-10: a void player's discard (seat 1's 2S on a heart lead) is not a renege."""
    assert cp.find_reneges(_clean_history(), TRUMP_TRICKS) == []


def test_cp_10_find_reneges_in_a_recorded_game() -> None:
    """CP-10: a physical table's record where seat 3 held hearts but played 2D (trick 0)
    and later held 2C but played KH on a club lead (trick 1)."""
    history = [
        (0, "call:S"),
        (0, "play:AH"), (1, "play:2S"), (2, "play:3S"), (3, "play:2D"),
        (2, "play:AC"), (3, "play:KH"), (0, "play:9S"), (1, "play:AD"),
    ]  # fmt: skip
    found = [tuple(r) for r in cp.find_reneges(history, TRUMP_TRICKS)]
    assert found == [(0, 3, "2D"), (1, 3, "KH")]


# --- CP-11 / CP-11a ---------------------------------------------------------------------------


def test_cp_11_dealer_is_the_seat_before_the_caller() -> None:
    """CP-11: after the toss, the dealer is the seat before the trump caller."""
    for seed in ("toss-a", "toss-b", "toss-c", "toss-d"):
        match = cp.Match(cp.Rules(variant="rung"), seed=seed)
        assert match.hand.dealer == (match.hand.first_chooser - 1) % 4


def test_cp_11_the_toss_depends_on_the_seed() -> None:
    """CP-11: the toss is a draw, not a fixed seat: over many seeds every seat calls first
    sometimes, and the same seed always gives the same first caller."""
    firsts = {
        cp.Match(cp.Rules(variant="rung"), seed=f"s{i}").hand.first_chooser for i in range(40)
    }
    assert firsts == {0, 1, 2, 3}
    for i in range(5):
        a = cp.Match(cp.Rules(variant="rung"), seed=f"s{i}").hand
        b = cp.Match(cp.Rules(variant="rung"), seed=f"s{i}").hand
        assert (a.first_chooser, a.deal) == (b.first_chooser, b.deal)


@pytest.mark.parametrize("variant", ["rung", "single_sar", "double_sar"])
def test_cp_11a_trump_named_must_be_in_first_five(variant: str) -> None:
    """CP-11a: a named trump must be the suit of one of the caller's first five."""
    # Seat 0's first five: AS TS 6S 2S JH; diamonds and clubs come later.
    hand = new(variant, STRIPES)
    calls = sorted(a for a in hand.legal_actions() if a.startswith("call:"))
    assert calls == ["call:H", "call:S"]
    with pytest.raises(cp.IllegalAction):
        hand.apply("call:D")


def test_cp_11a_hukum_bid_may_name_any_suit() -> None:
    """CP-11a: a Hukum bid may name a suit the bidder does not hold in the first five."""
    hand = new("hukum", STRIPES)
    legal = hand.legal_actions()
    for s in "SHDC":
        assert f"bid:7{s}" in legal
    hand = hand.apply("bid:7D")
    assert hand.to_move == 1


def test_cp_11a_hukum_without_bidding_names_from_first_five() -> None:
    """CP-11a/CP-HK-9: with bidding off the caller names a suit of their first five."""
    hand = new("hukum", STRIPES, bidding=False)
    assert sorted(hand.legal_actions()) == ["call:H", "call:S"]


# --- CP-12 names follow the language: the engine speaks codes ---------------------------------

ACTION_CODE = re.compile(
    r"call:[SHDC]|thirteenth|redeal|hide:[AKQJT98765432][SHDC]|pass|bid:(?:[789]|1[0-3])[SHDC]"
    r"|claim|ask|reveal|play:[AKQJT98765432][SHDC]"
)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cp_12_engine_emits_language_neutral_codes(variant: str) -> None:
    """CP-12: names shown to players follow their language, so the engine must emit only
    codes (actions, card codes) that templates turn into Urdu, Hindi or English words."""
    hand = new(variant, STRIPES)
    for _ in range(12):
        if hand.is_over:
            break
        for action in hand.legal_actions():
            assert ACTION_CODE.fullmatch(action), action
        for card in hand.view(hand.to_move)["hand"]:
            assert card in ALL_CARDS
        hand = hand.apply(hand.legal_actions()[0])
    assert not re.search(r"spade|heart|diamond|club", str(hand.legal_actions()), re.I)


# --- The documented surface used by every rule test above -----------------------------------


@pytest.mark.parametrize("variant", ["rung", "single_sar", "double_sar", "hukum"])
def test_cp_rung_1_hand_trump_is_a_suit_letter_or_none(variant: str) -> None:
    """Decisions doc: ``hand.trump`` is "S"/"H"/"D"/"C", or None while no trump is known
    (CP-RUNG-1, CP-SS-4, CP-HK-5 name trump; the tests compare it with a suit letter)."""
    hand = new(variant, STRIPES)
    assert hand.trump is None
    hand = act(hand, "bid:7H pass pass pass" if variant == "hukum" else "call:H")
    assert hand.trump == "H"


# --- Bad input: clear error, nothing changes --------------------------------------------------


def test_illegal_action_is_a_value_error() -> None:
    """Contract: cp.IllegalAction is a ValueError (bad input to any rule, e.g. CP-5)."""
    assert issubclass(cp.IllegalAction, ValueError)


def test_bad_input_unknown_card() -> None:
    """CP-2: only the 52 codes rank+suit are cards; anything else is refused, saying so."""
    hand = rung_spades()
    with pytest.raises(cp.IllegalAction, match="unknown card"):
        hand.apply("play:ZZ")


def test_bad_input_card_not_held() -> None:
    """CP-4/CP-5: a player plays only their own cards. Seat 0 leads; KH is seat 3's."""
    hand = rung_spades()
    with pytest.raises(cp.IllegalAction):
        hand.apply("play:KH")


def test_bad_input_out_of_turn() -> None:
    """CP-1/CP-3: play goes seat by seat; another seat's action is refused."""
    hand = rung_spades()
    with pytest.raises(cp.IllegalAction, match="not your turn"):
        hand.apply("play:2S", seat=1)
    with pytest.raises(cp.IllegalAction, match="not your turn"):
        hand.apply("play:AS", seat=2)
    assert hand.apply("play:AS", seat=0).to_move == 1


@pytest.mark.parametrize("action", ["", "dance", "play:", "call:X", "bid:7S", "hide:AS", "play AS"])
def test_bad_input_malformed_or_wrong_phase_action(action: str) -> None:
    """CP-RUNG-1/CP-HK-1/CP-HID-1: calls, bids and hides belong to their own phase; nonsense
    is refused."""
    hand = rung_spades()
    with pytest.raises(cp.IllegalAction):
        hand.apply(action)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("rung", {"court": "first9"}),
        ("rung", {"redeal": "yes"}),
        ("rung", {"claim82": 1}),
        ("rung", {"ace_rule": True}),  # an option of another variant
        ("double_sar", {"court": "all13"}),
        ("hukum", {"bidding": None}),
        ("single_sar", {"target": 10}),
        ("chess", {}),
    ],
)
def test_bad_input_unknown_option_or_value(variant: str, options: dict[str, object]) -> None:
    """CP-RUNG-1/4/5, CP-DS-4, CP-HK-9: only each variant's own options, with their own
    values, are accepted."""
    with pytest.raises(ValueError):
        cp.Rules(variant=variant, **options)


def test_bad_input_dealer_out_of_range() -> None:
    """CP-1: seats are 0..3."""
    with pytest.raises(ValueError):
        cp.new_hand(cp.Rules(variant="rung"), dealer=4, deal=ladder(7))


@pytest.mark.parametrize(
    ("variant", "before"),
    [
        ("rung", ""),  # rung has no timers (CP-SS-4a covers the source-001 family only)
        ("rung", "call:S"),
        ("hukum", ""),
        ("be_ranga", ""),
        ("mendikot", ""),
        ("single_sar", "call:S"),  # play phase
    ],
)
def test_bad_input_timeout_where_no_rule_gives_it_a_meaning(variant: str, before: str) -> None:
    """CP-SS-4a: `timeout` is legal only where a rule says what it does."""
    hand = act(new(variant, ladder(7)), before)
    frozen = snapshot(hand)
    with pytest.raises(cp.IllegalAction):
        hand.apply("timeout")
    assert snapshot(hand) == frozen


@pytest.mark.parametrize("action", ["play:ZZ", "play:AS", "play:2D", "dance", "timeout", "call:S"])
def test_bad_input_leaves_state_unchanged(action: str) -> None:
    """CP-5 and the contract: an IllegalAction changes nothing: same turn, legal actions,
    history and views."""
    hand = play(rung_spades(), "AH 2S 3S")  # seat 3 to follow hearts
    frozen = snapshot(hand)
    with pytest.raises(cp.IllegalAction):
        hand.apply(action)
    assert snapshot(hand) == frozen
    assert hand.apply("play:KH").to_move == 2  # and it still plays on normally


def test_bad_input_out_of_turn_leaves_state_unchanged() -> None:
    """CP-1/CP-3: a refused out-of-turn play changes nothing."""
    hand = play(rung_spades(), "AH")
    frozen = snapshot(hand)
    with pytest.raises(cp.IllegalAction, match="not your turn"):
        hand.apply("play:KH", seat=3)
    assert snapshot(hand) == frozen


def test_bad_input_nothing_applies_to_a_finished_hand() -> None:
    """CP-RUNG-3: once scored (court here), the hand accepts no further action."""
    hand = play_out(rung_spades(ladder(13)))
    assert hand.is_over and hand.to_move is None
    frozen = snapshot(hand)
    for action in ("play:AS", "pass", "timeout", "claim"):
        with pytest.raises(cp.IllegalAction):
            hand.apply(action)
    assert snapshot(hand) == frozen
