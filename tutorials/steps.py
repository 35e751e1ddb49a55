"""The kinds of lesson step, each asking the engine for its answer.

A step holds only a position (a Court Piece deal and the actions played on it, or a
backgammon Position ID and dice) and what it asks. Which answers are right is never
written down: `correct()` works it out from the engine's public surface (docs/ENGINE_CONTRACT.md)
each time, so a lesson can never disagree with the tables. A step whose data makes no
sense to the engine (an illegal action, no wrong option to choose, a question with no
answer) raises `LessonError` when it is built; tests build every step.

Widgets (how the learner answers) are few: ``cards`` (click a card), ``choice`` (buttons,
one per option), ``number`` (type a number), ``yesno``, ``tricks`` (click a card in a
trick list) and ``move`` (move checkers on the board).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations, product
from typing import Any, ClassVar

from game.engine import backgammon as bg
from game.engine import courtpiece as cp

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in reversed(RANKS)]


class LessonError(ValueError):
    """A step's data does not work with the engine; the message says which step and why."""


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


@dataclass(frozen=True)
class Option:
    value: str  # what the form posts; never says whether it is right
    kind: str  # "card" | "action" | "seat" | "suit" | "team" | "number" | "play" | "yesno"
    data: str = ""  # the card, action, seat … the label is drawn from


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
class Step:
    id: str
    widget: ClassVar[str] = "choice"
    game: ClassVar[str] = "courtpiece"

    def options(self) -> list[Option]:
        return []

    def correct(self) -> frozenset[str]:
        raise NotImplementedError

    def check(self, answer: str) -> bool:
        return answer.strip() in self.correct()

    def validate(self) -> None:
        """Raise LessonError unless the step has a right and a wrong answer."""
        right = self.correct()
        if not right:
            raise LessonError(f"step {self.id}: the engine gives no right answer")
        if self.widget in ("choice", "cards", "yesno"):
            values = {o.value for o in self.options()}
            if not right <= values:
                raise LessonError(f"step {self.id}: a right answer is not offered")
            if not values - right:
                raise LessonError(f"step {self.id}: every option is right; nothing to learn")

    def a_wrong_answer(self) -> str:
        """One wrong answer (tests use it; the page never shows which is which)."""
        right = self.correct()
        if self.widget == "number":
            return str(int(next(iter(right))) + 1)
        return next(o.value for o in self.options() if o.value not in right)

    def context(self) -> dict[str, Any]:
        """What the template draws: hands, tricks, boards (never which answer is right)."""
        return {}


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


ACTION_KINDS = ("call", "thirteenth", "redeal", "pass", "bid", "hide", "ask", "reveal", "claim")


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


# --- backgammon -------------------------------------------------------------------------


@dataclass(eq=False)
class BgStep(Step):
    """A backgammon position (GNU Position ID, the learner on roll) and dice. `actions`
    are Game actions played first (roll, double, take …), from a Game whose throws are
    `dice`."""

    position: str = ""
    dice: tuple[tuple[int, int], ...] = ()
    actions: tuple[str, ...] = ()
    game: ClassVar[str] = "backgammon"
    # The dice are on the board once rolled: a play or a move. A cube decision comes
    # before the roll, so its step shows none (its `dice` only seed the Game's throws).
    rolled: ClassVar[bool] = True

    @cached_property
    def pos(self) -> bg.Position:
        try:
            return bg.Position.from_id(self.position)
        except ValueError as exc:
            raise LessonError(f"step {self.id}: {exc}") from exc

    @cached_property
    def state(self) -> bg.Game:
        g = bg.Game(bg.Rules(), dice=list(self.dice) or [(1, 2)], position=self.pos)
        for action in self.actions:
            try:
                g = g.apply(action)
            except bg.IllegalMove as exc:
                raise LessonError(f"step {self.id}: {action!r}: {exc}") from exc
        return g

    @property
    def roll(self) -> tuple[int, int] | None:
        return self.dice[0] if self.dice else None

    def context(self) -> dict[str, Any]:
        view = self.state.view(0)
        dice = self.roll if self.rolled else None
        return {"board": view["board"], "dice": dice, "cube": view["cube"]}


