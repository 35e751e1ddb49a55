"""The rule facts a variant carries (docs/RULES.md Part 1): when trump is known, whether
tricks pile up, whether the tens count, whether the play is plain trick-taking, how the
match is measured. ``cp.Rules`` answers for its options, ``cp.Variant`` for all of them;
both from the variant's pieces, never from its name. Each fact is checked for all seven
variants and every option set, and against what the hands themselves do.
"""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

import pytest

from game.engine import courtpiece as cp
from game.engine.courtpiece import behaviour as b

FROM_START, WHEN_REVEALED, BY_FIRST_VOID = (
    cp.TrumpKnown.FROM_START,
    cp.TrumpKnown.WHEN_REVEALED,
    cp.TrumpKnown.BY_FIRST_VOID,
)
ALL_RULES = [cp.Rules(name, **o) for name, v in cp.VARIANTS.items() for o in v.option_sets()]


def every_rules(variant: str) -> list[cp.Rules]:
    return [cp.Rules(variant, **o) for o in cp.VARIANTS[variant].option_sets()]


def check(variant: str, fact: str, expected: Any) -> None:
    """``fact`` is ``expected`` for the variant and for each of its option sets."""
    assert getattr(cp.VARIANTS[variant], fact) == expected
    for rules in every_rules(variant):
        assert getattr(rules, fact) == expected, rules


# --- each fact in each variant ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("rung", FROM_START),  # CP-RUNG-1: named, or the 13th card shown to all
        ("single_sar", FROM_START),  # CP-SS-4: named, or the 6th card turned up
        ("double_sar", FROM_START),  # CP-SS-4 calling (CP-DS)
        ("hukum", FROM_START),  # CP-HK-5 the best bid's suit, CP-HK-9 named
        ("hidden", WHEN_REVEALED),  # CP-HID-1, CP-HID-3
        ("be_ranga", BY_FIRST_VOID),  # CP-BR-1
        ("mendikot", BY_FIRST_VOID),  # CP-MK-2: as in Be-Ranga
    ],
)
def test_cp_hid_1_cp_br_1_when_everyone_knows_trump(variant: str, expected: str) -> None:
    check(variant, "trump_known", expected)


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_cp_ds_1_only_double_sar_piles_up_its_tricks(variant: str) -> None:
    check(variant, "piles", variant == "double_sar")  # ace_rule on or off (CP-DS-4)


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_cp_mk_1_only_mendikot_counts_the_tens(variant: str) -> None:
    check(variant, "tens_count", variant == "mendikot")


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_cp_7_plain_trick_taking_in_rung_single_sar_and_hukum(variant: str) -> None:
    """One trump suit known from the first card and every trick counted to its winner:
    not Hidden Rung (CP-HID-3), Double Sar (CP-DS-1), Be-Ranga (CP-BR-1) or Mendikot
    (CP-MK-1)."""
    check(variant, "plain_trick_taking", variant in ("rung", "single_sar", "hukum"))


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("rung", "points"),  # CP-RUNG-7
        ("single_sar", "hands"),  # CP-SS-5
        ("hidden", "hands"),  # CP-HID-9, as Single Sar
        ("double_sar", "hands"),
        ("be_ranga", "hands"),  # CP-BR-2
        ("mendikot", "hands"),  # CP-MK-2
    ],
)
def test_cp_rung_7_cp_ss_5_how_each_match_is_measured(variant: str, expected: str) -> None:
    check(variant, "match_measure", expected)


def test_cp_hk_7_cp_hk_9_hukum_measures_by_its_bidding_option() -> None:
    for kot_both_sides in (False, True):
        with_bids = cp.Rules("hukum", bidding=True, kot_both_sides=kot_both_sides)
        without = cp.Rules("hukum", bidding=False, kot_both_sides=kot_both_sides)
        assert (with_bids.match_measure, without.match_measure) == ("difference", "hands")
    assert cp.VARIANTS["hukum"].match_measure is None  # it depends on the options


# --- the facts are read-only, plain data ------------------------------------------------------

FACTS = ("trump_known", "piles", "tens_count", "plain_trick_taking", "match_measure")


@pytest.mark.parametrize("fact", FACTS)
def test_facts_are_read_only(fact: str) -> None:
    rules, variant = cp.Rules("mendikot"), cp.VARIANTS["mendikot"]
    before = getattr(rules, fact), getattr(variant, fact)
    for holder in (rules, variant):
        with pytest.raises(AttributeError):
            setattr(holder, fact, None)
    assert (getattr(rules, fact), getattr(variant, fact)) == before


