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

DDS's search memory (its transposition table) is sized before the first solve by
``TABLES_DDS_MEMORY`` (docs/CONFIGURATION.md): ``small`` (the default) gives thread 0
DDS's small table, which it frees after each solve, so a server process's memory stays
flat; ``large`` keeps what endplay sets up on import (DDS's large table for each of the
machine's cores), which never gives back what it grew to: 68 MiB after 100 hands, 88-92
after 200-300, for 8-15% less CPU a hand (bench/dds_memory.py;
docs/PERFORMANCE.md, "DDS's memory"; issue 26).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from game.bots.courtpiece import sampling
from game.engine.courtpiece import TrumpKnown

SOLVER_LOCK = threading.Lock()
# The bots solve under it too: the medium bot searches endgames in the clock's threads.
sampling.DDS_GUARD = SOLVER_LOCK

# TABLES_DDS_MEMORY -> SetResources(megabytes, threads) before the first solve (None:
# endplay's own set-up). DDS picks its small table under about 100 MB for one thread;
# too little for even that (20 MB) leaves it no thread at all, and it exits.
DDS_MEMORY: dict[str, tuple[int, int] | None] = {"small": (64, 1), "large": None}
_sized: str | None = None  # the TABLES_DDS_MEMORY applied in this process


def dds_memory() -> str:
    """``TABLES_DDS_MEMORY``: ``small`` unless set to ``large`` (anything else: small)."""
    value = os.environ.get("TABLES_DDS_MEMORY", "small").strip().lower()
    return value if value in DDS_MEMORY else "small"


def size_memory() -> str:
    """Size DDS's search memory as ``TABLES_DDS_MEMORY`` says, once per process (call with
    ``SOLVER_LOCK`` held, before a solve). Returns the size in force."""
    global _sized
    if _sized is None:
        wanted = dds_memory()
        resources = DDS_MEMORY[wanted]
        if resources is not None:
            from endplay import _dds

            _dds._dll.SetResources(*resources)
        _sized = wanted
    return _sized

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


def solve(deal: Any, best_only: bool = False) -> dict[str, int]:
    """Each card the player to move may play -> the tricks their side then takes from
    this trick (included) to the last, every hand visible (endplay's solve_board).
    ``best_only``: only the cards that reach the most (DDS's "all optimal cards", a
    cheaper search: the others are only shown to fall short, not scored)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    mode = SolveMode.OptimalAll if best_only else SolveMode.Default
    with SOLVER_LOCK:
        size_memory()
        solved = list(solve_board(deal, mode))
    return {card_text(card): int(tricks) for card, tricks in solved}


def legal_cards(position: dict[str, Any]) -> list[str]:
    """The cards the mover of ``position`` may play (follow suit if able)."""
    held = position["hands"][position["seat"]]
    if position["before"]:
        led = position["before"][0][-1]
        follow = [c for c in held if c[-1] == led]
        if follow:
            return follow
    return list(held)


def after_card(position: dict[str, Any], following: dict[str, Any], best: int) -> int:
    """The tricks the mover's side of ``position`` takes (from its trick on) after the
    card it played, from ``best`` of the position that ``following`` is: the same
    double-dummy value seen from the next mover's side (and the trick just won)."""
    side = position["seat"] % 2
    left = 14 - int(position["trick"])  # tricks from this one to the 13th
    same = following["seat"] % 2 == side
    if following["trick"] == position["trick"]:
        return best if same else left - best
    won = 1 if following["leader"] % 2 == side else 0
    return won + (best if same else left - 1 - best)


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
    ``unsupported`` with the reason's key.

    The positions are solved from the last back to the first, and each only for its best
    cards (``solve(…, best_only=True)``): the card actually played is scored by the
    position it led to (``after_card``: double-dummy values are exact, so this is the
    number solve_board gives it), a position with one legal card needs no solve, and only
    the last position is solved in full. Equal to solve_board card by card
    (tests/courtpiece/test_doubledummy.py); about a sixth less search than scoring every
    card of every position (docs/PERFORMANCE.md)."""
    why = unsupported_reason(hand)
    if why is not None:
        return {"kind": "unsupported", "why": why}
    trump = str(hand.trump)
    found = positions(hand)
    cards: list[dict[str, Any]] = []
    following: dict[str, Any] | None = None
    following_best = 0
    for position in reversed(found):
        card = position["card"]
        if following is None:  # the last card played: nothing after it to score it by
            scores = solve(
                deal_at(position["hands"], trump, position["leader"], position["before"])
            )
            entry = judge(scores, card)
        else:
            played = after_card(position, following, following_best)
            legal = legal_cards(position)
            if len(legal) == 1:
                scores = {card: played}
            else:
                scores = solve(
                    deal_at(position["hands"], trump, position["leader"], position["before"]),
                    best_only=True,
                )
                if card not in scores:
                    scores[card] = played
            entry = judge(scores, card)
        cards.append(
            {"trick": position["trick"], "seat": position["seat"], "card": card, **entry}
        )
        following, following_best = position, entry["best"]
    cards.reverse()
    par: list[int] | None = None
    if cards:  # the leader's side's best from the first card, and the rest
        side = cards[0]["seat"] % 2
        par = [0, 0]
        par[side], par[1 - side] = cards[0]["best"], 13 - cards[0]["best"]
    return {"kind": "double_dummy", "trump": trump, "par": par, "cards": cards}
