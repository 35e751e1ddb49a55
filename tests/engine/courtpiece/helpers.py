"""Helpers for the Court Piece rule tests (docs/RULES.md Part 1).

Every rule test builds an explicit deal (four ordered lists of 13 cards: the first five
are the first-round cards, the last is the 13th card, CP-4) and drives the engine only
through the surface in docs/ENGINE_CONTRACT.md and the choices in docs/RULES.md. These
helpers keep the deals honest (52 distinct real cards) and the scripts short.

Many tests use deals whose outcome is *forced*: whatever legal cards the players choose,
the same team takes each trick. Those can be played out with "the first legal card"
without the test depending on the engine's ordering of legal actions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from game.engine import courtpiece as cp

RANKS = "AKQJT98765432"  # high to low (CP-2)
SUITS = "SHDC"
ALL_CARDS: frozenset[str] = frozenset(r + s for s in SUITS for r in RANKS)

Deal = list[list[str]]


def cards(text: str) -> list[str]:
    """``"AS KS 2D"`` -> ``["AS", "KS", "2D"]``."""
    return text.split()


def suit(s: str, ranks: str = RANKS) -> list[str]:
    """Cards of suit ``s`` in the given ranks, in that order (default: all, high to low)."""
    return [r + s for r in ranks]


def make_deal(*hands: str | Sequence[str]) -> Deal:
    """Four hands (each a space-separated string or a list), validated as a real deal.

    Raises ValueError on a wrong count, an unknown card or a repeated card, so a typo in a
    test's deal fails loudly instead of testing something else.
    """
    if len(hands) != 4:
        raise ValueError(f"a deal has 4 hands, got {len(hands)}")
    deal: Deal = []
    for seat, hand in enumerate(hands):
        cards = hand.split() if isinstance(hand, str) else list(hand)
        if len(cards) != 13:
            raise ValueError(f"seat {seat} has {len(cards)} cards, not 13: {cards}")
        unknown = [c for c in cards if c not in ALL_CARDS]
        if unknown:
            raise ValueError(f"seat {seat}: unknown cards {unknown}")
        deal.append(cards)
    flat = [c for hand in deal for c in hand]
    if len(set(flat)) != 52:
        repeated = sorted({c for c in flat if flat.count(c) > 1})
        raise ValueError(f"repeated cards in the deal: {repeated}")
    return deal


def rotate(deal: Deal, r: int) -> Deal:
    """The same deal turned ``r`` seats on: seat (p + r) % 4 gets what seat p had."""
    out: Deal = [[] for _ in range(4)]
    for p in range(4):
        out[(p + r) % 4] = list(deal[p])
    return out


def deal_with(given: dict[int, str], order: str = "") -> Deal:
    """Some seats' hands spelled out; the other seats get the remaining cards in a fixed
    order (spades to clubs, high to low), 13 each. Used where only the given seats matter
    (call-phase tests); the result is still one fixed, explicit deal."""
    fixed = {seat: text.split() for seat, text in given.items()}
    used = {c for cards in fixed.values() for c in cards}
    rest = [c for s in SUITS for c in suit(s) if c not in used]
    hands: list[list[str]] = []
    for seat in range(4):
        if seat in fixed:
            hands.append(fixed[seat])
        else:
            hands.append(rest[:13])
            rest = rest[13:]
    return make_deal(*hands)


# --- Standard deals ---------------------------------------------------------------------------


def ladder(k: int) -> Deal:
    """Team 0 takes exactly ``k`` tricks when spades are trump, however the cards are
    played (1 <= k <= 13).

    Seat 0: the top k spades (listed first) and the lowest 13-k hearts; seat 3: the other
    spades and the top k hearts; seat 1 all clubs; seat 2 all diamonds. Seats 1 and 2 can
    never win a trick (they hold neither trumps nor the suits led), so every trick is
    between seats 0 and 3, and seat 0 wins it exactly when it plays a spade.
    """
    if not 1 <= k <= 13:
        raise ValueError("k must be 1..13")
    seat0 = suit("S", RANKS[:k]) + suit("H", RANKS[k:][::-1])
    seat3 = suit("S", RANKS[k:]) + suit("H", RANKS[:k])
    return make_deal(seat0, suit("C"), suit("D"), seat3)


# Seat 0 calls spades holding six low spades; seat 1 wins all 13 tricks, however played
# (seat 1 holds the higher card of every suit seat 0 can follow, one more spade than
# seat 0's spades are ever needed for, and seats 2/3 hold only diamonds/clubs).
BAAWAN = make_deal(
    "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 8H",
    "AS KS QS JS TS 9S 8S AH KH QH JH TH 9H",
    suit("D"),
    suit("C"),
)

# One whole suit per seat: seat 0 spades, seat 1 hearts, seat 2 diamonds, seat 3 clubs.
SUITS_DEAL = make_deal(suit("S"), suit("H"), suit("D"), suit("C"))

# Suit s, rank index i (A=0 .. 2=12) goes to seat (i + s) % 4: every seat holds cards of
# every suit (4 of its "own" suit, 3 of each other), handy for rank-order tricks.
STRIPES = make_deal(
    *[
        [RANKS[i] + SUITS[s] for s in range(4) for i in range(13) if (i + s) % 4 == p]
        for p in range(4)
    ]
)


# --- Driving the engine -----------------------------------------------------------------------


def new(variant: str, deal: Deal, dealer: int = 3, **options: Any) -> Any:
    return cp.new_hand(cp.Rules(variant=variant, **options), dealer=dealer, deal=deal)


def act(state: Any, actions: str | Iterable[str]) -> Any:
    """Apply actions in order (a space-separated string or a list) and return the state."""
    items = actions.split() if isinstance(actions, str) else list(actions)
    for a in items:
        state = state.apply(a)
    return state


def play(state: Any, cards: str) -> Any:
    """Play the given cards in order, each by whoever is to move."""
    return act(state, [f"play:{c}" for c in cards.split()])


def plays(state: Any) -> list[str]:
    """The legal card plays (without ``ask``/``reveal``/``claim``)."""
    return [a for a in state.legal_actions() if a.startswith("play:")]


def first_play(state: Any) -> str:
    """Policy: the first legal card play, or the first legal action if no card is legal."""
    legal = state.legal_actions()
    return next((a for a in legal if a.startswith("play:")), legal[0])


def lead(state: Any, card: str, policy: Callable[[Any], str] = first_play) -> Any:
    """The player to move leads ``card``; the other three answer by ``policy``.

    Only for forced deals, where the followers' choice cannot change the trick's winner.
    """
    state = state.apply(f"play:{card}")
    for _ in range(3):
        state = state.apply(policy(state))
    return state


def lead_suit(state: Any, s: str, policy: Callable[[Any], str] = first_play) -> Any:
    """The player to move leads their first legal card of suit ``s``; the others answer by
    ``policy``. For forced deals only (see :func:`lead`)."""
    card = next(a[5:] for a in plays(state) if a.endswith(s))
    return lead(state, card, policy)


def trick(state: Any, plan: dict[int, str], policy: Callable[[Any], str] = first_play) -> Any:
    """One trick: seats named in ``plan`` play that card, the others answer by ``policy``."""
    for _ in range(4):
        seat = state.to_move
        state = state.apply(f"play:{plan[seat]}" if seat in plan else policy(state))
    return state


def play_out(state: Any, policy: Callable[[Any], str] = first_play) -> Any:
    """Play until the hand is over."""
    for _ in range(200):
        if state.is_over:
            return state
        state = state.apply(policy(state))
    raise AssertionError("hand did not end within 200 actions")


def card_plays(state: Any) -> int:
    """How many cards have been played in this hand (from the history)."""
    return sum(1 for _, a in state.history if a.startswith("play:"))


def tricks_played(state: Any) -> int:
    return card_plays(state) // 4


def shows(view: dict[str, Any], card: str) -> bool:
    """Whether a view mentions ``card`` anywhere (key names are the engine's business)."""
    return re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", json.dumps(view)) is not None


def snapshot(state: Any) -> tuple[Any, ...]:
    """What a failed action must leave unchanged."""
    return (
        state.to_move,
        state.legal_actions(),
        list(state.history),
        state.is_over,
        [json.dumps(state.view(s), sort_keys=True) for s in (0, 1, 2, 3, None)],
    )


def hand_cards(state: Any, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])


