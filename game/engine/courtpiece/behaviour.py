"""The pieces a variant is made of (docs/RULES.md Part 1).

A :class:`~.rules.Variant` names one piece for each thing variants disagree on:

- **calling** — how trump is decided: :class:`NameSuit` (Rung, Single Sar, Double Sar,
  Hukum without bidding), :class:`HideCard` (Hidden Rung), :class:`NoCall` (Be-Ranga,
  Mendikot: the first void player fixes trump), :class:`Bidding` (Hukum); each says when
  everyone knows trump (:class:`TrumpKnown`);
- **ending** — when a hand stops before its 13th trick: :func:`first_to_seven`,
  :func:`court_needs_all_13`, :func:`all_thirteen`;
- **collect** — how a won trick is counted: one each (None) or :class:`Piles` (Double Sar);
- **scoring** — what a finished hand is worth: :class:`RungScore`, :class:`HandsScore`,
  :class:`MendikotScore`, :class:`ContractScore`; each declares the result kinds it can
  give, and whether the tens decide the hand (``counts_tens``);
- **succession** — who deals first and next: :data:`CALLER_KEEPS_WINNING` (Rung),
  :data:`DEAL_PASSES_ON`, :data:`LOSERS_DEAL` (Hukum);
- **measure** — how the match is won: :data:`POINTS`, :data:`HANDS`, :data:`DIFFERENCE`.

``hand.py`` and ``match.py`` call these and never ask which variant they play, so a new
variant made of these pieces is one entry in ``rules.VARIANTS``; a new kind of behaviour
is a new piece here.

The pieces sit below the hand: they read a hand through :class:`HandState` (which
``hand.Hand`` satisfies) and never change one. Where a piece decides that something
should happen to the hand (the partner's clock ran out: :meth:`NameSuit.partner_timeout`)
it returns what (:class:`TurnUp`, :class:`PlaceFaceDown`) and the hand does it. So this
module imports nothing that imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Protocol

from .actions import BID, CALL, CALL_ACTION, HIDE_ACTION, PLAY
from .cards import ACE_RANK, TEN_RANK, TENS_MASK
from .results import HandResult

NO_KINDS: frozenset[str] = frozenset()

Trick = tuple[int, tuple[int, ...], int]  # leader, cards in play order, winner


# ---------------------------------------------------------------------------- the hand
class HandState(Protocol):
    """What the pieces read from a hand (``hand.Hand`` is one), and nothing more."""

    @property
    def deals(self) -> tuple[tuple[int, ...], ...]:
        """The deal as received: 4 tuples of 13 cards, the first five first (CP-4)."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def first_chooser(self) -> int:
        """The seat after the dealer (CP-SS-4)."""
        ...

    @property
    def passed(self) -> bool:
        """The first chooser passed the call to partner (CP-SS-4)."""
        ...

    @property
    def caller(self) -> int | None:
        """The seat that decided trump; None when nobody called (CP-BR-1)."""
        ...

    @property
    def contract(self) -> tuple[int, int] | None:
        """(tricks bid, bidder) in Hukum (CP-HK-4, CP-HK-5)."""
        ...

    @property
    def claimer(self) -> int:
        """The seat that made the 82 claim, or -1 (CP-RUNG-5)."""
        ...

    @property
    def won(self) -> tuple[int, int]:
        """Tricks per team (Double Sar: collected from piles)."""
        ...

    @property
    def result(self) -> HandResult | None: ...

    def tricks(self) -> list[Trick]:
        """Completed tricks, oldest first."""
        ...


@dataclass(frozen=True)
class TurnUp:
    """What should happen: ``card`` is shown to all and its suit is trump, called by
    ``seat`` (CP-SS-4)."""

    seat: int
    card: int


@dataclass(frozen=True)
class PlaceFaceDown:
    """What should happen: ``card`` leaves ``seat``'s hand face down as the trump card,
    ``seat`` calling (CP-HID-1); ``blind``: nobody has seen it, ``seat`` included
    (CP-HID-7)."""

    seat: int
    card: int
    blind: bool


TrumpCard = TurnUp | PlaceFaceDown


# ---------------------------------------------------------------------------- calling
class TrumpKnown(StrEnum):
    """When every player knows the trump suit. A str: it reads, compares and serialises
    as its value."""

    FROM_START = "from_start"  # before the first card (CP-RUNG-1, CP-SS-4, CP-HK-5)
    WHEN_REVEALED = "when_revealed"  # face down until turned up (CP-HID-1, CP-HID-3)
    BY_FIRST_VOID = "by_first_void"  # fixed in play by the first void card (CP-BR-1)


