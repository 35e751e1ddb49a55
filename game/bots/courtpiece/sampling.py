"""Deals consistent with what one seat knows, and a double-dummy solver over them.

:func:`sample_deals` is the sampler the ``hard`` bot and the replay's analysis share. It
reads only a view (``cp.Hand.view(seat)`` or ``cp.Match.view(seat)``) and deals the cards
that seat has not seen to the other seats, so that every deal keeps to what the seat
knows:

* its own hand, exactly; the cards played, by whom (they are gone);
* **voids**: a seat that did not follow a suit holds none of it (RULES.md CP-5), except
  the Hidden Rung caller's face-down card, which the caller could not play (CP-HID-2);
* **public cards still held**: the 13th card of a Rung ``thirteenth`` call (CP-RUNG-1),
  the turned-up card (CP-SS-4), the revealed Hidden Rung card (CP-HID-4), an 82 claim's
  open hand (CP-RUNG-5) stay with their holder;
* **how many** cards each seat holds (``hand_counts``; the Hidden Rung caller's face-down
  card is one of theirs and is dealt to them, CP-HID-1: placed from their first five,
  which any of their cards can have been, since nobody else saw those five);
* **what the calls say** (weighted, not certain): a caller who named trump from their
  first five (CP-4), and a Hukum bidder who named a suit (CP-HK-1), are long in it. A deal
  giving such a seat few cards of that suit is kept only with probability
  ``2 ** (length - 5)`` (length counted over the whole 13, played cards included), tried
  over a bounded number of draws so the sampler always answers.

The unseen cards are dealt exactly uniformly among all deals that keep the hard
constraints (counts and voids): per suit, how many cards go to each seat is drawn in
proportion to the number of deals with those counts (a small dynamic programme over the
seats' free places), then the cards of each suit are shuffled into those places.

Everything is deterministic for ``(view, count, seed)``: the random numbers come from a
seeded stream (:mod:`.rng`) drawn from the view's own content and ``seed``.

:func:`dd_tricks` wraps endplay's DDS (a C library reached through ctypes, which releases
the GIL while it searches): for one full position it gives each card the seat to move may
play and the most tricks, from here on, the side to move can then take.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from game.engine.courtpiece.cards import CARD_INDEX, CARD_STR, SUITS

from .rng import Stream

MIN_LENGTH_KEPT = 5  # a caller/bidder holding this many of their suit is always kept


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of where the cards are, from its view."""

    seat: int
    held: tuple[frozenset[int], ...]  # cards known to be in each seat's hand now
    counts: tuple[int, ...]  # how many cards each seat holds now (face-down card included)
    voids: tuple[int, ...]  # per seat, a 4-bit set of suits it cannot hold
    unseen: tuple[int, ...]  # the cards still to deal, low to high
    played_by: tuple[tuple[int, ...], ...]  # each seat's played cards, in order
    hidden_holder: int  # the seat whose face-down card is unknown here, or -1
    long_suits: tuple[tuple[int, int], ...]  # (seat, suit): a call/bid says long in suit


