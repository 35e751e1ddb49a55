"""Backgammon's lesson steps: a position (GNU Position ID, the learner on roll) and dice,
each kind judged by game.engine.backgammon (legal plays, pips, the cube).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product
from typing import Any, ClassVar

from game.engine import backgammon as bg
from tutorials.steps.base import LessonError, Option, Step


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
    is the live tables' (game.backgammon.board), and its planner (game.backgammon.moves
    .Turn) offers only steps that are part of some full legal play (bg.legal_plays),
    doubles included.

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
        # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
        if not all(p == "" or (p.isascii() and p.isdigit() and len(p) <= 2) for p in parts):
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