@dataclass(eq=False)
class BgPlay(BgStep):
    """Pick the legal play for the dice among `choices` (notation); bg.legal_plays judges."""

    choices: tuple[str, ...] = ()
    want: str = "legal"  # or "hit": a legal play that sends an opposing checker to the bar

    @cached_property
    def legal(self) -> set[bg.Position]:
        assert self.roll is not None
        return {p.after for p in bg.legal_plays(self.pos, self.roll)}

    def _ok(self, text: str) -> bool:
        assert self.roll is not None
        try:
            return bg.apply(self.pos, text, self.roll) in self.legal
        except bg.IllegalMove:
            return False

    def options(self) -> list[Option]:
        return [Option(c, "play", c) for c in self.choices]

    def correct(self) -> frozenset[str]:
        if self.roll is None:
            raise LessonError(f"step {self.id}: a play needs dice")
        good = [c for c in self.choices if self._ok(c)]
        if self.want == "hit":
            good = [c for c in good if self._hits(c)]
        return frozenset(good)

    def _hits(self, text: str) -> bool:
        assert self.roll is not None
        after = bg.apply(self.pos, text, self.roll)  # the opponent is on roll in `after`
        bar = bg.Game(bg.Rules(), dice=[(1, 2)], position=after).view(0)["board"]["bar"][0]
        before = self.state.view(0)["board"]["bar"][1]
        return bool(bar > before)


MOVE_WANTS = ("legal", "hit", "point", "most-off")


