"""Court Piece's lesson steps: the positions they ask about (a deal and the actions played
on it, replayed through the engine) and the kinds of step, judged by game.engine.courtpiece.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from game.engine import courtpiece as cp
from tutorials.steps.base import LessonError, Option, Step

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in reversed(RANKS)]


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


# --- Court Piece positions -------------------------------------------------------------


def fill_deal(*hands: str) -> list[list[str]]:
    """Four seats' cards in the order received; each given hand may be short and is
    completed with the cards nobody was given, in deck order (so a lesson writes only the
    cards that matter). Duplicates or unknown cards are refused."""
    if len(hands) != 4:
        raise LessonError("a deal has four hands")
    given = [h.split() for h in hands]
    seen: set[str] = set()
    for row in given:
        for c in row:
            if c not in DECK:
                raise LessonError(f"unknown card {c!r}")
            if c in seen:
                raise LessonError(f"card {c} dealt twice")
            seen.add(c)
    spare = [c for c in DECK if c not in seen]
    out = []
    for row in given:
        if len(row) > 13:
            raise LessonError("a seat receives 13 cards")
        need = 13 - len(row)
        out.append(row + spare[:need])
        spare = spare[need:]
    return out


@dataclass(frozen=True)
class Deal:
    """A Court Piece hand: rules, dealer, the deal and the actions played so far (each by
    the seat whose turn it is). `hand()` replays them through the engine."""

    variant: str
    deal: tuple[tuple[str, ...], ...]
    actions: tuple[str, ...] = ()
    dealer: int = 3
    options: tuple[tuple[str, Any], ...] = ()
    auto: int = 0  # then play this many more cards, each seat its first legal card

    @classmethod
    def of(
        cls,
        variant: str,
        hands: Sequence[str],
        actions: str = "",
        dealer: int = 3,
        auto: int = 0,
        **options: Any,
    ) -> Deal:
        deal = fill_deal(*hands)
        return cls(
            variant,
            tuple(tuple(r) for r in deal),
            tuple(actions.split()),
            dealer,
            tuple(sorted(options.items())),
            auto,
        )

    @property
    def rules(self) -> cp.Rules:
        return cp.Rules(variant=self.variant, **dict(self.options))

    def hand(self) -> cp.Hand:
        hand = cp.new_hand(self.rules, dealer=self.dealer, deal=[list(r) for r in self.deal])
        for n, action in enumerate(self.actions):
            try:
                hand = hand.apply(action)
            except cp.IllegalAction as exc:
                raise LessonError(f"action {n} {action!r}: {exc}") from exc
        for _n in range(self.auto):
            plays = [a for a in hand.legal_actions() if a.startswith("play:")]
            if not plays:
                raise LessonError("auto: no card to play")
            hand = hand.apply(plays[0])
        return hand


def autoplay(hand: cp.Hand) -> cp.Hand:
    """Play the hand out: each seat plays its first legal card (the engine's order)."""
    while not hand.is_over:
        acts = hand.legal_actions()
        plays = [a for a in acts if a.startswith("play:")]
        hand = hand.apply(plays[0] if plays else acts[0])
    return hand


def trick_complete_after(hand: cp.Hand, action: str) -> tuple[cp.Hand, int | None]:
    """Apply an action; the winner of the trick it completed, or None if it completed none."""
    before = len(hand.view(None)["completed_tricks"])
    after = hand.apply(action)
    tricks = after.view(None)["completed_tricks"]
    return after, (tricks[-1]["winner"] if len(tricks) > before else None)


# --- steps ------------------------------------------------------------------------------


@dataclass(eq=False)
class CardStep(Step):
    """Shows a hand; the learner seat is the one to move."""

    setup: Any = None  # a Deal, or anything with .hand() (practice deals from a seed)
    seat: int | None = None  # whose eyes; default the seat to move

    @cached_property
    def hand(self) -> cp.Hand:
        assert self.setup is not None
        hand: cp.Hand = self.setup.hand()
        return hand

    @property
    def me(self) -> int:
        if self.seat is not None:
            return self.seat
        if self.hand.to_move is None:
            raise LessonError(f"step {self.id}: nobody is to move; give seat=")
        return self.hand.to_move

    def context(self) -> dict[str, Any]:
        view = self.hand.view(self.me)
        return {"view": view, "me": self.me}


@dataclass(eq=False)
class PlayCard(CardStep):
    """Click the card to play. `want`:
    legal   any card the engine offers;
    win     a card that wins the trick (the learner plays last);
    cheap   the lowest card that still wins it;
    partner the lowest card that leaves the trick to partner;
    highest the highest card the learner may play."""

    want: str = "legal"
    widget: ClassVar[str] = "cards"

    def _legal(self) -> list[str]:
        return [a[5:] for a in self.hand.legal_actions() if a.startswith("play:")]

    def options(self) -> list[Option]:
        return [Option(c, "card", c) for c in self.hand.view(self.me)["hand"]]

    def correct(self) -> frozenset[str]:
        legal = self._legal()
        if self.want == "legal":
            return frozenset(legal)
        if self.want == "highest":
            top = max(rank_of(c) for c in legal)
            return frozenset(c for c in legal if rank_of(c) == top)
        winners: dict[str, int] = {}
        for c in legal:
            _, winner = trick_complete_after(self.hand, "play:" + c)
            if winner is None:
                raise LessonError(
                    f"step {self.id}: want={self.want} needs the last card of a trick"
                )
            winners[c] = winner
        target = self.me if self.want in ("win", "cheap") else (self.me + 2) % 4
        good = [c for c in legal if winners[c] == target]
        if self.want == "win" or not good:
            return frozenset(good)
        low = min(rank_of(c) for c in good)
        return frozenset(c for c in good if rank_of(c) == low)


@dataclass(eq=False)
class ChooseAction(CardStep):
    """Pick one of `choices` (action strings); the right ones are those the engine allows.
    With ``want="longest"`` the offered calls are the legal ones and the right call is the
    suit with the most cards among the caller's five (ties: the higher cards)."""

    choices: tuple[str, ...] = ()
    want: str = "legal"

    def options(self) -> list[Option]:
        if self.want == "longest":
            acts = [a for a in self.hand.legal_actions() if a.startswith("call:")]
            return [Option(a, "action", a) for a in acts]
        return [Option(a, "action", a) for a in self.choices]

    def correct(self) -> frozenset[str]:
        legal = set(self.hand.legal_actions())
        if self.want == "longest":
            five = self.hand.view(self.me)["hand"]

            def strength(suit: str) -> tuple[int, list[int]]:
                ranks = sorted((rank_of(c) for c in five if c[1] == suit), reverse=True)
                return len(ranks), ranks

            calls = [a for a in legal if a.startswith("call:")]
            best = max(strength(a[5]) for a in calls)
            return frozenset(a for a in calls if strength(a[5]) == best)
        return frozenset(a for a in self.choices if a in legal)


@dataclass(eq=False)
class MayI(CardStep):
    """Yes or no: may the seat to move do `action` now? The engine's legal_actions says."""

    action: str = ""
    widget: ClassVar[str] = "yesno"

    def options(self) -> list[Option]:
        return [Option("yes", "yesno", "yes"), Option("no", "yesno", "no")]

    def correct(self) -> frozenset[str]:
        return frozenset({"yes" if self.action in self.hand.legal_actions() else "no"})

    def context(self) -> dict[str, Any]:
        return {**super().context(), "action": self.action}


@dataclass(eq=False)
class PickWinner(CardStep):
    """Who won the trick just finished? Played out by the engine."""

    def _last(self) -> dict[str, Any]:
        view = self.hand.view(None)
        if view["trick"] or not view["completed_tricks"]:
            raise LessonError(f"step {self.id}: the actions must end with a finished trick")
        return view["completed_tricks"][-1]

    def options(self) -> list[Option]:
        return [Option(str(s), "seat", str(s)) for s in (0, 1, 2, 3)]

    def correct(self) -> frozenset[str]:
        return frozenset({str(self._last()["winner"])})

    def context(self) -> dict[str, Any]:
        return {**super().context(), "last_trick": self._last()}

    @property
    def me(self) -> int:
        return 0 if self.seat is None else self.seat


@dataclass(eq=False)
class CountTrumps(CardStep):
    """How many trumps has this seat not seen yet? cp.trumps_out counts them."""

    widget: ClassVar[str] = "number"

    def correct(self) -> frozenset[str]:
        view = self.hand.view(self.me)
        if view["trump"] is None and not (view.get("hidden") or {}).get("card"):
            raise LessonError(f"step {self.id}: the seat does not know the trump")
        return frozenset({str(len(cp.trumps_out(view)))})


@dataclass(eq=False)
class TrumpSuit(CardStep):
    """Which suit is trump now? Read from the seat's view after the actions."""

    def options(self) -> list[Option]:
        return [Option(s, "suit", s) for s in SUITS]

    def correct(self) -> frozenset[str]:
        trump = self.hand.view(self.me)["trump"]
        if trump is None:
            raise LessonError(f"step {self.id}: no trump is fixed yet")
        return frozenset({trump})

    @property
    def me(self) -> int:
        return 0 if self.seat is None else self.seat


@dataclass(eq=False)
class HandOutcome(CardStep):
    """The hand is played out (autoplay); the learner says `measure`:
    points   the points `team` scores for the hand (buttons: `choices`);
    winner   which team wins the hand;
    tens     how many tens `team` captured (Mendikot);
    collected / pile   Double Sar: tricks `team` has collected / tricks left in the pile,
             read at the position itself (no autoplay)."""

    measure: str = "points"
    team: int = 0
    choices: tuple[int, ...] = ()
    play_out: bool = True

    kinds: tuple[str, ...] = ()  # measure="kind": the result kinds offered

    @property
    def widget(self) -> str:  # type: ignore[override]
        if self.measure in ("winner", "kind") or self.choices:
            return "choice"
        return "number"

    @cached_property
    def final(self) -> cp.Hand:
        return autoplay(self.hand) if self.play_out else self.hand

    @property
    def me(self) -> int:
        return 0 if self.seat is None else self.seat

    def options(self) -> list[Option]:
        if self.measure == "winner":
            return [Option("0", "team", "0"), Option("1", "team", "1")]
        if self.measure == "kind":
            return [Option(k, "kind", k) for k in self.kinds]
        return [Option(str(n), "number", str(n)) for n in self.choices]

    def correct(self) -> frozenset[str]:
        hand = self.final
        view = hand.view(self.me)
        if self.measure == "pile":
            return frozenset({str(view["pile"])})
        if self.measure == "collected":
            return frozenset({str(view["tricks_taken"][self.team])})
        result = hand.result
        if result is None:
            raise LessonError(f"step {self.id}: the hand is not over")
        if self.measure == "points":
            return frozenset({str(result.points[self.team])})
        if self.measure == "winner":
            return frozenset({str(result.winner)})
        if self.measure == "kind":
            return frozenset({result.kind})
        if self.measure == "tens":
            if result.tens is None:
                raise LessonError(f"step {self.id}: this variant does not count tens")
            return frozenset({str(result.tens[self.team])})
        raise LessonError(f"step {self.id}: unknown measure {self.measure!r}")

    def context(self) -> dict[str, Any]:
        hand = self.final
        view = hand.view(self.me)
        result = hand.result.to_dict() if hand.result else None
        return {"view": view, "me": self.me, "outcome": result, "measure": self.measure}


@dataclass(eq=False)
class IsOver(CardStep):
    """Yes or no: is the hand over now? (Hand.is_over)"""

    widget: ClassVar[str] = "yesno"

    def options(self) -> list[Option]:
        return [Option("yes", "yesno", "yes"), Option("no", "yesno", "no")]

    def correct(self) -> frozenset[str]:
        return frozenset({"yes" if self.hand.is_over else "no"})

    @property
    def me(self) -> int:
        return 0 if self.seat is None else self.seat


@dataclass(eq=False)
class WhoIsToMove(CardStep):
    """Whose decision is it now? (Hand.to_move)"""

    def options(self) -> list[Option]:
        return [Option(str(s), "seat", str(s)) for s in (0, 1, 2, 3)]

    def correct(self) -> frozenset[str]:
        if self.hand.to_move is None:
            raise LessonError(f"step {self.id}: the hand is over")
        return frozenset({str(self.hand.to_move)})

    @property
    def me(self) -> int:
        return 0 if self.seat is None else self.seat


@dataclass(eq=False)
class SpotRenege(Step):
    """A finished list of tricks from a recorded game (it may break the rules, so it is
    not replayed through Hand.apply); the learner points at the renege, which
    cp.find_reneges finds. `history` is ``"seat action"`` lines, as in a hand record."""

    variant: str = "rung"
    hands: tuple[str, str, str, str] = ("", "", "", "")
    history: str = ""
    widget: ClassVar[str] = "tricks"

    @cached_property
    def deal(self) -> list[list[str]]:
        return fill_deal(*self.hands)

    @cached_property
    def actions(self) -> list[tuple[int, str]]:
        out = []
        for line in self.history.split(","):
            seat, _, action = line.strip().partition(" ")
            out.append((int(seat), action))
        return out

    def tricks(self) -> list[list[tuple[int, str, str]]]:
        plays = [(s, a[5:]) for s, a in self.actions if a.startswith("play:")]
        return [
            [(n, s, c) for s, c in plays[i : i + 4]] for n, i in enumerate(range(0, len(plays), 4))
        ]

    def options(self) -> list[Option]:
        return [Option(f"{n}:{s}:{c}", "card", c) for trick in self.tricks() for n, s, c in trick]

    def correct(self) -> frozenset[str]:
        found = cp.find_reneges(self.actions, self.deal, cp.Rules(variant=self.variant))
        return frozenset(f"{n}:{s}:{c}" for n, s, c in found)

    def context(self) -> dict[str, Any]:
        trump = next((a[5:] for _, a in self.actions if a.startswith("call:")), None)
        return {"tricks": self.tricks(), "trump": trump, "me": 0}