def hand_view(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The hand's view inside a Match view, or the view itself."""
    inner = view.get("hand")
    return inner if isinstance(inner, Mapping) else view


def knowledge(view: Mapping[str, Any]) -> Knowledge:
    """Parse a view into what its seat knows of the deal (see the module docstring)."""
    hv = hand_view(view)
    seat = hv["seat"]
    if not isinstance(seat, int):
        raise ValueError("a spectator's view has no seat to sample for")
    held: list[set[int]] = [set(), set(), set(), set()]
    held[seat] = {CARD_INDEX[c] for c in hv["hand"]}
    voids = [0, 0, 0, 0]
    played_by: list[list[int]] = [[], [], [], []]
    tricks = [t["cards"] for t in hv.get("completed_tricks") or []]
    if hv.get("trick"):
        tricks.append(hv["trick"])
    played: set[int] = set()
    for cards in tricks:
        led = CARD_INDEX[cards[0]["card"]] // 13
        for e in cards:
            c = CARD_INDEX[e["card"]]
            played.add(c)
            played_by[e["seat"]].append(c)
            if c // 13 != led:
                voids[e["seat"]] |= 1 << led
    counts = list(hv.get("hand_counts") or [0, 0, 0, 0])
    caller = hv.get("caller")
    hidden = hv.get("hidden") or {}
    hidden_holder = -1
    public: list[tuple[int, str]] = []
    if isinstance(caller, int):
        for key in ("thirteenth_card", "turned_card"):
            if hv.get(key):
                public.append((caller, hv[key]))
        if hidden.get("placed") and hidden.get("card"):
            public.append((caller, hidden["card"]))  # revealed, or our own face-down card
        elif hidden.get("placed"):
            hidden_holder = caller
    for opened in hv.get("open_hands") or []:
        for c in opened["cards"]:
            public.append((opened["seat"], c))
    for holder, text in public:
        c = CARD_INDEX[text]
        if c not in played and holder != seat:
            held[holder].add(c)
    known = set().union(*held) | played
    unseen = tuple(c for c in range(52) if c not in known)
    long_suits: list[tuple[int, int]] = []
    trump = hv.get("trump")
    for actor, action in hv.get("history") or []:
        if actor == seat:
            continue
        if action.startswith("call:"):
            long_suits.append((actor, SUITS.index(action[5])))
        elif action.startswith("bid:"):
            long_suits.append((actor, SUITS.index(action[-1])))
        elif action.startswith("hide") and trump and not hidden.get("blind"):
            long_suits.append((actor, SUITS.index(trump)))
    return Knowledge(
        seat=seat,
        held=tuple(frozenset(h) for h in held),
        counts=tuple(counts),
        voids=tuple(voids),
        unseen=unseen,
        played_by=tuple(tuple(p) for p in played_by),
        hidden_holder=hidden_holder,
        long_suits=tuple(long_suits),
    )


def _seed_for(view: Mapping[str, Any], count: int, seed: int | None) -> int:
    text = json.dumps(view, sort_keys=True, default=str) + f"|{count}|{seed}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _ways_table(
    by_suit: list[list[int]], places: tuple[int, ...], allowed: list[list[bool]]
) -> list[dict[tuple[int, ...], int]]:
    """ways[i][free places] = number of deals of suits i.. into those free places."""
    seats = len(places)
    ways: list[dict[tuple[int, ...], int]] = [dict() for _ in range(5)]
    ways[4][tuple([0] * seats)] = 1

    def count(i: int, free: tuple[int, ...]) -> int:
        if i == 4:
            return 1 if not any(free) else 0
        memo = ways[i]
        if free in memo:
            return memo[free]
        total = 0
        for split in _splits(len(by_suit[i]), free, allowed[i]):
            rest = tuple(f - k for f, k in zip(free, split, strict=True))
            sub = count(i + 1, rest)
            if sub:
                total += _multinomial(len(by_suit[i]), split) * sub
        memo[free] = total
        return total

    count(0, places)
    return ways


def _splits(n: int, free: tuple[int, ...], allowed: list[bool]) -> list[tuple[int, ...]]:
    """Every way to put n cards into seats (at most their free places, none where void)."""
    out: list[tuple[int, ...]] = []

    def rec(j: int, left: int, acc: list[int]) -> None:
        if j == len(free) - 1:
            if left <= free[j] and (allowed[j] or left == 0):
                out.append((*acc, left))
            return
        top = min(left, free[j]) if allowed[j] else 0
        for k in range(top + 1):
            rec(j + 1, left - k, [*acc, k])

    rec(0, n, [])
    return out


def _multinomial(n: int, split: Sequence[int]) -> int:
    out = 1
    for k in split:
        out *= comb(n, k)
        n -= k
    return out