@dataclass(frozen=True)
class NameSuit:
    """The first chooser names trump from the suits of their first five cards
    (CP-RUNG-1, CP-SS-4, CP-HK-9). The other callings below specialise it."""

    may_pass: bool = False  # CP-SS-4: the one pass to partner
    timers: bool = False  # CP-SS-4a: a timeout while calling has a meaning
    thirteenth: bool = False  # CP-RUNG-1: "trump is the suit of my 13th card"
    redeal: bool = False  # CP-RUNG-1: a redeal when no first-five card beats a ten
    # What kind of calling this is (not parameters: each subclass sets its own).
    first_phase: ClassVar[str] = CALL  # the phase a new hand starts in
    hides: ClassVar[bool] = False  # the trump card lies face down (CP-HID)
    trump_by_first_void: ClassVar[bool] = False  # fixed during play (CP-BR-1, CP-MK-2)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset({"redeal"}) if self.redeal else NO_KINDS

    @property
    def trump_known(self) -> TrumpKnown:
        """When everyone knows trump: named, turned up (the 13th card, the partner's
        timeout) or bid before the first card, unless the card lies face down or trump
        waits for the first void card."""
        if self.hides:
            return TrumpKnown.WHEN_REVEALED
        if self.trump_by_first_void:
            return TrumpKnown.BY_FIRST_VOID
        return TrumpKnown.FROM_START

    def actions(self, hand: HandState, seat: int) -> tuple[str, ...]:
        """The call-phase actions of ``seat`` (the partner after a pass, CP-SS-4)."""
        five = hand.deals[seat][:5]
        suits = sorted({c // 13 for c in five})
        return (*(CALL_ACTION[s] for s in suits), *self._others(hand, five))

    def _others(self, hand: HandState, five: tuple[int, ...]) -> list[str]:
        """What may be done instead of naming trump (CP-RUNG-1, CP-SS-4)."""
        out = []
        if self.thirteenth:
            out.append("thirteenth")
        if self.redeal and all(c % 13 <= TEN_RANK for c in five):
            out.append("redeal")
        if self.may_pass and not hand.passed:
            out.append("pass")
        return out

    def partner_timeout(self, hand: HandState) -> TrumpCard:
        """CP-SS-4: the partner's clock ran out: the first chooser's 6th card is to be
        turned up, its suit trump."""
        return TurnUp(hand.first_chooser, hand.deals[hand.first_chooser][5])


@dataclass(frozen=True)
class HideCard(NameSuit):
    """Hidden Rung: the caller places one of their first five face down (CP-HID-1)."""

    hides: ClassVar[bool] = True

    def actions(self, hand: HandState, seat: int) -> tuple[str, ...]:
        five = hand.deals[seat][:5]
        return (*(HIDE_ACTION[c] for c in sorted(five, reverse=True)), *self._others(hand, five))

    def partner_timeout(self, hand: HandState) -> TrumpCard:
        """CP-HID-7: the first chooser's 6th card is to be placed face down, unseen by all."""
        return PlaceFaceDown(hand.first_chooser, hand.deals[hand.first_chooser][5], blind=True)


@dataclass(frozen=True)
class NoCall(NameSuit):
    """Be-Ranga and Mendikot: nobody calls; the player after the dealer leads and the
    first card a void player plays fixes trump (CP-BR-1, CP-BR-2, CP-MK-2)."""

    first_phase: ClassVar[str] = PLAY
    trump_by_first_void: ClassVar[bool] = True


@dataclass(frozen=True)
class Bidding(NameSuit):
    """Hukum: a round of bids decides trump (CP-HK-1..5); if all pass the first bidder
    names trump from their five (the call phase, CP-HK-4)."""

    first_phase: ClassVar[str] = BID


# ---------------------------------------------------------------------------- ending
# Asked after every trick but the 13th (which always ends the hand) with the tricks won
# so far by team 0 and team 1.
Ending = Callable[[int, int], bool]


def first_to_seven(won0: int, won1: int) -> bool:
    """CP-SS-2, CP-DS-2 (on collected tricks), CP-BR, CP-HK-9, Rung with court=first7."""
    return won0 >= 7 or won1 >= 7


def court_needs_all_13(won0: int, won1: int) -> bool:
    """CP-RUNG-5b: with court = all 13 the hand goes on while a shut-out is possible."""
    return (won0 >= 7 and won1 >= 1) or (won1 >= 7 and won0 >= 1)


def all_thirteen(won0: int, won1: int) -> bool:
    """CP-MK-1, CP-HK-5: every trick is played."""
    return False


# ---------------------------------------------------------------------------- collect
@dataclass(frozen=True)
class Piles:
    """Double Sar: tricks pile up until one seat wins two in a row (CP-DS-1..4)."""

    ace_rule: bool = False  # CP-DS-4: a trick won with an ace never takes the pile

    def take(
        self, pile: int, run_seat: int, run_len: int, winner: int, best: int, count: int
    ) -> tuple[int, int, int]:
        """Tricks the winner collects now, and the pile and run after this trick."""
        pile += 1
        run = run_len + 1 if run_seat == winner else 1
        taken = 0
        if run >= 2 and not (self.ace_rule and best % 13 == ACE_RANK):  # CP-DS-1, CP-DS-4
            taken, pile, run = pile, 0, 0
        if count == 13 and pile:  # CP-DS-2: what is left goes to the last winner
            taken, pile = taken + pile, 0
        return taken, pile, run


# ---------------------------------------------------------------------------- scoring
class Scoring(Protocol):
    # Whether the tens decide the hand (CP-MK-1), so a trick is worth more than one.
    counts_tens: ClassVar[bool]

    @property
    def kinds(self) -> frozenset[str]:
        """Every result kind this scoring can give."""
        ...

    def score(self, hand: HandState) -> HandResult: ...


@dataclass(frozen=True)
class _Outcome:
    """The facts every scoring starts from."""

    won: tuple[int, int]
    winner: int  # the team with more tricks
    shut_out: bool  # the other team took nothing (kot, court)
    caller: int | None
    caller_team: int | None

    @classmethod
    def of(cls, hand: HandState) -> _Outcome:
        won = hand.won
        winner = 0 if won[0] > won[1] else 1
        caller = hand.caller  # None when nobody called (Be-Ranga, Mendikot)
        caller_team = None if caller is None else caller & 1
        return cls(won, winner, won[1 - winner] == 0, caller, caller_team)

    def result(self, kind: str, points: int, **extra: tuple[int, int] | None) -> HandResult:
        split = (points, 0) if self.winner == 0 else (0, points)
        return HandResult(kind, self.winner, self.won, split, self.caller, **extra)


@dataclass(frozen=True)
class RungScore:
    """CP-RUNG-3, CP-RUNG-5: 7 for a win, 13 for court, 52 for baawan, 82 for biyasi."""

    kinds: frozenset[str] = frozenset({"win", "court", "baawan", "biyasi"})
    counts_tens: ClassVar[bool] = False

    def score(self, hand: HandState) -> HandResult:
        o = _Outcome.of(hand)
        if o.shut_out and o.winner == o.caller_team:
            if hand.claimer >= 0 and hand.claimer & 1 == o.winner:
                return o.result("biyasi", 82)  # CP-RUNG-5
            return o.result("court", 13)
        if o.shut_out:
            return o.result("baawan", 52)
        return o.result("win", 7)


@dataclass(frozen=True)
class HandsScore:
    """CP-SS-5: one hand won. The calling team's first 7 in a row is kot (with nobody
    calling, either team's: CP-BR-2); the other team's is ``other_side``: "gone_kot"
    (CP-SS-3), a plain "win" or "kot" (CP-HK-9 without and with kot_both_sides)."""

    other_side: str = "gone_kot"
    counts_tens: ClassVar[bool] = False

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset({"win", "kot", self.other_side})

    def score(self, hand: HandState) -> HandResult:
        o = _Outcome.of(hand)
        if not o.shut_out:
            return o.result("win", 1)
        if o.caller_team is None or o.winner == o.caller_team:
            return o.result("kot", 1)
        return o.result(self.other_side, 1)


@dataclass(frozen=True)
class MendikotScore:
    """CP-MK-1, CP-MK-2: the team with 3 or 4 tens wins (all four: mendikot); with the
    tens 2-2 the team with more tricks."""

    kinds: frozenset[str] = frozenset({"win", "mendikot"})
    counts_tens: ClassVar[bool] = True

    def score(self, hand: HandState) -> HandResult:
        o = _Outcome.of(hand)
        tens = [0, 0]
        for _, cards, winner in hand.tricks():
            for card in cards:
                if TENS_MASK >> card & 1:
                    tens[winner & 1] += 1
        winner = o.winner if tens[0] == tens[1] else (0 if tens[0] > tens[1] else 1)
        o = _Outcome(o.won, winner, o.shut_out, o.caller, o.caller_team)
        kind = "mendikot" if tens[winner] == 4 else "win"
        return o.result(kind, 1, tens=(tens[0], tens[1]))


@dataclass(frozen=True)
class ContractScore:
    """CP-HK-6: the bidding team takes its bid: +bid; else -7 for a bid of 7 and double
    the bid above 7. Only the bidding team's score changes."""

    kinds: frozenset[str] = frozenset({"made", "set"})
    counts_tens: ClassVar[bool] = False

    def score(self, hand: HandState) -> HandResult:
        o = _Outcome.of(hand)
        assert hand.contract is not None  # the bidding always ends with one (CP-HK-4)
        bid, bidder = hand.contract
        team = bidder & 1
        made = o.won[team] >= bid
        delta = bid if made else (-7 if bid == 7 else -2 * bid)
        points = (delta, 0) if team == 0 else (0, delta)
        winner = team if made else 1 - team
        kind = "made" if made else "set"
        return HandResult(kind, winner, o.won, points, o.caller, contract=(bid, bidder))


# ---------------------------------------------------------------------------- succession
@dataclass(frozen=True)
class Succession:
    """Who deals the first hand (from the toss winner, CP-11) and each next one (from the
    hand just finished). A hand without a winner (a redeal) is dealt again by the same
    dealer whatever the variant (CP-RUNG-5a): the match handles that."""

    first_dealer: Callable[[int], int]
    next_dealer: Callable[[HandState], int]


def toss_winner_calls(toss_winner: int) -> int:
    """CP-11: the toss winner calls (or, with no call, leads), so the dealer sits before."""
    return (toss_winner - 1) % 4


def toss_winner_deals(toss_winner: int) -> int:
    """CP-11: in Hukum the toss picks the dealer."""
    return toss_winner


def _caller_keeps_winning(hand: HandState) -> int:
    """CP-RUNG-6: the caller calls again while their team wins; a loss passes the call to
    the next seat; all 13 (court, biyasi) passes it to the caller's partner."""
    result, caller = hand.result, hand.caller
    assert result is not None and caller is not None
    if result.winner != caller & 1:
        nxt = (caller + 1) % 4
    elif result.tricks[1 - result.winner] == 0:
        nxt = (caller + 2) % 4
    else:
        nxt = caller
    return (nxt - 1) % 4  # CP-11: the dealer sits before the caller


def _one_seat_on(hand: HandState) -> int:
    """CP-SS-1: the deal passes on one seat each hand."""
    return (hand.dealer + 1) % 4


def _losers_deal(hand: HandState) -> int:
    """CP-HK-8: the losing team deals: the same dealer if it was theirs, else the next."""
    assert hand.result is not None and hand.result.winner is not None
    losers = 1 - hand.result.winner
    return hand.dealer if hand.dealer & 1 == losers else (hand.dealer + 1) % 4


CALLER_KEEPS_WINNING = Succession(toss_winner_calls, _caller_keeps_winning)
DEAL_PASSES_ON = Succession(toss_winner_calls, _one_seat_on)
LOSERS_DEAL = Succession(toss_winner_deals, _losers_deal)


# ---------------------------------------------------------------------------- measure
@dataclass(frozen=True)
class FirstTo:
    """The first team whose score reaches the target wins (CP-RUNG-7 points, CP-SS-5
    hands). Only one team scores in a hand, so there are no ties."""

    name: str
    default_target: int

    def winner(self, scores: tuple[int, int], target: int) -> int | None:
        if scores[0] >= target:
            return 0
        if scores[1] >= target:
            return 1
        return None


@dataclass(frozen=True)
class Lead:
    """The team that falls ``target`` behind loses (CP-HK-7)."""

    name: str
    default_target: int

    def winner(self, scores: tuple[int, int], target: int) -> int | None:
        lead = scores[0] - scores[1]
        if lead >= target:
            return 0
        if -lead >= target:
            return 1
        return None


Measure = FirstTo | Lead

POINTS = FirstTo("points", 52)  # CP-RUNG-7
HANDS = FirstTo("hands", 10)  # CP-SS-5
DIFFERENCE = Lead("difference", 52)  # CP-HK-7
