"""What a tap on a card that may not be played says (issue 27: it said nothing). Each
refused card of a random hand, in every variant, gets the refusal the engine itself gives
for it (``IllegalAction``'s reason: follow suit CP-5, a trump after asking CP-HID-5, a trump
led after revealing CP-HID-6), said in the player's language; and the table draws it on
the card."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.utils import translation

from game.courtpiece import refusals
from game.courtpiece.render import table_context
from game.engine import courtpiece as cp
from game.engine.courtpiece.cards import SUIT_NAMES, SUITS
from tests.language import english_left

from .payloads import RULESETS, payload

# The engine's reason (its English message) for each kind of refusal.
ENGINE_SAYS = {
    refusals.FOLLOW: "must follow ",
    refusals.TRUMP_AFTER_ASK: "you asked for the reveal, so you must play a trump",
    refusals.LEAD_TRUMP: "after revealing you must lead a trump",
}


def _refused(hand: cp.Hand, seat: int) -> list[tuple[str, str, str]]:
    """(card, our kind, the engine's reason) for each card of ``seat`` it may not play."""
    view = hand.view(seat)
    legal = hand.legal_actions() if hand.to_move == seat else []
    out = []
    for code in view["hand"]:
        kind = refusals.refusal_kind(view, seat, legal, code)
        if f"play:{code}" in legal or f"hide:{code}" in legal:
            assert kind == ""
            continue
        try:
            hand.apply(f"play:{code}", seat)
        except cp.IllegalAction as why:
            out.append((code, kind, str(why)))
        else:
            raise AssertionError(f"{code} was playable but not offered")
    return out


@pytest.mark.parametrize(("variant", "options"), RULESETS)
def test_every_refused_card_says_the_engines_reason(variant: str, options: dict) -> None:
    seen: Counter[str] = Counter()
    for n in range(6):
        rng = random.Random(f"{variant}{options}{n}")
        hand = cp.new_hand(cp.Rules(variant=variant, **options), dealer=n % 4, seed=f"s{n}")
        while not hand.is_over:
            for seat in range(4):
                for code, kind, engine in _refused(hand, seat):
                    seen[kind] += 1
                    if seat != hand.to_move:
                        assert kind == refusals.NOT_YOUR_TURN, engine
                    elif hand.phase == "play":
                        assert engine.startswith(ENGINE_SAYS[kind]), (code, kind, engine)
                        if kind == refusals.FOLLOW:
                            led = hand.view(seat)["led"]
                            assert engine == f"must follow {SUIT_NAMES[SUITS.index(led)]}"
                    else:
                        assert kind in (refusals.NOT_YET, refusals.NOT_HIDDEN), (kind, engine)
            hand = hand.apply(rng.choice([a for a in hand.legal_actions() if a != "timeout"]))
    assert seen[refusals.FOLLOW] > 0 and seen[refusals.NOT_YOUR_TURN] > 0
    if variant == "hidden":
        assert seen[refusals.LEAD_TRUMP] + seen[refusals.TRUMP_AFTER_ASK] > 0, seen


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_the_table_puts_the_reason_on_each_refused_card(lang: str) -> None:
    rng = random.Random(27)
    m = cp.Match(cp.Rules(variant="rung"), seed="refusals", chain=50)
    # Play on until seat 0 must follow a suit it holds, with some cards it may not play.
    for _ in range(400):
        if m.to_move == 0 and m.hand.phase == "play" and m.hand.view(0)["trick"]:
            legal = m.legal_actions()
            if 0 < len([a for a in legal if a.startswith("play:")]) < len(m.hand.view(0)["hand"]):
                break
        m = m.apply(rng.choice([a for a in m.legal_actions() if a != "timeout"]))
    else:
        raise AssertionError("never had to follow suit")
    with translation.override(lang):
        ctx = table_context(payload(m, 0))
        led = m.hand.view(0)["led"]
        from game.courtpiece.words import suit_name

        wanted = {"en": f"You must follow {suit_name(led)}."}.get(lang)
        for group in ctx["hand_groups"]:
            for c in group["cards"]:
                if c["action"]:
                    assert c["why"] == ""
                else:
                    assert c["why"] and suit_name(led) in c["why"]
                    assert wanted is None or c["why"] == wanted
                    assert english_left(c["why"], lang) == [] if lang != "en" else True