def _deal_uniform(
    rng: Stream,
    cards: Sequence[int],
    seats: list[int],
    places: tuple[int, ...],
    voids: Sequence[int],
) -> list[list[int]] | None:
    """Deal ``cards`` into ``places`` (per seat in ``seats``) uniformly among the deals
    that give no seat a suit it is void in; None when no such deal exists."""
    by_suit = [[c for c in cards if c // 13 == s] for s in range(4)]
    allowed = [[not (voids[p] >> s & 1) for p in seats] for s in range(4)]
    ways = _ways_table(by_suit, places, allowed)
    free = places
    if not ways[0].get(free):
        return None
    out: list[list[int]] = [[] for _ in seats]
    for i in range(4):
        options = []
        for split in _splits(len(by_suit[i]), free, allowed[i]):
            rest = tuple(f - k for f, k in zip(free, split, strict=True))
            w = _multinomial(len(by_suit[i]), split) * ways[i + 1].get(rest, 0)
            if w:
                options.append((w, split, rest))
        pick = rng.randrange(sum(w for w, _, _ in options))
        chosen = 0
        while pick >= options[chosen][0]:
            pick -= options[chosen][0]
            chosen += 1
        _, split, rest = options[chosen]
        suit_cards = list(by_suit[i])
        rng.shuffle(suit_cards)
        at = 0
        for j, k in enumerate(split):
            out[j].extend(suit_cards[at : at + k])
            at += k
        free = rest
    return out


@dataclass(frozen=True)
class World:
    """One deal consistent with a seat's knowledge: what each seat holds now (the
    Hidden Rung caller's face-down card included), and which card is face down (-1
    when none is, or when the seat sampling already knows it)."""

    hands: tuple[tuple[int, ...], ...]
    hidden: int


def _one_world(rng: Stream, k: Knowledge) -> World | None:
    others = [s for s in range(4) if s != k.seat]
    places = tuple(k.counts[s] - len(k.held[s]) for s in others)
    if any(p < 0 for p in places) or sum(places) != len(k.unseen):
        raise ValueError("the view's card counts do not add up")
    cards = list(k.unseen)
    hidden = -1
    voids = list(k.voids)
    if k.hidden_holder >= 0 and k.hidden_holder != k.seat:
        # The face-down card escapes the holder's voids (CP-HID-2): draw it first, in
        # proportion to the deals of the rest.
        j = others.index(k.hidden_holder)
        rest_places = tuple(p - (1 if i == j else 0) for i, p in enumerate(places))
        weights = []
        for c in cards:
            rest = [x for x in cards if x != c]
            by_suit = [[x for x in rest if x // 13 == s] for s in range(4)]
            allowed = [[not (voids[p] >> s & 1) for p in others] for s in range(4)]
            weights.append(_ways_table(by_suit, rest_places, allowed)[0].get(rest_places, 0))
        if not any(weights):
            return None
        hidden = rng.weighted(cards, weights)
        cards.remove(hidden)
        places = rest_places
    dealt = _deal_uniform(rng, cards, others, places, voids)
    if dealt is None:
        return None
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    hands[k.seat] = tuple(sorted(k.held[k.seat]))
    for j, s in enumerate(others):
        extra = [hidden] if s == k.hidden_holder and hidden >= 0 else []
        hands[s] = tuple(sorted([*k.held[s], *dealt[j], *extra]))
    return World(hands=tuple(hands), hidden=hidden)


def _keep_probability(k: Knowledge, world: World) -> float:
    p = 1.0
    for seat, suit in k.long_suits:
        length = sum(1 for c in world.hands[seat] if c // 13 == suit)
        length += sum(1 for c in k.played_by[seat] if c // 13 == suit)
        if length < MIN_LENGTH_KEPT:
            p *= 2.0 ** (length - MIN_LENGTH_KEPT)
    return p


def sample_worlds(
    view: Mapping[str, Any], count: int, seed: int | None = None, infer: bool = True
) -> list[World]:
    """``count`` worlds (see :class:`World`) consistent with the view, as
    :func:`sample_deals` describes; deterministic for ``(view, count, seed)``.
    ``infer=False`` keeps only the certain facts (no weighting by calls and bids)."""
    if count < 0:
        raise ValueError("count must be >= 0")
    k = knowledge(view)
    rng = Stream(_seed_for(view, count, seed))
    kept: list[World] = []
    spare: list[World] = []
    for _ in range(6 * count):
        if len(kept) >= count:
            break
        world = _one_world(rng, k)
        if world is None:
            raise ValueError("no deal fits what this view shows")
        if not infer or rng.random() < _keep_probability(k, world):
            kept.append(world)
        else:
            spare.append(world)
    # Bounded effort: when the calls say more than the deals bear, the weighting yields.
    return (kept + spare)[:count]


def sample_deals(
    view: Mapping[str, Any], count: int, seed: int | None = None
) -> list[list[list[str]]]:
    """``count`` full deals consistent with everything the view's seat knows.

    Each deal is four lists (seat-indexed) of the cards each seat holds NOW, the viewer's
    own hand exactly as in the view; the Hidden Rung caller's face-down card is in the
    caller's list (it is still theirs, CP-HID-1). Deterministic for
    ``(view, count, seed)``. Raises ValueError for a spectator's view or a view whose
    facts cannot all hold."""
    return [
        [[CARD_STR[c] for c in hand] for hand in world.hands]
        for world in sample_worlds(view, count, seed)
    ]


# ---------------------------------------------------------------------------- DDS
def _pbn(hands: Sequence[Sequence[str]]) -> str:
    return "N:" + " ".join(
        ".".join("".join(r for r in "AKQJT98765432" if r + s in set(h)) for s in SUITS)
        for h in hands
    )


def dd_tricks(
    hands: Sequence[Sequence[str]],
    trump: str | None,
    to_move: int,
    trick: Sequence[tuple[int, str]] = (),
) -> dict[str, int]:
    """Double-dummy values of the cards of the seat to move, from endplay's DDS.

    ``hands``: the four seats' cards now (seat-indexed; the cards already on ``trick`` are
    not in them). ``trump``: "S", "H", "D", "C", or None for no trump. ``to_move``: the
    seat to play. ``trick``: the current trick so far as (seat, card), leader first.
    Returns {card: tricks} for every card ``to_move`` holds that it may play (following
    suit): the most tricks the side to move takes from here on, the current trick
    included, when everyone plays perfectly. Seats 0..3 play clockwise as DDS's N, E, S,
    W, so team 0 (seats 0 and 2) is N-S. The search runs in C, the GIL released."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    full = [list(h) for h in hands]
    for seat, card in trick:
        full[seat].append(card)
    deal = Deal(_pbn(full))
    deal.trump = Denom.nt if trump is None else _DENOMS[SUITS.index(trump)]
    deal.first = Player(trick[0][0] if trick else to_move)
    for _, card in trick:
        deal.play(Card(card[1] + card[0]))
    return {c.rank.abbr + c.suit.name[0].upper(): t for c, t in solve_board(deal)}


def _denoms() -> tuple[Any, ...]:
    from endplay.types import Denom

    return (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)


_DENOMS = _denoms()
