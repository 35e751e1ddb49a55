"""The sampler (``game.bots.courtpiece.sampling``): deals consistent with everything the
seat knows, deterministic for (view, count, seed); and the DDS wrapper."""

from __future__ import annotations

from typing import Any

import pytest

from game.bots import courtpiece as cpbot
from game.bots.courtpiece.sampling import dd_tricks, knowledge, sample_deals, sample_worlds
from game.engine import courtpiece as cp
from tests.engine.courtpiece.helpers import act, make_deal, new


def seeded_views(variant: str, hands: int, **options: Any) -> list[dict[str, Any]]:
    """Every seat's view at every play step of a few seeded medium-bot hands (with the
    Single Sar clock running out now and then, for turned and blind cards)."""
    out = []
    for i in range(hands):
        hand = cp.new_hand(cp.Rules(variant, **options), dealer=i % 4, seed=f"s-{variant}-{i}")
        step = 0
        while not hand.is_over:
            seat = hand.to_move
            view = hand.view(seat)
            if view["phase"] == "play":
                out.extend(hand.view(s) for s in range(4))
            if hand.timeout_legal and i % 2 == 1:
                hand = hand.apply("timeout")
            else:
                hand = hand.apply(cpbot.choose(view, "medium"), seat)
            step += 1
    return out


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_every_sampled_deal_keeps_to_what_the_seat_knows(variant: str) -> None:
    """Own hand exact (CP-HID-1: the caller's face-down card is theirs), as many cards as
    each seat holds, no card played or doubled, voids kept (CP-5; but for the face-down
    card, CP-HID-2), public cards with their holder (CP-RUNG-1, CP-SS-4, CP-HID-4)."""
    for view in seeded_views(variant, 3)[::7]:
        seat = view["seat"]
        k = knowledge(view)
        played = {e["card"] for t in view["completed_tricks"] for e in t["cards"]}
        played |= {e["card"] for e in view["trick"]}
        hidden = view.get("hidden") or {}
        for deal in sample_deals(view, 5, seed=1):
            assert [len(h) for h in deal] == view["hand_counts"]
            mine = set(view["hand"])
            if hidden.get("card") and not hidden.get("revealed") and view["caller"] == seat:
                mine.add(hidden["card"])
            blind = hidden.get("blind") and not hidden.get("revealed")
            if blind and view["caller"] == seat:  # CP-HID-7: unseen even by the caller
                assert mine < set(deal[seat])
            else:
                assert set(deal[seat]) == mine
            everything = [c for h in deal for c in h]
            assert len(everything) == len(set(everything))
            assert not set(everything) & played
            for s in range(4):
                off = [c for c in deal[s] if k.voids[s] >> "SHDC".index(c[1]) & 1]
                assert len(off) <= (1 if hidden.get("placed") and s == view["caller"] else 0)
            for key in ("thirteenth_card", "turned_card"):
                card = view.get(key)
                if card and card not in played:
                    assert card in deal[view["caller"]]


def test_deterministic_for_view_count_and_seed() -> None:
    view = seeded_views("rung", 1)[20]
    assert sample_deals(view, 6, seed=3) == sample_deals(view, 6, seed=3)
    assert sample_deals(view, 6, seed=3) != sample_deals(view, 6, seed=4)
    assert sample_deals(view, 6) == sample_deals(dict(view), 6)
    assert len(sample_deals(view, 0)) == 0


def test_a_spectator_has_no_seat_to_sample_for() -> None:
    hand = cp.new_hand(cp.Rules("rung"), dealer=3, seed="spectator").apply("call:S")
    with pytest.raises(ValueError, match="spectator"):
        sample_deals(hand.view(None), 3)


def test_the_callers_trump_is_long_in_the_samples() -> None:
    """CP-4: the caller named trump from their first five; the deals say so (weighted),
    unlike deals that keep only the certain facts."""
    hand = cp.new_hand(cp.Rules("rung"), dealer=3, seed="long")
    hand = act(hand, "call:H")
    view = hand.view(1)

    def mean_length(worlds: list[Any]) -> float:
        return sum(sum(1 for c in w.hands[0] if c // 13 == 1) for w in worlds) / len(worlds)

    weighted = mean_length(sample_worlds(view, 200, seed=1))
    plain = mean_length(sample_worlds(view, 200, seed=1, infer=False))
    assert weighted > plain + 0.5


def test_the_hidden_card_is_dealt_to_the_caller() -> None:
    """CP-HID-1/2: the face-down card is the caller's, unknown to the others: every deal
    gives it to the caller (twelve in hand and it), and its suit is not fixed (it is
    any of the cards nobody else has seen)."""
    deal = make_deal(
        "2S AD KD QD 3H JD TD 9D 8D 4H 5H 6H 7H",
        "AS KS QS JS TS 9S 2C 3C 4C 5C 6C 7C 8C",
        "8S 7S 6S 5S 4S 3S 7D 6D 5D 4D 3D 2D 9C",
        "AH KH QH JH TH 9H 8H 2H TC JC QC KC AC",
    )
    state = act(new("hidden", deal), "hide:2S play:AD")
    view = state.view(1)
    assert view["hidden"]["card"] is None and view["hand_counts"][0] == 12
    worlds = sample_worlds(view, 40, seed=2)
    for w in worlds:
        assert len(w.hands[0]) == 12 and w.hidden in w.hands[0]
        assert all(w.hidden not in w.hands[s] for s in (1, 2, 3))
    assert len({w.hidden // 13 for w in worlds}) >= 2


def test_dd_tricks_values_each_card_double_dummy() -> None:
    """Three cards each, seat 0 to lead with A K of spades and a low heart; seat 3 holds
    the A K of hearts. No trump: cashing a spade first keeps two tricks for seats 0 and 2
    (the spades), the heart lead gives the opponents two. Spades trump: the heart lead
    costs nothing, as seat 0 ruffs the king of hearts."""
    hands = [["AS", "KS", "2H"], ["QS", "3H", "4H"], ["JS", "5H", "TD"], ["2S", "AH", "KH"]]
    assert dd_tricks(hands, None, 0) == {"AS": 2, "KS": 2, "2H": 1}
    assert dd_tricks(hands, "S", 0) == {"AS": 2, "KS": 2, "2H": 2}
    # Seat 1 to play after the heart lead, spades trump: its side takes one trick.
    after = [["AS", "KS"], ["QS", "3H", "4H"], ["JS", "5H", "TD"], ["2S", "AH", "KH"]]
    assert dd_tricks(after, "S", 1, [(0, "2H")]) == {"3H": 1, "4H": 1}
