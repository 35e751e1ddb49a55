"""A finished Court Piece hand judged card by card with every hand visible (double dummy),
by Bo Haglund's DDS through endplay: the protocol's ``"double_dummy"`` analysis
(docs/TABLE_PROTOCOL.md, "Analysis").

DDS solves plain trick-taking with one trump suit: Rung, Single Sar and Hukum, whose trump
everyone knows before the first card (``Rules.plain_trick_taking``). Other hands get
``{"kind": "unsupported", "why": …}``; the words for ``why`` are in
``game.courtpiece.analysis_words``, put in the asker's language when sent.

Seats map to DDS's players one to one (seat 0 North, 1 East, 2 South, 3 West: both play
in that order), teams (0, 2) and (1, 3) to North-South and East-West.

DDS keeps its search memory per thread index and endplay always passes index 0, so two
solves at once in one process would share it: every call here holds ``SOLVER_LOCK``.
One position after another of the same deal, it reuses what it found: a hand's 52
solve_board calls take about as long as one solve_all_boards call of them all, which
spreads the positions over DDS's threads but starts each afresh (measured 0.1 s against
0.6 s a hand).
The library releases the GIL while it searches (ctypes), so the event loop runs on while
a pool thread waits here.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from game.engine.courtpiece import TrumpKnown

SOLVER_LOCK = threading.Lock()

# Why a hand cannot be judged double dummy (keys of analysis_words.UNSUPPORTED).
TRUMP_HIDDEN = "trump_hidden"
TRUMP_IN_PLAY = "trump_in_play"
PILES = "piles"
TENS = "tens"
NO_PLAY = "no_play"


def unsupported_reason(hand: Any) -> str | None:
    """Why this finished hand is not plain trick-taking with a known trump (None: it is)."""
    rules = hand.rules
    if rules.tens_count:
        return TENS
    if rules.piles:
        return PILES
    if rules.trump_known is TrumpKnown.WHEN_REVEALED:
        return TRUMP_HIDDEN
    if rules.trump_known is not TrumpKnown.FROM_START:
        return TRUMP_IN_PLAY
    if not hand.trump or not plays(hand):
        return NO_PLAY
    return None


def plays(hand: Any) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """Every trick begun, in order: (its number from 1, its leader, the cards played to it
    as (seat, card)). A hand stopped once decided ends at its last trick."""
    out: list[tuple[int, int, list[tuple[int, str]]]] = []
    for number, trick in enumerate(hand.completed_tricks(), start=1):
        out.append(
            (number, int(trick["leader"]), [(int(c["seat"]), c["card"]) for c in trick["cards"]])
        )
    current = hand.view(None)["trick"]
    if current:
        leader = int(current[0]["seat"])
        out.append((len(out) + 1, leader, [(int(c["seat"]), c["card"]) for c in current]))
    return out


def positions(hand: Any) -> list[dict[str, Any]]:
    """Before each card played: the cards each seat held at the start of that trick, the
    trick's leader and the cards already on it, and the card then played."""
    held = [set(cards) for cards in hand.deal]
    out = []
    for number, leader, cards in plays(hand):
        at_start = [sorted(h) for h in held]
        for i, (seat, card) in enumerate(cards):
            out.append(
                {
                    "trick": number,
                    "leader": leader,
                    "hands": at_start,
                    "before": [c for _s, c in cards[:i]],
                    "seat": seat,
                    "card": card,
                }
            )
        for seat, card in cards:
            held[seat].discard(card)
    return out


def _pbn(hands: Sequence[Sequence[str]]) -> str:
    def one(cards: Sequence[str]) -> str:
        return ".".join(
            "".join(
                rank
                for rank in "AKQJT98765432"
                if f"{rank}{suit}" in cards
            )
            for suit in "SHDC"
        )

    return "N:" + " ".join(one(h) for h in hands)


def deal_at(hands: Sequence[Sequence[str]], trump: str, leader: int, before: Sequence[str]) -> Any:
    """endplay's Deal for one position: the hands at the trick's start, trump, the leader
    and the cards already played to the trick."""
    from endplay.types import Card, Deal, Denom, Player

    deal = Deal(_pbn(hands))
    deal.trump = Denom("SHDC".index(trump))
    deal.first = Player(leader)
    for card in before:
        deal.play(Card(card[1] + card[0]))
    return deal


def card_text(card: Any) -> str:
    """endplay's Card as the engine writes it ("QS")."""
    return "23456789TJQKA"[int(card.rank).bit_length() - 3] + "SHDC"[int(card.suit)]


def solve(deal: Any) -> dict[str, int]:
    """Each card the player to move may play -> the tricks their side then takes from
    this trick (included) to the last, every hand visible (endplay's solve_board)."""
    from endplay.dds import solve_board

    with SOLVER_LOCK:
        solved = list(solve_board(deal))
    return {card_text(card): int(tricks) for card, tricks in solved}


def judge(scores: dict[str, int], card: str) -> dict[str, Any]:
    """best, played, cost and best_cards of one card from its position's scores."""
    best = max(scores.values())
    played = scores[card]
    return {
        "best": best,
        "played": played,
        "cost": best - played,
        "best_cards": sorted(
            (c for c, t in scores.items() if t == best), key=_card_order
        ),
    }


def _card_order(card: str) -> tuple[int, int]:
    return ("SHDC".index(card[-1]), -"23456789TJQKA".index(card[0]))


def analyse(hand: Any) -> dict[str, Any]:
    """The hand's analysis without words: ``double_dummy`` (trump, par, each card) or
    ``unsupported`` with the reason's key."""
    why = unsupported_reason(hand)
    if why is not None:
        return {"kind": "unsupported", "why": why}
    trump = str(hand.trump)
    cards = []
    par: list[int] | None = None
    for position in positions(hand):
        scores = solve(
            deal_at(position["hands"], trump, position["leader"], position["before"])
        )
        entry = {
            "trick": position["trick"],
            "seat": position["seat"],
            "card": position["card"],
            **judge(scores, position["card"]),
        }
        if par is None:  # the leader's side's best from the first card, and the rest
            side = position["seat"] % 2
            par = [0, 0]
            par[side], par[1 - side] = entry["best"], 13 - entry["best"]
        cards.append(entry)
    return {"kind": "double_dummy", "trump": trump, "par": par, "cards": cards}
