"""The bot's play in explicit deals (RULES.md Part 1). Seat 3 deals, seat 0 chooses first
(CP-3, CP-SS-1); each test plays the other seats' cards and asks the bot for one seat.

Every position is asked of the medium and the hard level (the ``level`` fixture): they
are positions a card player would call obvious, and search must not lose them either."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.bots import courtpiece as bot
from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import act, deal_with, make_deal, new

# Trump spades (seat 0 calls). Seat 3 holds A J T 2 of hearts and no diamond; seat 1,
# seat 3's partner, holds K Q of hearts and the ace of diamonds.
RUNG = make_deal(
    "AS KS QS JS 5H 4H 3H 2D 3D 4D 5D 6D 7D",
    "7H 8H 6H KH QH TS 9S 8S AD 9D TD JD QD",
    "9H KD 8D 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "AH JH TH 2H 7S 6S 5S 4S 3S 2S QC KC AC",
)
# Trump spades; seats 1 and 2 hold no club, seat 1 ruffs low.
RUFF = make_deal(
    "AS KS 2C 3C 4C 5C 6C 7C 2H 3H 4H 5H 6H",
    "8S 7S 6S AH KH QH JH TH AD KD QD JD TD",
    "9S TS 2S 3S 9H 8H 7H 9D 8D 7D 6D 5D 4D",
    "QS JS 5S 4S 3D 2D 8C 9C TC JC QC KC AC",
)


def rung(deal: list[list[str]], actions: str, **options: Any) -> cp.Hand:
    return act(new("rung", deal, **options), actions)


LEVEL = {"now": "medium"}


@pytest.fixture(autouse=True, params=["medium", "hard"])
def level(request: pytest.FixtureRequest) -> Iterator[str]:
    LEVEL["now"] = request.param
    yield request.param
    LEVEL["now"] = "medium"


def choice(state: cp.Hand) -> str:
    action = bot.choose(state.view(state.to_move), LEVEL["now"])
    assert action in state.legal_actions()
    return action


# --- following suit, winning cheaply, partner ------------------------------------------------


def test_cp_5_last_to_play_wins_with_the_cheapest_winning_card() -> None:
    state = rung(RUNG, "call:S play:5H play:6H play:9H")  # seat 2 (an opponent) wins
    assert state.to_move == 3
    assert choice(state) == "play:TH"  # not the jack or the ace


def test_cp_5_second_hand_with_no_sure_winner_plays_its_lowest() -> None:
    state = rung(RUNG, "call:S play:5H")  # seat 1: K Q 8 7 6, the ace unseen
    assert choice(state) == "play:6H"


def test_cp_5_does_not_overtake_a_partner_who_is_winning() -> None:
    state = rung(RUNG, "call:S play:5H play:KH play:9H")  # partner's king holds
    assert choice(state) == "play:2H"  # the ace stays home


def test_cp_6_trumps_a_trick_it_would_lose_with_its_lowest_trump() -> None:
    state = rung(RUNG, "call:S play:2D play:9D play:KD")  # seat 3 has no diamond
    assert choice(state) == "play:2S"


def test_cp_6_does_not_trump_a_trick_its_partner_is_winning() -> None:
    state = rung(RUNG, "call:S play:2D play:AD play:8D")
    action = choice(state)
    assert action.startswith("play:") and action[-1] != "S"


def test_cp_7_over_trumps_cheaply() -> None:
    state = rung(RUFF, "call:S play:2C play:8S")  # seat 1 ruffed with the eight
    assert choice(state) == "play:9S"  # the nine beats it; the ten is not needed


def test_leads_trumps_from_a_top_sequence_when_strong() -> None:
    state = rung(RUNG, "call:S")
    assert len(cp.trumps_out(state.view(0))) == 9  # 13 less its own four
    assert choice(state) == "play:JS"  # A K Q J are equal: the lowest of them


# Seat 0 calls spades with A K Q J T; seat 1 holds one trump, seat 3 none, partner seven.
TRUMPS = make_deal(
    "AS KS QS JS TS 2H 3H 4H 5H AD KD 2C 3C",
    "9S 6H 7H 8H 9H TH 2D 3D 4D 5D 4C 5C 6C",
    "8S 7S 6S 5S 4S 3S 2S JH QH 6D 7D 8D 9D",
    "KH AH TD JD QD 7C 8C 9C TC JC QC KC AC",
)


def test_counts_trumps_and_stops_drawing_when_the_opponents_have_none() -> None:
    """Trump counting (RULES.md): a player who does not follow a trump lead is out of
    trumps. After seat 3 and then seat 1 show out, the trumps still unseen can only be
    partner's, so the bot cashes a side winner instead of drawing partner's trumps."""
    state = rung(TRUMPS, "call:S play:AS play:9S play:2S play:7C")  # seat 3 shows out
    assert choice(state)[-1] == "S"  # seat 1 may still hold one: keep drawing
    state = act(state, "play:KS play:4C play:3S play:8C")  # seat 1 shows out too
    assert len(cp.trumps_out(state.view(0))) == 5  # all in partner's hand
    assert choice(state) == "play:KD"  # A K of diamonds: the lower of two equals


# --- calling trump from five (CP-4, CP-11a, CP-RUNG-1, CP-SS-4) ------------------------------


def test_cp_rung_1_calls_the_longest_strong_suit() -> None:
    state = new("rung", deal_with({0: "AH 9H 4H KS 2D 3C 4C 5C 6C 7C 8C 9C TC"}))
    assert choice(state) == "call:H"


def test_cp_rung_1_a_doubleton_beats_a_bare_ace() -> None:
    state = new("rung", deal_with({0: "9S 8S AH KD QC 3C 4C 5C 6C 7C 8C 2C TC"}))
    assert choice(state) in ("call:S", "thirteenth")
    state = new("rung", deal_with({0: "KS 8S AH 2D 3C 4C 5C 6C 7C 8C 9C 2C TC"}))
    assert choice(state) == "call:S"


def test_cp_rung_1_redeals_a_poor_five_and_else_takes_the_thirteenth_card() -> None:
    five = "9S 3H 4D 5C 7C"
    deal = deal_with({0: five + " 2S 3S 4S 5S 6S 7S 8S 2H"})
    assert choice(new("rung", deal)) == "redeal"
    assert choice(new("rung", deal, redeal=False)) == "thirteenth"
    assert choice(new("rung", deal, redeal=False, thirteenth=False)) == "call:C"


def test_cp_ss_4_passes_a_weak_five_to_partner_who_then_calls() -> None:
    deal = deal_with(
        {0: "9S 3H 4D 5C 7C 2S 3S 4S 5S 6S 7S 8S 2H", 2: "AH KH QH 2D AC KC QC JC TC 9C 8C 6C 3C"}
    )
    for variant in ("single_sar", "double_sar"):
        state = new(variant, deal)
        assert choice(state) == "pass"
        state = state.apply("pass")
        assert state.to_move == 2
        assert choice(state) == "call:H"  # A K Q of hearts: the strongest of its five


def test_cp_ss_4_a_fair_five_is_not_passed() -> None:
    state = new("single_sar", deal_with({0: "AS QS 7S 5C 7C 2S 3S 4S 5S 6S 8S 9S 2H"}))
    assert choice(state) == "call:S"


# --- Hidden Rung (CP-HID-*) --------------------------------------------------------------------

HIDDEN = make_deal(
    "2S AS KS QS JS TS 9S 3H 4H 5H 6H 7H 8D",
    "AD KD QD JD TD 9D 2C 3C 4C 5C 6C 7C 8C",
    "8S 7S 6S 5S 4S 3S 7D 6D 5D 4D 3D 2D 9C",
    "AH KH QH JH TH 9H 8H 2H TC JC QC KC AC",
)
# Seat 0 hides its only spade of the five (2S); seat 1 has no diamond but many spades.
ASK = make_deal(
    "2S AD KD QD 3H JD TD 9D 8D 4H 5H 6H 7H",
    "AS KS QS JS TS 9S 2C 3C 4C 5C 6C 7C 8C",
    "8S 7S 6S 5S 4S 3S 7D 6D 5D 4D 3D 2D 9C",
    "AH KH QH JH TH 9H 8H 2H TC JC QC KC AC",
)


def test_cp_hid_1_hides_the_lowest_card_of_the_chosen_suit() -> None:
    assert choice(new("hidden", HIDDEN)) == "hide:2S"


def test_cp_hid_4_asks_when_void_and_the_trick_goes_to_the_other_side() -> None:
    state = act(new("hidden", ASK), "hide:2S play:AD")
    assert "ask" in state.legal_actions()
    assert choice(state) == "ask"


def test_cp_hid_5_after_asking_it_trumps() -> None:
    state = act(new("hidden", ASK), "hide:2S play:AD ask")
    action = choice(state)
    assert action == "play:9S"  # a trump, and the lowest: nothing unseen is higher
    state = state.apply(action)
    assert state.trump == "S"


def test_cp_hid_4_does_not_ask_when_partner_surely_wins() -> None:
    """Seat 2 is void in diamonds; its partner's ace of diamonds holds the trick, so it
    throws a card instead of revealing (asking would force it to trump, CP-HID-5)."""
    deal = make_deal(
        "2S AD KD QD 3H JD TD 9D 8D 4H 5H 6H 7H",
        "7D 6D 5D 4D 3D 2D 9C AS KS QS JS TS 9S",
        "8S 7S 6S 5S 4S 3S 2C 3C 4C 5C 6C 7C 8C",
        "AH KH QH JH TH 9H 8H 2H TC JC QC KC AC",
    )
    state = act(new("hidden", deal), "hide:2S play:AD play:2D")
    assert "ask" in state.legal_actions()
    assert choice(state).startswith("play:")


def test_cp_hid_6_caller_strong_in_trumps_reveals_and_leads_trump() -> None:
    state = new("hidden", HIDDEN).apply("hide:2S")
    assert choice(state) == "reveal"
    state = state.apply("reveal")
    action = choice(state)
    assert action.startswith("play:") and action[-1] == "S"


def test_cp_hid_6_caller_with_weak_trumps_does_not_reveal() -> None:
    state = act(new("hidden", ASK), "hide:2S")
    assert "reveal" in state.legal_actions()
    action = choice(state)
    assert action != "reveal"
    assert action[-1] != "S"  # the face-down suit's cards wait for the reveal


# --- Mendikot tens (CP-MK-1) -------------------------------------------------------------------

MENDIKOT = make_deal(
    "5H 2S 3S 4S 5S 6S 7S 8S 9S 2D 3D 4D TD",
    "AH 6H 7H TS JS QS KS AS 6D 7D 8D 9D 5D",
    "4H 8H 9H JD QD KD AD 2C 3C 4C 5C 6C 7C",
    "TH 3H 2H JH QH KH 8C 9C TC JC QC KC AC",
)
# The same with the ace of hearts moved to seat 2, an opponent of seat 3.
MENDIKOT_B = make_deal(
    "5H 2S 3S 4S 5S 6S 7S 8S 9S 2D 3D 4D TD",
    "4H 6H 7H TS JS QS KS AS 6D 7D 8D 9D 5D",
    "AH 8H 9H JD QD KD AD 2C 3C 4C 5C 6C 7C",
    "TH 3H 2H JH QH KH 8C 9C TC JC QC KC AC",
)


def test_cp_mk_1_throws_its_ten_on_a_trick_partner_is_winning() -> None:
    state = act(new("mendikot", MENDIKOT), "play:5H play:AH play:4H")
    assert choice(state) == "play:TH"


def test_cp_mk_1_keeps_its_ten_off_a_trick_the_opponents_win() -> None:
    state = act(new("mendikot", MENDIKOT_B), "play:5H play:4H play:AH")
    assert choice(state) == "play:2H"


def test_cp_mk_1_wins_a_trick_with_its_ten_when_the_ten_is_sure() -> None:
    state = act(new("mendikot", MENDIKOT), "play:5H play:6H play:9H")
    assert choice(state) == "play:TH"  # the cheapest winner, and a ten captured


def test_cp_mk_1_captures_a_led_ten_fixing_trump_with_its_own_ten() -> None:
    """Void in diamonds, last to play: any card fixes trump and wins (CP-BR-1); the bot
    names its best suit (clubs) and plays its ten, capturing both tens."""
    state = act(new("mendikot", MENDIKOT), "play:TD play:5D play:JD")
    assert choice(state) == "play:TC"


def test_cp_mk_1_does_not_lead_an_unprotected_ten() -> None:
    state = new("mendikot", MENDIKOT)
    action = choice(state)
    assert action != "play:TD"


# --- Double Sar piles (CP-DS-1) ---------------------------------------------------------------

# Seat 0 calls clubs; seat 1 wins trick 1 with AD and leads 9H: winning again would take
# the pile. Seat 2 holds K 3 of hearts, the ace unseen.
PILES = make_deal(
    "2C 3C 4C 5C 2D AH 6C 7C 8C 5D 6D 7D 8D",
    "AD 9H 8H 7H 6H 5H 4H 2H JS TS 9S 8S 7S",
    "3D KH 3H 9D TD JD QD KD AS KS QS 9C TC",
    "4D QH JH TH 6S 5S 4S 3S 2S JC QC KC AC",
)


def test_cp_ds_1_fights_the_trick_that_would_give_the_opponent_the_pile() -> None:
    state = act(new("double_sar", PILES), "call:C play:2D play:AD play:3D play:4D play:9H")
    view = state.view(2)
    assert view["run"] == {"seat": 1, "length": 1} and view["pile"] == 1
    assert choice(state) == "play:KH"


def test_cp_ds_1_the_same_trick_without_piles_is_second_hand_low() -> None:
    state = act(new("single_sar", PILES), "call:C play:2D play:AD play:3D play:4D play:9H")
    assert choice(state) == "play:3H"


# Seat 1 wins trick 1 with the ace of diamonds and leads again on its run, holding the
# ace of spades and the king of diamonds (now the top diamond).
ACES = make_deal(
    "2C 3C 4C 5C 2D 6C 7C 8C 3D 4D 2H 3H 4H",
    "AD KD AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
    "5D 6D 7D 8D 9D TD JD QD KS QS 9C TC JC",
    "5H 6H 7H 8H 9H TH JH QH KH AH QC KC AC",
)


@pytest.mark.parametrize(("ace_rule", "lead"), [(True, "play:KD"), (False, "play:AS")])
def test_cp_ds_4_on_a_run_with_the_ace_rule_wins_with_a_king(ace_rule: bool, lead: str) -> None:
    """A trick won with an ace takes no pile (CP-DS-4): on a run the bot leads its other
    top card; without the rule its highest."""
    state = new("double_sar", ACES, ace_rule=ace_rule)
    state = act(state, "call:C play:2D play:AD play:5D play:5H")
    assert state.to_move == 1
    assert state.view(1)["run"]["seat"] == 1
    assert choice(state) == lead


# --- Hukum bidding (CP-HK-1..6) ---------------------------------------------------------------

STRONG = "AS KS QS JS AH 2S 3S 2H 3H 4H 2D 3D 4D"
WEAK = "9S 3H 4D 5C 7C 2S 3S 4S 5S 6S 7S 8S 2H"


def test_cp_hk_1_bids_from_a_strong_five() -> None:
    state = new("hukum", deal_with({0: STRONG}))
    assert state.phase == "bid"
    assert choice(state) == "bid:7S"  # the lowest bid that takes the contract


def test_cp_hk_2_outbids_an_opponent_only_with_a_strong_five() -> None:
    state = new("hukum", deal_with({1: STRONG})).apply("bid:7H")
    assert choice(state) == "bid:8S"
    state = new("hukum", deal_with({1: WEAK})).apply("bid:7H")
    assert choice(state) == "pass"


def test_cp_hk_2_passes_a_weak_five_and_does_not_raise_its_partner() -> None:
    assert choice(new("hukum", deal_with({0: WEAK}))) == "pass"
    fair = "AS QS 7S 5C 7C 2S 3S 4S 5S 6S 8S 9S 2H"
    state = act(new("hukum", deal_with({2: fair})), "bid:7H pass")
    assert choice(state) == "pass"


def test_cp_hk_4_all_passed_first_bidder_names_its_best_suit() -> None:
    state = act(new("hukum", deal_with({0: WEAK})), "pass pass pass pass")
    assert state.phase == "call"
    assert choice(state) == "call:C"


# --- Rung 82 claim (CP-RUNG-5) ----------------------------------------------------------------

CERTAIN = "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"


def test_cp_rung_5_claims_only_a_certainty() -> None:
    state = rung(deal_with({0: CERTAIN}), "call:S")
    assert "claim" in state.legal_actions()
    assert choice(state) == "claim"


@pytest.mark.parametrize(
    "hand",
    [
        "AS KS QS JS TS 9S 8S AH KH QH AD KD 2C",  # a low club can be beaten
        "AS KS QS JS TS 9S 7S AH KH QH AD KD AC",  # the 8 of trumps is out
        "AS KS QS JS TS 9S AH KH QH AD KD QD AC",  # six trumps may not draw seven
    ],
)
def test_cp_rung_5_never_claims_what_is_not_certain(hand: str) -> None:
    state = rung(deal_with({0: hand}), "call:S")
    assert "claim" in state.legal_actions()
    assert choice(state) != "claim"
