"""One backgammon turn, one checker step at a time: what a player may click next.

The engine answers for whole plays (``bg.legal_plays``); a board is played one die at a
time. ``Turn`` joins the two so that "only legal moves are possible at any point" holds
(BG-6: every partial move is part of some full legal play):

    turn = Turn(pos, (6, 5))
    turn.movable()            # {24: (Target(dst=18, …), Target(dst=13, …)), 13: (…)}
    turn = turn.move(24, 13)  # one checker, both dice, in one click
    turn.complete, turn.notation   # True, "24/13" (== str() of one of bg.legal_plays)
    turn = turn.undo()        # drops the last single-die step

Where the truth comes from. The set of plays a turn may end in, and the number of dice it
must use, are the engine's: a sequence of steps is offered only when it ends in the
position of one of ``bg.legal_plays`` (``Play.after``), with as many steps as that play's
``moves()``. The engine does not list single steps, though, nor every order in which a
play's steps may be made (it gives one, ``Play.moves()``). So the order is checked here,
one step at a time, by the four conditions a single step obeys on its own: nothing moves
before the bar has entered (BG-8), no landing on a point the opponent holds with two or
more (BG-4), bearing off only with every checker home, and from below the die's point only
when no checker is higher (BG-9). Those conditions can only remove orders, never add a
play: whatever they allow still has to end in a position the engine listed. The tests
check that every ``Play.moves()`` of the engine passes them, on random positions.

Points are the mover's (24 -> 1), 25 = bar, 0 = off, as in ``Play.moves()``. Pure Python,
no Django: tables, lessons and bots may all use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from game.engine import backgammon as bg

BAR, OFF = 25, 0
_HOME_TOP = 6


class StepError(bg.IllegalMove):
    """A step that is not on the way to any legal play; the message says why."""


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die. ``hit``: an opposing blot was sent to the bar."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def code(self) -> list[int]:
        """[src, dst, die]: what a client sends back (JSON-friendly)."""
        return [self.src, self.dst, self.die]


@dataclass(frozen=True, slots=True)
class Target:
    """Where the checker on ``src`` may go in one click: one step, or several steps of
    the same checker (both dice, or up to four of a double) whose every landing is open."""

    steps: tuple[Step, ...]

    @property
    def src(self) -> int:
        return self.steps[0].src

    @property
    def dst(self) -> int:
        return self.steps[-1].dst

    @property
    def dice(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)

    @property
    def hit(self) -> bool:
        return any(s.hit for s in self.steps)

    @property
    def combined(self) -> bool:
        return len(self.steps) > 1


# --- the board inside a turn -------------------------------------------------------------
# (mine, theirs): 26 counts each, index 0 = off, 1..24 = points from that side's own view,
# 25 = bar. The opponent's point q is the mover's point 25 - q.
_Board = tuple[tuple[int, ...], tuple[int, ...]]


def board_of(pos: bg.Position) -> _Board:
    theirs, mine = pos.board()
    off_mine, off_theirs = pos.off()
    return (off_mine, *mine), (off_theirs, *theirs)


def single_step(board: _Board, src: int, die: int) -> Step | None:
    """The step of the checker on src by die, or None where one step may not go (the
    four conditions in the module docstring)."""
    mine, theirs = board
    if not mine[src] or src == OFF:
        return None
    if mine[BAR] and src != BAR:
        return None  # BG-8: the bar enters first
    dst = src - die
    if dst > 0:
        held = theirs[25 - dst]
        if held >= 2:
            return None  # BG-4: a made point
        return Step(src, dst, die, hit=held == 1)
    if any(mine[7:26]):
        return None  # BG-9: bearing off needs every checker home
    if dst < 0 and any(mine[src + 1 : _HOME_TOP + 1]):
        return None  # BG-9: a higher number bears off only from the highest point
    return Step(src, OFF, die)


def after_step(board: _Board, step: Step) -> _Board:
    mine, theirs = list(board[0]), list(board[1])
    mine[step.src] -= 1
    mine[step.dst] += 1
    if step.hit:
        theirs[25 - step.dst] -= 1
        theirs[BAR] += 1
    return tuple(mine), tuple(theirs)


def _key(board: _Board) -> tuple[int, int]:
    """The board as the engine writes a play's result: (mine, theirs) of ``Play.after``,
    whose player on roll is the opponent."""
    mine, theirs = board
    after = bg.Position.from_points(list(theirs[1:]), list(mine[1:]))
    return after.mine, after.theirs


def _remove(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


class Turn:
    """The steps made so far in one turn, and what may follow. Immutable: ``move`` and
    ``undo`` return new turns; a step that leads to no legal play raises ``StepError``
    and changes nothing.

    ``steps`` are what the client sent back: (src, dst) or (src, dst, die) per single die.
    """

    def __init__(
        self,
        pos: bg.Position,
        dice: Sequence[int],
        steps: Iterable[Sequence[int]] = (),
    ) -> None:
        if not isinstance(pos, bg.Position):
            raise TypeError("pos must be a bg.Position")
        d = tuple(dice)
        if len(d) != 2:
            raise ValueError(f"dice are two numbers 1..6, not {dice!r}")
        self._plays = bg.legal_plays(pos, (d[0], d[1]))  # validates the dice
        self.pos = pos
        self.dice: tuple[int, int] = (d[0], d[1])
        self._tree = _Tree(pos, self.dice, self._plays)
        self.steps: tuple[Step, ...] = ()
        turn = self._with(())  # a scratch copy: nothing is cached on self before its steps
        for raw in steps:
            turn = turn.move(*self._parse(raw))
        self.steps = turn.steps

    # --- reading -----------------------------------------------------------------------
    @property
    def plays(self) -> list[bg.Play]:
        return list(self._plays)

    @cached_property
    def board(self) -> _Board:
        b = board_of(self.pos)
        for s in self.steps:
            b = after_step(b, s)
        return b

    def position(self) -> bg.Position:
        """The board now, the mover still on roll (for drawing it)."""
        mine, theirs = self.board
        return bg.Position.from_points(list(mine[1:]), list(theirs[1:]))

    @property
    def remaining(self) -> tuple[int, ...]:
        """The dice not used yet, higher first (a double: as many as are left to play)."""
        return self._tree.remaining(self.steps)

    @property
    def complete(self) -> bool:
        """Every die that can be used has been: confirm now (with no legal play at all,
        a turn is complete before it starts)."""
        return self.play is not None or not self._plays

    @cached_property
    def play(self) -> bg.Play | None:
        """The engine's play these steps make, once complete."""
        return self._tree.finished(self.board, len(self.steps))

    @property
    def notation(self) -> str | None:
        """str() of the play, once complete ("" when there was nothing to play)."""
        if not self._plays:
            return ""
        return str(self.play) if self.play is not None else None

    @property
    def forced(self) -> bool:
        """Only one legal play: the steps can still be clicked, or it can be played at once."""
        return len(self._plays) == 1

    @property
    def rest_forced(self) -> bool:
        """Only one play can still be reached from here (a forced play, or the rest of a
        turn whose first steps decided it): ``finish()`` plays it."""
        if self.complete:
            return False
        return len(self._tree.reach(self.board, self.remaining, len(self.steps))) == 1

    def finish(self) -> Turn:
        """The turn completed along the one play still reachable (StepError if several)."""
        if not self.rest_forced:
            raise StepError("more than one play is still possible: choose the steps")
        t = self
        while not t.complete:
            step = self._tree.ok_steps(t.board, t.remaining, len(t.steps))[0]
            t = t._with((*t.steps, step))
        return t

    def movable(self) -> dict[int, tuple[Target, ...]]:
        """Source point -> where its checker may go now (single steps first, then a
        checker's combined moves), highest source first. Empty once complete."""
        if self.complete:
            return {}
        return self._tree.targets(self.board, self.remaining, len(self.steps))

    def targets(self, src: int) -> tuple[Target, ...]:
        return self.movable().get(src, ())

    # --- changing ------------------------------------------------------------------------
    def move(self, src: int, dst: int, die: int | None = None) -> Turn:
        """The turn after moving the checker on src to dst: one step, or one checker's
        combined move. ``die`` picks the die where two would make the same single step
        (bearing off); without it the planner's own choice is taken (see ``targets``)."""
        target = self._resolve(src, dst, die)
        return self._with(self.steps + target.steps)

    def undo(self) -> Turn:
        """The turn without its last single-die step (nothing to undo: StepError)."""
        if not self.steps:
            raise StepError("nothing to undo")
        return self._with(self.steps[:-1])

    def codes(self) -> list[list[int]]:
        """The steps as [src, dst, die] lists, to send to a client and back."""
        return [s.code() for s in self.steps]

    # --- internals -------------------------------------------------------------------------
    def _with(self, steps: tuple[Step, ...]) -> Turn:
        t = object.__new__(Turn)
        t.pos, t.dice, t._plays, t._tree = self.pos, self.dice, self._plays, self._tree
        t.steps = steps
        return t

    @staticmethod
    def _parse(raw: Sequence[int]) -> tuple[int, int, int | None]:
        try:
            vals = [int(v) for v in raw]
        except (TypeError, ValueError):
            raise StepError(f"a step is (from, to) or (from, to, die), not {raw!r}") from None
        if len(vals) not in (2, 3):
            raise StepError(f"a step is (from, to) or (from, to, die), not {raw!r}")
        return vals[0], vals[1], vals[2] if len(vals) == 3 else None

    def _resolve(self, src: int, dst: int, die: int | None) -> Target:
        if self.complete:
            raise StepError("the turn is complete: confirm it or undo a step")
        offered = self.targets(src)
        if not offered:
            raise StepError(f"no checker on {_name(src)} may move now")
        fits = [t for t in offered if t.dst == dst and (die is None or t.dice[0] == die)]
        if not fits:
            where = ", ".join(_name(t.dst) for t in offered)
            raise StepError(f"the checker on {_name(src)} may go to {where}, not {_name(dst)}")
        return fits[0]