def test_trump_known_reads_and_serialises_as_its_value() -> None:
    known = cp.Rules("hidden").trump_known
    assert known == "when_revealed" and str(known) == "when_revealed"
    assert json.dumps({"trump_known": known}) == '{"trump_known": "when_revealed"}'
    assert {str(k) for k in cp.TrumpKnown} == {"from_start", "when_revealed", "by_first_void"}


# --- from the pieces, not the name -----------------------------------------------------------


def test_a_variant_takes_its_facts_from_its_pieces_not_its_name() -> None:
    """Called "rung" but made of Mendikot's pieces: Mendikot's facts (CP-MK-1, CP-MK-2).
    Single Sar's calling with Double Sar's piles and Hukum's measure: those facts."""
    tens_rung = cp.Variant(
        "rung",
        calling=b.NoCall(),
        ending=b.all_thirteen,
        scoring=b.MendikotScore(),
        succession=b.DEAL_PASSES_ON,
        measure=b.HANDS,
    )
    piled = cp.Variant(
        "piled_sar",
        calling=b.NameSuit(may_pass=True, timers=True),
        ending=b.all_thirteen,
        collect=cp.by_option("ace_rule", {False: b.Piles(), True: b.Piles(ace_rule=True)}),
        scoring=b.HandsScore(),
        succession=b.DEAL_PASSES_ON,
        measure=cp.by_option("lead", {True: b.DIFFERENCE, False: b.HANDS}),
        options={
            "ace_rule": cp.Option(False, (True, False)),
            "lead": cp.Option(True, (True, False)),
        },
    )
    facts = [
        (v.trump_known, v.piles, v.tens_count, v.plain_trick_taking) for v in (tens_rung, piled)
    ]
    assert facts == [(BY_FIRST_VOID, False, True, False), (FROM_START, True, False, False)]
    assert tens_rung.match_measure == "hands" and piled.match_measure is None
    assert cp.Rules(piled, lead=True).match_measure == "difference"
    assert cp.Rules(piled, lead=False).match_measure == "hands"


# --- the facts agree with the hands ----------------------------------------------------------


def _playout(rules: cp.Rules, seed: int) -> list[cp.Hand]:
    """Every state of one hand played at random (the clock now and then running out while
    calling, so turned-up and blind cards are met too)."""
    rng = random.Random(seed)
    hand = cp.new_hand(rules, dealer=seed % 4, seed=f"facts-{rules.variant}-{seed}")
    states = [hand]
    while not hand.is_over:
        if hand.timeout_legal and rng.random() < 0.3:
            hand = hand.apply("timeout")
        else:
            hand = hand.apply(rng.choice(hand.legal_actions()))
        states.append(hand)
    return states


@pytest.mark.parametrize("rules", ALL_RULES, ids=repr)
def test_the_facts_are_what_the_hands_do(rules: cp.Rules) -> None:
    piled = False
    for seed in range(12):
        states = _playout(rules, seed)
        in_play = [h for h in states if h.phase == "play"]
        for before, after in pairwise(states):
            if before.trump is None and after.trump is not None and after.phase == "play":
                seat, action = after.last_action or (-1, "")
                if rules.trump_known is BY_FIRST_VOID:
                    # CP-BR-1: fixed by a card that does not follow the suit led
                    assert action.startswith("play:") and action[-1] != before.view(seat)["led"]
                elif rules.trump_known is WHEN_REVEALED:
                    assert action in ("ask", "reveal")  # CP-HID-4, CP-HID-6
        if in_play:
            first = in_play[0]
            if rules.trump_known is FROM_START:
                assert all(h.trump is not None for h in in_play)
                assert all(first.view(s)["trump"] == first.trump for s in (0, 1, 2, 3, None))
            else:
                assert first.trump is None and first.trick_count == 0
        piled = piled or any(h.pile for h in states)
        if not rules.piles:
            assert all(h.pile == 0 for h in states)
            # each trick counts to its winner's team at once
            last = states[-1]
            assert [sum(w & 1 == team for _, _, w in last.tricks()) for team in (0, 1)] == list(
                last.won
            )
        result = states[-1].result
        assert result is not None
        assert (result.tens is not None) == (rules.tens_count and result.kind != "redeal")
    assert piled == rules.piles  # CP-DS-1: some trick waited in a pile
    assert cp.Match(rules, seed="facts").measure == rules.match_measure
