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

The unseen cards are dealt card by card, the suits some seat is void in first, each card
to a seat that may hold it with probability in proportion to its free places: uniform
when nobody has shown a void, close to uniform otherwise, and fast. When that runs into
dead ends (:data:`QUICK_TRIES` times), the deal is drawn exactly uniformly instead: per
suit, how many cards go to each seat in proportion to the number of deals with those
counts (a dynamic programme over the seats' free places), then the cards shuffled in.
The Hidden Rung caller's unknown face-down card is drawn first, a card of a suit in
proportion to how many unseen cards the suit has.

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
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from math import comb
from typing import Any

from game.engine.courtpiece.cards import CARD_INDEX, CARD_STR, SUITS

from .rng import Stream

# Held around every DDS solve (see dd_tricks): the process's one DDS lock, installed by
# the layer that runs bots in threads (game.courtpiece.doubledummy, its SOLVER_LOCK); the
# pure bots import no threading, and alone in a process (a worker, a benchmark) need none.
DDS_GUARD: AbstractContextManager[Any] = nullcontext()
QUICK_TRIES = 20  # card-by-card deals tried before the exact counting table is built
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
            hidden_holder = caller  # unseen, even by the caller when blind (CP-HID-7)
    for opened in hv.get("open_hands") or []:
        for c in opened["cards"]:
            public.append((opened["seat"], c))
    for holder, text in public:
        c = CARD_INDEX[text]
        if c not in played:
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


class Dealer:
    """Deals ``cards`` into ``places`` (per seat in ``seats``) uniformly among the deals
    that give no seat a suit it is void in. The table of how many deals there are is
    built once and shared by every deal drawn."""

    def __init__(
        self, cards: Sequence[int], seats: Sequence[int], places: tuple[int, ...],
        voids: Sequence[int],
    ) -> None:
        self.by_suit = [[c for c in cards if c // 13 == s] for s in range(4)]
        self.places = places
        self.plain = not any(voids[p] for p in seats)
        self.allowed = [[not (voids[p] >> s & 1) for p in seats] for s in range(4)]
        self.memo: list[dict[tuple[int, ...], int]] = [{} for _ in range(5)]
        self.options: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...]]]] = {}
        # Suits some receiving seat is void in go first when dealing card by card.
        self.order = sorted(range(4), key=lambda s: sum(self.allowed[s]))
        self.counted = False
        self.total = 1

    def count(self) -> int:
        """Build the counting table (only when dealing card by card keeps failing)."""
        if not self.counted:
            self.total = 1 if self.plain else self.ways(0, self.places)
            self.counted = True
        return self.total

    def quick(self, rng: Stream) -> list[list[int]] | None:
        """Card by card, each to a seat that may hold it, in proportion to its free
        places: nearly uniform, and fast; None when it runs into a dead end."""
        free = list(self.places)
        out: list[list[int]] = [[] for _ in self.places]
        seats = range(len(free))
        for suit in self.order:
            cards = list(self.by_suit[suit])
            rng.shuffle(cards)
            allowed = self.allowed[suit]
            for c in cards:
                open_ = [j for j in seats if free[j] and allowed[j]]
                if not open_:
                    return None
                j = rng.weighted(open_, [free[j] for j in open_])
                out[j].append(c)
                free[j] -= 1
        return out

    def ways(self, i: int, free: tuple[int, ...]) -> int:
        """How many deals of suits i.. fill exactly the ``free`` places."""
        if i == 4:
            return 0 if any(free) else 1
        memo = self.memo[i]
        if free not in memo:
            memo[free] = sum(w for w, _ in self.splits(i, free))
        return memo[free]

    def splits(self, i: int, free: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(number of deals, split) for each way suit i can go into ``free``."""
        key = (i, free)
        found = self.options.get(key)
        if found is not None:
            return found
        n = len(self.by_suit[i])
        out: list[tuple[int, tuple[int, ...]]] = []
        for split in _splits(n, free, self.allowed[i]):
            rest = tuple(f - k for f, k in zip(free, split, strict=True))
            sub = self.ways(i + 1, rest)
            if sub:
                out.append((_multinomial(n, split) * sub, split))
        self.options[key] = out
        return out

    def deal(self, rng: Stream) -> list[list[int]] | None:
        if self.plain:
            cards = [c for suit in self.by_suit for c in suit]
            rng.shuffle(cards)
            out, at = [], 0
            for k in self.places:
                out.append(cards[at : at + k])
                at += k
            return out
        for _ in range(QUICK_TRIES):
            found = self.quick(rng)
            if found is not None:
                return found
        if not self.count():
            return None
        out = [[] for _ in self.places]
        free = self.places
        for i in range(4):
            options = self.splits(i, free)
            split = rng.weighted([sp for _, sp in options], [w for w, _ in options])
            suit_cards = list(self.by_suit[i])
            rng.shuffle(suit_cards)
            at = 0
            for j, k in enumerate(split):
                out[j].extend(suit_cards[at : at + k])
                at += k
            free = tuple(f - k for f, k in zip(free, split, strict=True))
        return out


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


@dataclass(frozen=True)
class World:
    """One deal consistent with a seat's knowledge: what each seat holds now (the
    Hidden Rung caller's face-down card included), and which card is face down (-1
    when none is, or when the seat sampling already knows it)."""

    hands: tuple[tuple[int, ...], ...]
    hidden: int


class Sampler:
    """Draws worlds for one seat's knowledge; the counting tables are built once."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        # Every seat with cards to receive: the others, and the Hidden Rung caller's own
        # seat when its face-down card is blind even to itself (CP-HID-7).
        self.others = [s for s in range(4) if s != k.seat or k.counts[s] > len(k.held[s])]
        places = tuple(k.counts[s] - len(k.held[s]) for s in self.others)
        if any(p < 0 for p in places) or sum(places) != len(k.unseen):
            raise ValueError("the view's card counts do not add up")
        self.places = places
        self.hidden_suits: list[tuple[int, Dealer]] = []
        self.dealer: Dealer | None = None
        if k.hidden_holder >= 0:
            # The face-down card escapes its holder's voids (CP-HID-2): its suit is drawn
            # first, in proportion to the deals of the rest, then the card in that suit.
            j = self.others.index(k.hidden_holder)
            rest = tuple(p - (1 if i == j else 0) for i, p in enumerate(places))
            for suit in range(4):
                in_suit = [c for c in k.unseen if c // 13 == suit]
                if in_suit:
                    left = [c for c in k.unseen if c != in_suit[0]]
                    self.hidden_suits.append((suit, Dealer(left, self.others, rest, k.voids)))
        else:
            self.dealer = Dealer(k.unseen, self.others, places, k.voids)

    def world(self, rng: Stream) -> World | None:
        k = self.k
        hidden = -1
        dealer = self.dealer
        cards = list(k.unseen)
        if dealer is None:
            weights = [
                sum(1 for c in cards if c // 13 == suit)
                for suit, _ in self.hidden_suits
            ]
            if not any(weights):
                return None
            suit, dealer = rng.weighted(self.hidden_suits, weights)
            in_suit = [c for c in cards if c // 13 == suit]
            hidden = in_suit[rng.randrange(len(in_suit))]
            cards.remove(hidden)
            # The dealer was built without the suit's lowest card: deal the same places
            # with the chosen card out instead (the counts are the same).
            dealer.by_suit[suit] = [c for c in cards if c // 13 == suit]
        dealt = dealer.deal(rng)
        if dealt is None:
            return None
        hands: list[tuple[int, ...]] = [(), (), (), ()]
        hands[k.seat] = tuple(sorted(k.held[k.seat]))
        for j, s in enumerate(self.others):
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
    sampler = Sampler(k)
    rng = Stream(_seed_for(view, count, seed))
    kept: list[World] = []
    spare: list[World] = []
    for _ in range(6 * count):
        if len(kept) >= count:
            break
        world = sampler.world(rng)
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
    caller's list (it is still theirs, CP-HID-1), the caller's own included (their view
    shows it apart, as ``hidden.card``; a blind one, CP-HID-7, is sampled for them too).
    Deterministic for ``(view, count, seed)``. Raises ValueError for a spectator's view
    or a view whose facts cannot all hold."""
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
    W, so team 0 (seats 0 and 2) is N-S. The search runs in C, the GIL released.

    Safe in threads: endplay's ``solve_board`` always passes DDS thread index 0, and DDS
    keeps its search memory per thread index, so two threads solving at once in one
    process would share it; every solve here holds :data:`DDS_GUARD`, which the site sets
    to the process's one DDS lock (``game.courtpiece.doubledummy.SOLVER_LOCK``, the
    replay's analysis's too). The medium bot searches the endgame in the clock's bot
    threads."""
    from endplay.dds import solve_board

    deal = _deal(hands, trump, to_move, trick)
    with DDS_GUARD:
        solved = list(solve_board(deal))
    return {c.rank.abbr + c.suit.name[0].upper(): t for c, t in solved}


def dd_reaching(
    hands: Sequence[Sequence[str]],
    trump: str | None,
    to_move: int,
    trick: Sequence[tuple[int, str]],
    target: int,
) -> set[str]:
    """The cards of the seat to move with which its side takes at least ``target`` more
    tricks double-dummy (the current trick included), as :func:`dd_tricks` counts them.

    DDS's target mode (``SolveMode.TargetAll``) answers only "at least ``target``?" for
    each card, a null-window search: at 12-13 cards in hand it took a third of the full
    solve's CPU on average and a tenth at the median (docs/PERFORMANCE.md). The same
    caution on threads as :func:`dd_tricks`."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    deal = _deal(hands, trump, to_move, trick)
    with DDS_GUARD:
        solved = list(solve_board(deal, SolveMode.TargetAll, target))
    return {c.rank.abbr + c.suit.name[0].upper() for c, t in solved if t >= target}


def _deal(
    hands: Sequence[Sequence[str]],
    trump: str | None,
    to_move: int,
    trick: Sequence[tuple[int, str]],
) -> Any:
    from endplay.types import Card, Deal, Denom, Player

    full = [list(h) for h in hands]
    for seat, card in trick:
        full[seat].append(card)
    deal = Deal(_pbn(full))
    deal.trump = Denom.nt if trump is None else _DENOMS[SUITS.index(trump)]
    deal.first = Player(trick[0][0] if trick else to_move)
    for _, card in trick:
        deal.play(Card(card[1] + card[0]))
    return deal


def _denoms() -> tuple[Any, ...]:
    from endplay.types import Denom

    return (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)


_DENOMS = _denoms()
