"""Conformance playouts for every Court Piece variant and option set (OpenSpiel's
random_sim_test, adapted): thousands of seeded random hands.

For every hand: legal actions are never empty until the end; every legal action applies;
the old state is unchanged by apply; results and points agree with the tricks and the
variant's rules; replaying the history gives the same state; and no view — serialised to
JSON — holds a card its seat may not know. The secrecy model here is written from
docs/RULES.md independently of the engine's own bookkeeping (CP-4, CP-RUNG-1, CP-RUNG-5,
CP-SS-4, CP-HID-1, CP-HID-7, CP-HID-8).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from game.engine import courtpiece as cp

# Every variant the engine lists, with every combination of its options: a new variant
# or option is played here without touching this file.
CONFIGS: list[tuple[str, dict[str, object]]] = [
    (name, options) for name, variant in cp.VARIANTS.items() for options in variant.option_sets()
]
IDS = [v + "".join(f"-{k}={o}" for k, o in opts.items()) for v, opts in CONFIGS]

HANDS_PER_CONFIG = 150  # 26 configs: 3,900 random hands
FULLY_CHECKED = 20  # hands per config whose every state gets the full view/replay checks

RANKS = "23456789TJQKA"
BID_TOKEN = re.compile(r'bid:\d+[SHDC]|"bid": "(\d+[SHDC]|pass)"')
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[AKQJT2-9][SHDC](?![A-Za-z0-9])")

# The result kinds each variant can give, from docs/RULES.md (CP-RUNG-3/5/5a, CP-SS-3/5,
# CP-HID-9, CP-DS-3, CP-BR-2, CP-MK-1, CP-HK-6/9), written apart from the engine's own
# declarations (Variant.kinds), which test_declared_kinds_match_the_rules compares.
KINDS = {
    "rung": {"win", "court", "baawan", "biyasi", "redeal"},
    "single_sar": {"win", "kot", "gone_kot"},
    "hidden": {"win", "kot", "gone_kot"},
    "double_sar": {"win", "kot", "gone_kot"},
    "be_ranga": {"win", "kot"},
    "mendikot": {"win", "mendikot"},
    "hukum": {"made", "set", "win", "kot"},
}


def allowed_cards(hand: cp.Hand, seat: int | None) -> set[str]:
    """Every card ``seat`` may know the place of, derived from the deal and the log."""
    deal = hand.deal
    history = hand.history
    actions = [a for _, a in history]
    allowed = {a[5:] for a in actions if a.startswith("play:")}  # played cards are public
    first_chooser = (hand.dealer + 1) % 4
    if "thirteenth" in actions:  # CP-RUNG-1: the caller's 13th card is shown to all
        caller = next(s for s, a in history if a == "thirteenth")
        allowed.add(deal[caller][12])
    for s, a in history:
        if a == "claim":  # CP-RUNG-5: the claimer's whole hand is laid open
            allowed.update(deal[s])
    hidden_variant = hand.rules.variant == "hidden"
    # CP-SS-4: the partner's timeout (after a pass or the first chooser's timeout).
    partner_timed_out = (((first_chooser + 2) % 4), "timeout") in history
    if partner_timed_out and not hidden_variant:
        allowed.add(deal[first_chooser][5])  # CP-SS-4: the turned-up card is public
    hidden_card = None
    hider = None
    for s, a in history:
        if a.startswith("hide:"):
            hidden_card, hider = a[5:], s
    if hidden_variant and partner_timed_out:
        hidden_card = deal[first_chooser][5]  # CP-HID-7: blind, known to nobody
    revealed = "ask" in actions or "reveal" in actions
    if hidden_card and (revealed or hand.is_over):  # CP-HID-4, CP-HID-6, CP-HID-8
        allowed.add(hidden_card)
    if seat is None:
        return allowed
    # After trump is decided every seat holds its 13 cards (CP-4); the phase is public.
    if hand.phase in ("play", "over"):
        mine = set(deal[seat])
        if hidden_card and hider == seat:
            pass  # the hider knows their own face-down card (CP-HID-1)
        elif hidden_card and not (revealed or hand.is_over):
            mine.discard(hidden_card)  # a blind card is unknown even to its holder
        allowed |= mine
    else:
        allowed.update(deal[seat][:5])  # CP-4: while calling, only the first five
    return allowed


def check_views(hand: cp.Hand) -> None:
    for seat in (0, 1, 2, 3, None):
        # Hukum bids ("bid:8H", {"bid": "8H"}) name a number and a suit, not a card.
        text = BID_TOKEN.sub("", json.dumps(hand.view(seat)))
        shown = set(CARD_TOKEN.findall(text))
        leaked = shown - allowed_cards(hand, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)} at {hand.history}"


def check_result(hand: cp.Hand) -> None:
    result = hand.result
    rules = hand.rules
    assert result is not None and hand.to_move is None and hand.legal_actions() == []
    t0, t1 = result.tricks
    # Only a kind this variant, with these options, declares it can give.
    assert result.kind in rules.kinds
    assert rules.kinds <= KINDS[rules.variant]
    if result.kind == "redeal":
        assert result.points == (0, 0) and result.winner is None
        return
    winner = result.winner
    hukum_bidding = rules.variant == "hukum" and rules.bidding
    if rules.variant == "double_sar":
        assert t0 + t1 <= 13 and max(t0, t1) >= 7  # CP-DS-2
        assert result.tricks[winner] >= 7
    elif rules.variant == "mendikot" or hukum_bidding:
        assert t0 + t1 == 13  # CP-MK-1, CP-HK-5: all 13 tricks are played
    else:
        assert result.tricks[winner] >= 7
        assert t0 + t1 <= 13
    if rules.variant == "rung":
        expected = {"win": 7, "court": 13, "baawan": 52, "biyasi": 82}[result.kind]  # CP-RUNG-3
        assert result.points[winner] == expected and result.points[1 - winner] == 0
        caller_team = result.caller % 2
        if result.kind in ("court", "biyasi"):
            assert winner == caller_team and result.tricks[1 - winner] == 0
        if result.kind == "baawan":
            assert winner != caller_team and result.tricks[1 - winner] == 0
        if rules.court == "all13" and result.kind == "win":
            # CP-RUNG-5b: settled once one team has 7+ and the other at least one.
            assert min(t0, t1) >= 1 and max(t0, t1) >= 7
    elif hukum_bidding:
        bid, bidder = result.contract
        team = bidder % 2
        made = result.tricks[team] >= bid
        assert result.kind == ("made" if made else "set")
        delta = bid if made else (-7 if bid == 7 else -2 * bid)  # CP-HK-6
        assert result.points[team] == delta and result.points[1 - team] == 0
    else:
        assert sorted(result.points) == [0, 1] and result.points[winner] == 1  # CP-SS-5
        if result.kind in ("kot", "gone_kot"):
            assert result.tricks[1 - winner] == 0
        if rules.variant == "hukum" and result.tricks[1 - winner] == 0:
            # CP-HK-9: the caller's team's 7 in a row is kot; the other team's is kot only
            # with kot_both_sides, else a plain win.
            calling_side = winner == result.caller % 2
            assert result.kind == ("kot" if calling_side or rules.kot_both_sides else "win")
    if rules.variant == "mendikot":
        tens = result.tens
        assert sum(tens) == 4
        if tens[0] != tens[1]:
            assert tens[winner] >= 3  # CP-MK-1
        assert (result.kind == "mendikot") == (tens[winner] == 4)


def snapshot(hand: cp.Hand) -> tuple[object, ...]:
    return (hand.history, json.dumps(hand.view(None)), json.dumps(hand.view(hand.to_move)))


def play_random_hand(rules: cp.Rules, seed: int, full: bool) -> cp.Hand:
    rng = random.Random(seed)
    hand = cp.new_hand(rules, dealer=seed % 4, seed=f"conformance-{seed}")
    steps = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal, f"no legal action while {hand.to_move} is to move"
        assert len(set(legal)) == len(legal)
        if full:
            check_views(hand)
            before = (
                hand.history,
                json.dumps(hand.view(None)),
                json.dumps(hand.view(hand.to_move)),
            )
            # Every legal action applies (and leaves this state alone).
            for action in legal:
                hand.apply(action)
            assert snapshot(hand) == before
        # CP-SS-4a: the table applies timeouts; they are never offered to players.
        timeout = hand.timeout_legal and rng.random() < 0.25
        action = "timeout" if timeout else rng.choice(legal)
        hand = hand.apply(action, seat=hand.to_move)
        steps += 1
        assert steps < 200
    check_result(hand)
    if full:
        check_views(hand)
        replayed = cp.new_hand(rules, dealer=hand.dealer, deal=hand.deal)
        for seat, action in hand.history:
            replayed = replayed.apply(action, seat=seat)
        assert replayed == hand
        for seat in (0, 1, 2, 3, None):
            assert replayed.view(seat) == hand.view(seat)
    return hand


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=IDS)
def test_random_playouts(variant: str, options: dict[str, object]) -> None:
    rules = cp.Rules(variant=variant, **options)
    kinds: set[str] = set()
    for seed in range(HANDS_PER_CONFIG):
        hand = play_random_hand(rules, seed, full=seed < FULLY_CHECKED)
        kinds.add(hand.result.kind)
    # Random play reaches the ordinary outcome of every variant.
    assert "win" in kinds or kinds & {"made", "set"}


def test_every_variant_and_option_set_is_played() -> None:
    """The list above comes from the engine: all seven variants, all their options."""
    assert {v for v, _ in CONFIGS} == set(KINDS)
    plain = {"redeal": False, "thirteenth": False, "court": "first7", "claim82": False}
    assert ("rung", plain) in CONFIGS
    assert len(CONFIGS) == 16 + 1 + 1 + 2 + 1 + 1 + 4
    defaults = {"redeal": True, "thirteenth": True, "court": "all13", "claim82": True}
    assert CONFIGS[0] == ("rung", defaults)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_declared_kinds_match_the_rules(name: str) -> None:
    """Each variant declares exactly the kinds docs/RULES.md lets it give (a Rung hand is never
    kot, a Hukum hand never gone_kot)."""
    assert cp.VARIANTS[name].kinds == KINDS[name]


def test_views_are_json_and_hide_other_hands_in_the_first_state() -> None:
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=0, seed="views")
    for seat in range(4):
        view = hand.view(seat)
        assert view["hand"] == sorted(
            view["hand"], key=lambda c: ("SHDC".index(c[1]), -"23456789TJQKA".index(c[0]))
        )
        assert set(view["hand"]) == set(hand.deal[seat][:5])  # CP-4
    assert hand.view(None)["hand"] == []
    with pytest.raises(ValueError):
        hand.view(4)


def test_the_leak_check_catches_a_leak() -> None:
    """The secrecy model must be able to fail: another seat's card is not allowed."""
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=0, seed="leak")
    other = hand.deal[2][7]
    assert other not in allowed_cards(hand, 1)
    assert other not in allowed_cards(hand, None)