# --- Policies for whole matches ---------------------------------------------------------------


def rank_value(card: str) -> int:
    """2 -> 0 … A -> 12."""
    return 12 - RANKS.index(card[0])


def biased(favoured: int) -> Callable[[Any], str]:
    """A deterministic policy that helps team ``favoured`` win tricks: its players play
    their strongest legal card (trumps first), the others their weakest. Callers name the
    suit they hold most of; in Hukum the first bidder bids 7 in it and the others pass.
    Never redeals, claims, asks or reveals unless nothing else is legal."""

    def choose(state: Any) -> str:
        legal = state.legal_actions()
        seat = state.to_move
        card_moves = [a for a in legal if a.startswith("play:")]
        if card_moves:
            trump = state.trump

            def strength(action: str) -> tuple[bool, int]:
                return (action[-1] == trump, rank_value(action[5:]))

            pick = max if seat % 2 == favoured else min
            return pick(card_moves, key=strength)
        hand = state.view(seat)["hand"]

        def held(action: str) -> int:
            return sum(1 for c in hand if c[1] == action[-1])

        calls = [a for a in legal if a.startswith(("call:", "hide:"))]
        if calls:
            return max(calls, key=held)
        sevens = [a for a in legal if a.startswith("bid:7")]
        if sevens and seat == state.first_chooser:
            return max(sevens, key=held)
        if "pass" in legal:
            return "pass"
        return legal[0]

    return choose


def finish_hand(match: Any, policy: Callable[[Any], str]) -> Any:
    """Apply the policy's actions until the match's current hand is over (the match then
    starts the next hand by itself) or the match ends."""
    done = len(match.hands)
    for _ in range(300):
        if match.is_over or len(match.hands) > done:
            return match
        match = match.apply(policy(match.hand))
    raise AssertionError("hand did not end within 300 actions")