@dataclass(eq=False)
class BgMove(BgStep):
    """Move the checkers yourself, on the board: pick a checker, then where it goes, one
    click per die (or one for a checker using several), with undo, then confirm. The board
    is the live tables' (game.bgboard), and its planner (game.bgmoves.Turn) offers only
    steps that are part of some full legal play (bg.legal_plays), doubles included.

    The answer is the play made, in notation ("13/7 8/7"). Without JavaScript the page
    offers one chooser per die instead (the point a checker leaves, 25 = the bar), posted
    as "13,8" in the order of the dice; the engine judges both the same way. `want` says
    which of the legal plays are right:
    legal     any legal play;
    hit       one that sends an opposing checker to the bar;
    point     one that leaves two or more of the learner's checkers on `point`, which
              held fewer before (the point is made);
    most-off  one that bears off as many checkers as any legal play can."""

    want: str = "legal"
    point: int = 0
    widget: ClassVar[str] = "move"
    SOURCES: ClassVar[tuple[int, ...]] = tuple(range(25, 0, -1))

    @property
    def dice_to_play(self) -> tuple[int, ...]:
        """The dice one by one, in the order the page offers them (a double four times)."""
        assert self.roll is not None
        a, b = self.roll
        return (a,) * 4 if a == b else (a, b)

    @cached_property
    def plays(self) -> list[bg.Play]:
        if self.roll is None:
            raise LessonError(f"step {self.id}: moving needs dice")
        return bg.legal_plays(self.pos, self.roll)

    def _is_right(self, play: bg.Play) -> bool:
        if self.want == "legal":
            return True
        if self.want == "hit":
            # The opponent's bar after the play (the opponent is on roll in `after`).
            return play.after.board()[1][24] > self.pos.board()[0][24]
        if self.want == "point":
            before = self.pos.board()[1][self.point - 1]
            return before < 2 <= play.after.board()[0][self.point - 1]
        if self.want == "most-off":
            return play.after.off()[1] == max(p.after.off()[1] for p in self.plays)
        raise LessonError(f"step {self.id}: unknown want {self.want!r}")

    @cached_property
    def _right(self) -> dict[bg.Position, bg.Play]:
        if self.want not in MOVE_WANTS or (self.want == "point") != (1 <= self.point <= 24):
            raise LessonError(f"step {self.id}: want={self.want!r} point={self.point}")
        return {p.after: p for p in self.plays if self._is_right(p)}

    def correct(self) -> frozenset[str]:
        """The right plays as the engine writes them (the board confirms exactly these)."""
        return frozenset(str(p) for p in self._right.values())

    def notation(self, sources: Sequence[int | None]) -> str:
        """The chooser's answer (the point each die's checker leaves, None for a die not
        used) written as moves: (13, 8) with 6-1 is "13/7 8/1"."""
        moves = []
        for src, die in zip(sources, self.dice_to_play, strict=False):
            if src is None:
                continue
            dest = src - die
            moves.append(f"{'bar' if src == 25 else src}/{dest if dest > 0 else 'off'}")
        return " ".join(moves)

    @staticmethod
    def sources_of(answer: str) -> list[int | None] | None:
        """The chooser's "13,8" (empty for a die not used) as points, else None."""
        parts = answer.replace(" ", "").split(",")
        if not all(p == "" or p.isdigit() for p in parts):
            return None
        return [int(p) if p else None for p in parts]

    def play_of(self, answer: str) -> bg.Play | None:
        """The legal play an answer makes, or None. The chooser's moves are tried in every
        order (a checker may use the second die first); the board's notation as written."""
        assert self.roll is not None
        sources = self.sources_of(answer)
        if sources is None:
            texts = [answer]
        else:
            moves = self.notation(sources).split()
            texts = [" ".join(order) for order in dict.fromkeys(permutations(moves))]
        by_after = {p.after: p for p in self.plays}
        for text in texts:
            try:
                return by_after.get(bg.apply(self.pos, text, self.roll))
            except ValueError:  # bg.IllegalMove, or notation the parser refuses
                continue
        return None

    def played(self, answer: str) -> str:
        """The play the learner made, said back in notation (the engine's, when legal)."""
        play = self.play_of(answer)
        if play is not None:
            return str(play)
        sources = self.sources_of(answer)
        return self.notation(sources) if sources is not None else answer

    def check(self, answer: str) -> bool:
        play = self.play_of(answer)
        return play is not None and play.after in self._right

    def validate(self) -> None:
        if not self.plays:
            raise LessonError(f"step {self.id}: no legal play")
        if not self._right:
            raise LessonError(f"step {self.id}: no legal play is right")
        if self.want != "legal" and len(self._right) == len(self.plays):
            raise LessonError(f"step {self.id}: every legal play is right; nothing to learn")

    def offered(self) -> tuple[int, ...]:
        """The points the choosers offer to move from: those with one of the learner's
        checkers (25 is the bar), highest first. A checker can only leave a point it is on;
        the check itself still takes any point (the engine judges)."""
        board = self.state.view(0)["board"]
        return tuple(
            p
            for p in self.SOURCES
            if (board["bar"][0] if p == 25 else board["points"][p - 1]) > 0
        )

    def uses_every_die(self) -> bool:
        """Every legal play uses every die (then each chooser must be filled)."""
        return max(len(p.moves()) for p in self.plays) == len(self.dice_to_play)

    def a_wrong_answer(self) -> str:
        """A legal play that misses the goal (one the board lets the learner make), else,
        for want="legal", a chooser's answer the engine refuses."""
        wrong = [p for p in self.plays if p.after not in self._right]
        if wrong:
            return str(wrong[0])
        offered = self.offered()
        for combo in product(offered, repeat=len(self.dice_to_play)):
            answer = ",".join(str(p) for p in combo)
            if not self.check(answer):
                return answer
        raise LessonError(f"step {self.id}: no wrong answer")

    def after(self, answer: str) -> bg.Position:
        """The position after the answer's play, the learner still to move (to draw it)."""
        play = self.play_of(answer)
        if play is None:
            raise LessonError(f"step {self.id}: {answer!r} is no legal play")
        return play.after.swapped()


@dataclass(eq=False)
class BgCanMove(BgStep):
    """Yes or no: can the player on roll move at all with these dice?"""

    widget: ClassVar[str] = "yesno"

    def options(self) -> list[Option]:
        return [Option("yes", "yesno", "yes"), Option("no", "yesno", "no")]

    def correct(self) -> frozenset[str]:
        assert self.roll is not None
        return frozenset({"yes" if bg.legal_plays(self.pos, self.roll) else "no"})