def _name(p: int) -> str:
    return "the bar" if p == BAR else "off" if p == OFF else str(p)


class _Tree:
    """Every order of single steps that ends in one of the turn's legal plays, searched
    once per turn and shared by all its Turn objects (memoised by board and dice left)."""

    def __init__(self, pos: bg.Position, dice: tuple[int, int], plays: list[bg.Play]) -> None:
        self.start = board_of(pos)
        self.dice = dice
        # How many dice the turn uses (BG-6) is the engine's longest Play.moves(): a play
        # may be written shorter than the dice it uses (with 6-2, 5/3/off is the same
        # position as bearing the 5 off with the 6, and the engine lists the shorter), so
        # every play is reached here with exactly that many steps.
        self.results: dict[tuple[int, int], bg.Play] = {
            (p.after.mine, p.after.theirs): p for p in plays
        }
        self.depth = max((len(p.moves()) for p in plays), default=0)
        self._memo: dict[tuple[_Board, tuple[int, ...], int], frozenset[tuple[int, int]]] = {}
        self._ok: dict[tuple[_Board, tuple[int, ...], int], list[Step]] = {}
        self._targets: dict[tuple[_Board, tuple[int, ...], int], dict[int, tuple[Target, ...]]] = {}

    def finished(self, board: _Board, depth: int) -> bg.Play | None:
        return self.results.get(_key(board)) if depth == self.depth else None

    def reach(self, board: _Board, left: tuple[int, ...], depth: int) -> frozenset[tuple[int, int]]:
        """The results (keys) reachable from here by legal single steps."""
        memo_key = (board, left, depth)
        got = self._memo.get(memo_key)
        if got is not None:
            return got
        found: set[tuple[int, int]] = set()
        if depth == self.depth:
            k = _key(board)
            if k in self.results:
                found.add(k)
        else:
            for step in self._steps(board, left):
                found |= self.reach(after_step(board, step), _remove(left, step.die), depth + 1)
        got = frozenset(found)
        self._memo[memo_key] = got
        return got

    def _steps(self, board: _Board, left: tuple[int, ...]) -> list[Step]:
        out = []
        for die in sorted(set(left), reverse=True):
            for src in range(BAR, 0, -1):
                s = single_step(board, src, die)
                if s is not None:
                    out.append(s)
        return out

    def ok_steps(self, board: _Board, left: tuple[int, ...], depth: int) -> list[Step]:
        """Single steps from here that still lead to a legal play."""
        key = (board, left, depth)
        got = self._ok.get(key)
        if got is None:
            got = self._ok[key] = [
                s
                for s in self._steps(board, left)
                if self.reach(after_step(board, s), _remove(left, s.die), depth + 1)
            ]
        return got

    def targets(
        self, board: _Board, left: tuple[int, ...], depth: int
    ) -> dict[int, tuple[Target, ...]]:
        key = (board, left, depth)
        if key not in self._targets:
            self._targets[key] = self._find_targets(board, left, depth)
        return dict(self._targets[key])

    def _find_targets(
        self, board: _Board, left: tuple[int, ...], depth: int
    ) -> dict[int, tuple[Target, ...]]:
        singles: dict[int, list[Target]] = {}
        for s in self.ok_steps(board, left, depth):
            singles.setdefault(s.src, []).append(Target((s,)))
        out: dict[int, tuple[Target, ...]] = {}
        for src in sorted(singles, reverse=True):
            chosen = self._pick_singles(board, left, depth, singles[src])
            combined = self._combined(board, left, depth, src, {t.dst for t in chosen})
            out[src] = tuple(chosen) + tuple(combined)
        return out

    def _pick_singles(
        self, board: _Board, left: tuple[int, ...], depth: int, targets: list[Target]
    ) -> list[Target]:
        """Two dice may make the same step only when bearing off (6 and 5 both bear off
        the checker on the 4-point). Where they lead to the same plays, offer one (the die
        that fits the point exactly, else the higher, BG-6/BG-9); where they lead to
        different plays, offer both, each with its die."""
        by_dst: dict[int, list[Target]] = {}
        for t in targets:
            by_dst.setdefault(t.dst, []).append(t)
        chosen: list[Target] = []
        for dst, group in by_dst.items():
            if len(group) == 1:
                chosen.extend(group)
                continue
            outcomes = {
                t: self.reach(after_step(board, t.steps[0]), _remove(left, t.dice[0]), depth + 1)
                for t in group
            }
            group.sort(key=lambda t: (t.src - t.dice[0] != dst, -t.dice[0]))
            if len(set(outcomes.values())) == 1:
                chosen.append(group[0])
            else:
                chosen.extend(group)
        return chosen

    def _combined(
        self, board: _Board, left: tuple[int, ...], depth: int, src: int, taken: set[int]
    ) -> list[Target]:
        """One checker using two or more dice in one click (24/13 with 6-5). Offered only
        where every route to that point ends in the same play: 24/13 with a blot on 18
        and an open 19 hits or not depending on the route, so it is two clicks."""
        routes: dict[int, list[tuple[tuple[Step, ...], frozenset[tuple[int, int]]]]] = {}

        def walk(b: _Board, lf: tuple[int, ...], d: int, at: int, path: tuple[Step, ...]) -> None:
            for s in self.ok_steps(b, lf, d):
                if s.src != at:
                    continue
                nb, nl = after_step(b, s), _remove(lf, s.die)
                route = (*path, s)
                if len(route) > 1:
                    routes.setdefault(s.dst, []).append((route, self.reach(nb, nl, d + 1)))
                if s.dst != OFF:
                    walk(nb, nl, d + 1, s.dst, route)

        walk(board, left, depth, src, ())
        out = []
        for dst in sorted(routes, reverse=True):
            if dst in taken:
                continue  # a single step already goes there; it keeps the other die free
            found = routes[dst]
            if len({r for _path, r in found}) == 1 and len({_end(board, p) for p, _ in found}) == 1:
                # the shortest route first (bearing off may take fewer dice one way)
                out.append(Target(min((p for p, _ in found), key=len)))
        return out

    def remaining(self, steps: tuple[Step, ...]) -> tuple[int, ...]:
        left = (
            (self.dice[0],) * 4
            if self.dice[0] == self.dice[1]
            else tuple(sorted(self.dice, reverse=True))
        )
        for s in steps:
            left = _remove(left, s.die)
        return left


def _end(board: _Board, path: tuple[Step, ...]) -> _Board:
    for s in path:
        board = after_step(board, s)
    return board
