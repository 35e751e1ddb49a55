"""The plain-text hand record round-trips with the engine's states."""

from __future__ import annotations

import random
import re

import pytest

from game.engine import courtpiece as cp

VARIANTS = [
    cp.Rules(variant="rung", court="first7"),
    cp.Rules(variant="rung"),
    cp.Rules(variant="hidden"),
    cp.Rules(variant="double_sar", ace_rule=True),
    cp.Rules(variant="hukum"),
    cp.Rules(variant="mendikot"),
]


def _random_hand(rules: cp.Rules, seed: int, stop_after: int | None = None) -> cp.Hand:
    rng = random.Random(seed)
    hand = cp.new_hand(rules, dealer=seed % 4, seed=f"record-{seed}")
    steps = 0
    while not hand.is_over and (stop_after is None or steps < stop_after):
        if hand.timeout_legal and rng.random() < 0.3:
            hand = hand.apply("timeout")
        else:
            hand = hand.apply(rng.choice(hand.legal_actions()))
        steps += 1
    return hand


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.variant)
@pytest.mark.parametrize("stop_after", [0, 7, None])
def test_round_trip(rules: cp.Rules, stop_after: int | None) -> None:
    for seed in range(20):
        hand = _random_hand(rules, seed, stop_after)
        text = cp.to_record(hand)
        again = cp.from_record(text)
        assert again == hand
        assert again.view(None) == hand.view(None)
        assert cp.to_record(again) == text


def test_record_reads_like_the_docs() -> None:
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, seed="doc")
    hand = hand.apply(hand.legal_actions()[0])
    lines = cp.to_record(hand).splitlines()
    assert lines[:4] == [
        "baithak-hand 1",
        "variant: rung",
        "options: claim82=true court=all13 redeal=true thirteenth=true",
        "dealer: 3",
    ]
    assert lines[4].startswith("seat 0: ") and len(lines[4].split()) == 15
    assert lines[8] == "actions:"
    assert lines[9] == f"0 {hand.history[0][1]}"


def test_comments_and_blank_lines_are_ignored() -> None:
    hand = _random_hand(cp.Rules(variant="single_sar"), 3, stop_after=9)
    text = "# from a bug report\n\n" + cp.to_record(hand).replace(
        "actions:", "actions:\n# the play"
    )
    assert cp.from_record(text) == hand


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: t.replace("baithak-hand 1", "hand"), "not a hand record"),
        (lambda t: t.replace("variant: rung", "variant: bridge"), "unknown variant"),
        (lambda t: t.replace("court=all13", "court=all12"), "bad value"),
        (lambda t: t.replace("dealer: 3", "dealer: 7"), "dealer"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("seat 2")), "seats"),
        (lambda t: re.sub(r"seat 1: \S+", "seat 1: ZZ", t), "unknown card"),
        (lambda t: t + "x play:AS\n", "action line"),
    ],
)
def test_malformed_records_are_refused(mutate: object, message: str) -> None:
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, seed="bad")
    text = cp.to_record(hand.apply(hand.legal_actions()[0]))
    with pytest.raises(ValueError, match=message):
        cp.from_record(mutate(text))  # type: ignore[operator]


def test_an_illegal_action_in_a_record_names_its_line() -> None:
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, seed="illegal")
    text = cp.to_record(hand) + "1 call:S\n"  # seat 0 is the first chooser, not seat 1
    with pytest.raises(cp.IllegalAction, match=r"line 10: seat 1 call:S: not your turn"):
        cp.from_record(text)