@dataclass(eq=False)
class BgPips(BgStep):
    """Count the pips of `side` (0: the learner, on roll; 1: the opponent)."""

    side: int = 0
    widget: ClassVar[str] = "number"

    def correct(self) -> frozenset[str]:
        return frozenset({str(self.state.view(0)["board"]["pips"][self.side])})


@dataclass(eq=False)
class BgMayI(BgStep):
    """Yes or no: may the player to move do `action` (double, take …) now?"""

    action: str = ""
    widget: ClassVar[str] = "yesno"
    rolled: ClassVar[bool] = False

    def options(self) -> list[Option]:
        return [Option("yes", "yesno", "yes"), Option("no", "yesno", "no")]

    def correct(self) -> frozenset[str]:
        return frozenset({"yes" if self.action in self.state.legal_actions() else "no"})

    def context(self) -> dict[str, Any]:
        return {**super().context(), "action": self.action}


@dataclass(eq=False)
class BgCubeValue(BgStep):
    """After `actions` (and optionally `then`, e.g. "drop"), what is at stake: the cube's
    value, or with then="drop" the points the doubler wins."""

    then: str = ""
    choices: tuple[int, ...] = (1, 2, 4, 8)
    rolled: ClassVar[bool] = False

    def options(self) -> list[Option]:
        return [Option(str(n), "number", str(n)) for n in self.choices]

    def correct(self) -> frozenset[str]:
        g = self.state.apply(self.then) if self.then else self.state
        if self.then == "drop":
            assert g.result is not None
            return frozenset({str(g.result.points)})
        return frozenset({str(g.view(0)["cube"]["value"])})


@dataclass(eq=False)
class BgTakeOrDrop(BgStep):
    """The opponent (on roll, about to bear off) doubles; take or drop? Worked out by
    the engine for last-roll races: the doubler's chance p of bearing off every checker
    this roll, over the 36 throws; the taker must then be sure to finish on the next roll
    (checked over all 36). Taking risks 2 to win 2, dropping loses 1: take when p <= 3/4.
    `position` is seen from the doubler, who is on roll."""

    def options(self) -> list[Option]:
        return [Option("take", "action", "take"), Option("drop", "action", "drop")]

    @staticmethod
    def _finishes(pos: bg.Position, dice: tuple[int, int]) -> list[bool]:
        return [p.after.off()[1] == 15 for p in bg.legal_plays(pos, dice)]

    @cached_property
    def doubler_chance(self) -> float:
        throws = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        wins = 0
        for dice in throws:
            outcomes = self._finishes(self.pos, dice)
            if outcomes and any(outcomes):
                wins += 1
                continue
            for p in bg.legal_plays(self.pos, dice) or []:
                for reply in throws:
                    if not any(self._finishes(p.after, reply)):
                        raise LessonError(f"step {self.id}: not a last-roll race")
        return wins / 36

    def correct(self) -> frozenset[str]:
        return frozenset({"take" if self.doubler_chance <= 0.75 else "drop"})

    def context(self) -> dict[str, Any]:
        # Drawn from the taker's side: the learner is the one being doubled.
        view = self.state.view(1)
        return {"board": view["board"], "dice": None, "cube": view["cube"]}


STEP_KINDS: dict[str, type[Step]] = {
    cls.__name__: cls
    for cls in (
        PlayCard,
        ChooseAction,
        MayI,
        PickWinner,
        CountTrumps,
        TrumpSuit,
        HandOutcome,
        IsOver,
        WhoIsToMove,
        SpotRenege,
        BgPlay,
        BgMove,
        BgCanMove,
        BgPips,
        BgMayI,
        BgCubeValue,
        BgTakeOrDrop,
    )
}


@dataclass(frozen=True)
class Lesson:
    slug: str
    game: str  # "courtpiece" | "backgammon"
    rules_page: str  # the guide page it teaches (RULES_SLUGS)
    steps: tuple[Step, ...] = field(default=())
    order: int = 0

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)
