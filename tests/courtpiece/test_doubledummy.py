"""The double-dummy analysis of a finished hand (docs/TABLE_PROTOCOL.md, "Analysis")
equals endplay's own solve_board, card by card, on random finished hands: the oracle here
replays the whole hand inside endplay's Deal (its own play()), never through the module's
positions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from endplay.dds import solve_board
from endplay.types import Card, Deal, Denom, Player

from game.courtpiece import analysis as words
from game.courtpiece import doubledummy
from game.engine import courtpiece as cp
from tests.bots.helpers import play_hand, random_legal


def _oracle(hand: Any) -> list[dict[str, Any]]:
    """Each card played: (best, played, cost, best cards) by endplay alone."""
    pbn = "N:" + " ".join(
        ".".join("".join(r for r in "AKQJT98765432" if r + s in cards) for s in "SHDC")
        for cards in hand.deal
    )
    deal = Deal(pbn)
    deal.trump = Denom("SHDC".index(hand.trump))
    plays = [(s, a[5:]) for s, a in hand.history if a.startswith("play:")]
    deal.first = Player(plays[0][0])
    out = []
    for seat, card in plays:
        assert int(deal.curplayer) == seat
        scores = {
            "23456789TJQKA"[int(c.rank).bit_length() - 3] + "SHDC"[int(c.suit)]: t
            for c, t in solve_board(deal)
        }
        best = max(scores.values())
        out.append({
            "seat": seat, "card": card, "best": best, "played": scores[card],
            "cost": best - scores[card],
            "best_cards": {c for c, t in scores.items() if t == best},
        })
        deal.play(Card(card[1] + card[0]))
    return out


def _finished(variant: str, seed: int, **options: Any) -> Any:
    rng = random.Random(seed)
    for attempt in range(20):  # a redeal plays no card: deal on
        hand, _n = play_hand(
            cp.Rules(variant, **options), f"dd-{seed}-{attempt}", [random_legal(rng)] * 4,
            dealer=seed % 4,
        )
        if hand.trump and doubledummy.plays(hand):
            return hand
    raise AssertionError("no hand with card play")


@pytest.mark.parametrize(
    ("variant", "seed", "options"),
    [("rung", 1, {}), ("rung", 2, {"court": "first7"}), ("single_sar", 3, {}),
     ("hukum", 4, {}), ("hukum", 5, {"bidding": False}), ("rung", 6, {"claim82": False})],
)
def test_the_analysis_equals_endplays_solve_board_card_by_card(
    variant: str, seed: int, options: dict[str, Any]
) -> None:
    hand = _finished(variant, seed, **options)
    got = doubledummy.analyse(hand)
    assert got["kind"] == "double_dummy" and got["trump"] == hand.trump
    expected = _oracle(hand)
    assert len(got["cards"]) == len(expected) >= 4
    tricks = [c["trick"] for c in got["cards"]]
    assert tricks == sorted(tricks) and tricks[0] == 1
    for mine, theirs in zip(got["cards"], expected, strict=True):
        assert (mine["seat"], mine["card"]) == (theirs["seat"], theirs["card"])
        assert (mine["best"], mine["played"], mine["cost"]) == (
            theirs["best"], theirs["played"], theirs["cost"]
        )
        assert set(mine["best_cards"]) == theirs["best_cards"]
        assert mine["cost"] >= 0
        assert (mine["cost"] == 0) == (mine["card"] in mine["best_cards"])
    first = got["cards"][0]
    side = first["seat"] % 2
    assert got["par"][side] == first["best"] and sum(got["par"]) == 13


@pytest.mark.parametrize(
    ("variant", "why"),
    [("hidden", doubledummy.TRUMP_HIDDEN), ("be_ranga", doubledummy.TRUMP_IN_PLAY),
     ("double_sar", doubledummy.PILES), ("mendikot", doubledummy.TENS)],
)
def test_hands_dds_cannot_model_are_unsupported_with_a_reason(variant: str, why: str) -> None:
    # CP-HID-1 (trump face down), CP-BR-1 (trump fixed in play), CP-DS-1 (piles),
    # CP-MK (tens decide)
    hand, _n = play_hand(cp.Rules(variant), "u1", [random_legal(random.Random(1))] * 4)
    data = doubledummy.analyse(hand)
    assert data == {"kind": "unsupported", "why": why}
    said = words.analysis_words(data)
    assert said["kind"] == "unsupported" and "why" not in said
    assert said["reason"] == words.reasons()[why] and len(said["reason"]) > 20


def test_scoring_the_played_card_by_the_next_position_equals_solve_board_on_many_hands() -> None:
    # analyse solves most positions for their best cards only and scores the card played
    # by the position after it (and forced cards not at all): on many random hands,
    # every field still equals endplay's solve_board of that very position.
    for seed in range(10, 22):
        hand = _finished("rung", seed)
        got = doubledummy.analyse(hand)["cards"]
        expected = _oracle(hand)
        assert [
            (c["seat"], c["card"], c["best"], c["played"], c["cost"], set(c["best_cards"]))
            for c in got
        ] == [
            (e["seat"], e["card"], e["best"], e["played"], e["cost"], e["best_cards"])
            for e in expected
        ]
