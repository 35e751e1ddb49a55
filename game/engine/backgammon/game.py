"""Backgammon games and matches: opening roll, fair dice, moves, cube, resignation.

``Game`` and ``Match`` speak the one protocol of ``game/engine/protocol.py``: ``to_move``,
``legal_actions()``, ``apply(action, seat=None)``, ``is_over``, ``result``,
``view(seat)``, ``history``. Both are immutable: ``apply`` returns a new object or raises
``IllegalMove`` (a ``game.engine.IllegalAction``) saying why, and changes nothing.
Actions (README, "Backgammon engine"):

    roll | move:<notation> | double | take | drop | beaver | resign:1|2|3 | accept | reject

Dice come from ``fair.dice(server_seed, client_seeds, n)``. Without a hash chain n counts
every throw of the match from 0, opening throws included (in a money game the match is
that one game); with ``Match(…, chain=N)`` game k throws from its own server seed, n
from 0. At the opening throw (BG-2) seat 0 takes the first die and seat 1 the second.
Rule IDs (BG-n) are those of docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar, cast

from game.engine import fair
from game.engine.backgammon.matchid import DROPPED, OVER, PLAYING, RESIGNED, MatchState
from game.engine.backgammon.position import (
    IllegalMove,
    Play,
    Position,
    find_play,
    legal_plays,
)
from game.engine.protocol import check_turn

MAX_CUBE = 2**12  # far beyond any real game; keeps the Match ID's 4-bit field safe

# The phases of a game: who decides what next (Game.to_move, Game.legal_actions).
ROLL, MOVE, DOUBLED, RESIGN, GAME_OVER = "roll", "move", "doubled", "resign", "over"
KINDS = {1: "single", 2: "gammon", 3: "backgammon"}
RESIGNS = ["resign:1", "resign:2", "resign:3"]


@dataclass(frozen=True)
class Rules:
    """Table options (BG-2, BG-11, BG-13). Bad values raise ValueError.

    cube          the doubling cube is in play; False = Tavla style, no cube (BG-13)
    jacoby        money play: gammons and backgammons count only once the cube is turned
    beaver        money play: the taker may redouble at once, keeping the cube
    crawford      match play: no doubling in the game after a player first reaches
                  match point minus one
    auto_doubles  money play: how many times equal opening dice double the cube (0 = off)
    start         "standard" | "nackgammon"
    """

    cube: bool = True
    jacoby: bool = False
    beaver: bool = False
    crawford: bool = True
    auto_doubles: int = 0
    start: str = "standard"

    def __post_init__(self) -> None:
        for name in ("cube", "jacoby", "beaver", "crawford"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be True or False")
        if not _is_whole(self.auto_doubles) or not 0 <= self.auto_doubles <= 6:
            raise ValueError("option auto_doubles must be a whole number 0..6")
        if self.start not in ("standard", "nackgammon"):
            raise ValueError(f"option start must be 'standard' or 'nackgammon', not {self.start!r}")
        if not self.cube and (self.jacoby or self.beaver or self.auto_doubles):
            raise ValueError("jacoby, beaver and auto_doubles need the cube")

    def start_position(self) -> Position:
        return Position.nackgammon() if self.start == "nackgammon" else Position.start()


@dataclass(frozen=True)
class Result:
    """How a game ended. ``kind`` is what happened on the board (or was resigned);
    ``points`` already include the cube and the Jacoby rule."""

    winner: int
    kind: str  # "single" | "gammon" | "backgammon" (BG-10)
    how: str  # "bearoff" | "drop" | "resign"
    cube: int
    points: int


@dataclass(frozen=True)
class MatchResult:
    """How a match ended: the winner, the final scores and every game's result."""

    winner: int
    scores: tuple[int, int]
    games: tuple[Result, ...]


def _is_whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _copy_fields(target: object, source: object, fields: tuple[str, ...]) -> None:
    """Copy every slot; ``object.__setattr__`` passes a frozen target's guard."""
    for name in fields:
        object.__setattr__(target, name, getattr(source, name))


def _refuse_write(self: object, name: str, value: object) -> None:
    raise AttributeError(f"{type(self).__name__} is immutable: apply() returns a new one")


def _refuse_delete(self: object, name: str) -> None:
    raise AttributeError(f"{type(self).__name__} is immutable: apply() returns a new one")


_State = TypeVar("_State")


def _freeze(draft: object, frozen: type[_State]) -> _State:
    """The finished draft becomes the frozen class. The two share their slots (one base
    class, no slots of their own), so the switch is allowed and costs no copy."""
    object.__setattr__(draft, "__class__", frozen)
    return cast(_State, draft)


# --- games ----------------------------------------------------------------------------
def _each_view(self: Any, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """``views`` of a Game and a Match (the protocol's), each view built on its own: a
    board's view differs by the side it is seen from."""
    return {seat: self.view(seat) for seat in seats}


class _GameFields:
    """Every field of a game, declared once with its type, and the read-only questions
    both the frozen ``Game`` and the ``_Draft`` it is changed in ask of them.

    The two classes share this slot layout and nothing else, so a finished draft becomes
    a Game by switching its class (``_freeze``): no field is copied twice, and every write
    while the draft is open is a plain, type-checked attribute assignment.
    """

    __slots__ = (
        "_dice_list",
        "_first_throw",
        "_n",
        "_play_names",
        "_plays",
        "client_seeds",
        "crawford_game",
        "cube",
        "dice",
        "history",
        "length",
        "opening",
        "owner",
        "phase",
        "pos",
        "resign_level",
        "result",
        "rolls",
        "rules",
        "score",
        "seed",
        "turn",
    )

    rules: Rules
    seed: str | None  # the server seed the dice come from (None with a list of dice)
    client_seeds: tuple[str, ...]
    _dice_list: tuple[tuple[int, int], ...] | None  # explicit throws (lessons, tests)
    _first_throw: int  # the counter n of this game's first throw
    _n: int  # throws used so far in this game
    length: int  # the match length; 0 = a money game
    score: tuple[int, int]  # the match score before this game
    crawford_game: bool
    cube: int
    owner: int | None  # the seat that owns the cube; None = centred
    pos: Position  # seen from ``turn``
    turn: int  # the seat on roll (or whose roll it is)
    phase: str  # ROLL | MOVE | DOUBLED | RESIGN | GAME_OVER
    dice: tuple[int, int] | None  # on the board in the MOVE phase
    _plays: tuple[Play, ...]  # the legal plays of ``dice`` (MOVE phase only)
    # legal_actions' names of ``_plays``, formatted when first asked: (the plays they
    # name, the names), stale once ``_plays`` is another tuple
    _play_names: tuple[tuple[Play, ...], tuple[str, ...]] | None
    resign_level: int  # 1..3 while a resignation is offered, else 0
    result: Result | None
    history: tuple[tuple[int, str], ...]  # (seat, canonical action), oldest first
    rolls: tuple[tuple[int, tuple[int, int]], ...]  # (seat, dice) of every turn's roll
    opening: tuple[tuple[int, int], ...]  # the opening throws, equal ones included

    @property
    def to_move(self) -> int | None:
        if self.phase == GAME_OVER:
            return None
        if self.phase in (DOUBLED, RESIGN):
            return 1 - self.turn
        return self.turn

    @property
    def _next_throw(self) -> int:
        """The counter n the next throw would use."""
        return self._first_throw + self._n

    def _may_double(self) -> bool:
        return (
            self.rules.cube
            and not self.crawford_game
            and self.owner in (None, self.turn)
            and self.cube * 2 <= MAX_CUBE
        )

    def _may_beaver(self) -> bool:
        return self.rules.beaver and not self.length and self.cube * 4 <= MAX_CUBE


# Every field of a game (public: the tests try to write each one of a Game).
GAME_FIELDS = _GameFields.__slots__


class _Draft(_GameFields):
    """A game while it is built or changed: its fields are writable. Each action step
    checks its argument, changes the draft and returns the action as the history keeps
    it; an IllegalMove raised on the way discards the draft, so nothing changes."""

    __slots__ = ()

    # --- dice and turns ---------------------------------------------------------------
    def _throw(self) -> tuple[int, int]:
        n = self._next_throw
        self._n += 1
        if self._dice_list is None:
            assert self.seed is not None
            return fair.dice(self.seed, self.client_seeds, n)
        if n >= len(self._dice_list):
            raise IllegalMove("the given list of dice has run out")
        d = self._dice_list[n]
        ok = isinstance(d, tuple) and len(d) == 2
        if not (ok and all(isinstance(x, int) and 1 <= x <= 6 for x in d)):
            raise ValueError(f"bad throw {d!r} in dice list")
        return d

    def _set_up(self, position: Position | None, turn: int) -> None:
        """The board before the first decision: a set-up position with ``turn`` to roll
        (lessons, tests), or the start and the opening throw."""
        if position is not None:
            if turn not in (0, 1) or not isinstance(position, Position):
                raise ValueError("position must be a Position and turn 0 or 1")
            self.pos = position
            self.turn = turn
            return
        self.pos = self.rules.start_position()
        a, b = self._opening_throw()
        self.turn = 0 if a > b else 1
        self._start_move((a, b))

    def _opening_throw(self) -> tuple[int, int]:
        """BG-2: each seat throws one die; equal dice are thrown again (and, as a house
        rule in money play, double the cube)."""
        while True:
            a, b = self._throw()
            self.opening += ((a, b),)
            if a != b:
                return a, b
            if self.rules.auto_doubles and len(self.opening) <= self.rules.auto_doubles:
                self.cube *= 2

    def _start_move(self, dice: tuple[int, int]) -> None:
        """Dice are on the board for self.turn; with no legal play the turn is lost."""
        self.rolls += ((self.turn, dice),)
        plays = legal_plays(self.pos, dice)
        if plays:
            self.dice = dice
            self._plays = tuple(plays)
            self.phase = MOVE
        else:  # BG-8 / BG-6: no legal play at all, the whole roll is lost
            self._pass_turn(self.pos.swapped())

    def _pass_turn(self, after: Position) -> None:
        """The other seat is to roll in ``after`` (seen from that seat)."""
        self.pos = after
        self.turn = 1 - self.turn
        self.dice = None
        self._plays = ()
        self.phase = ROLL

    def _finish(self, winner: int, level: int, how: str) -> None:
        counted = level
        if level > 1 and self.rules.jacoby and self.owner is None and not self.length:
            counted = 1  # BG-11 Jacoby: the cube was never turned
        self.result = Result(winner, KINDS[level], how, self.cube, counted * self.cube)
        self.phase = GAME_OVER
        self.dice = None
        self._plays = ()

    # --- the action steps, one per (phase, verb) of STEPS -------------------------------
    def _roll(self, arg: str) -> str:
        self._start_move(self._throw())
        return "roll"

    def _move(self, arg: str) -> str:
        assert self.dice is not None
        play = find_play(self.pos, self.dice, arg)
        mover = self.turn
        self._pass_turn(play.after)  # seen from the opponent's side, as self.turn says
        if self.pos.theirs & 15 == 15:  # the mover (now not on roll) bore off all 15
            self._finish(mover, _win_level(self.pos), "bearoff")
        return f"move:{play}"

    def _double(self, arg: str) -> str:
        if not self._may_double():
            raise IllegalMove(self._why_no_double())
        self.phase = DOUBLED
        return "double"

    def _take(self, arg: str) -> str:
        self._accept_cube(2)
        return "take"

    def _beaver(self, arg: str) -> str:
        if not self._may_beaver():
            raise IllegalMove("beavers are off at this table")
        self._accept_cube(4)
        return "beaver"

    def _accept_cube(self, factor: int) -> None:
        self.cube *= factor
        self.owner = 1 - self.turn
        self.phase = ROLL

    def _drop(self, arg: str) -> str:
        self._finish(self.turn, 1, "drop")  # BG-11: the doubler wins the cube's value
        return "drop"

    def _resign(self, arg: str) -> str:
        if arg not in ("1", "2", "3"):
            raise IllegalMove("resign:1 (single), resign:2 (gammon) or resign:3 (backgammon)")
        self.resign_level = int(arg)
        self.phase = RESIGN
        return f"resign:{arg}"

    def _accept(self, arg: str) -> str:
        self._finish(1 - self.turn, self.resign_level, "resign")
        self.resign_level = 0
        return "accept"

    def _reject(self, arg: str) -> str:
        self.phase = MOVE if self.dice is not None else ROLL
        self.resign_level = 0
        return "reject"

    def _why_no_double(self) -> str:
        if not self.rules.cube:
            return "this table plays without the cube"
        if self.crawford_game:
            return "no doubling in the Crawford game"
        if self.owner is not None and self.owner != self.turn:
            return "only the cube's owner may double"
        return "the cube is at its limit"


# Which step each (phase, verb) runs; a pair not here is refused, saying what is open.
# Public: the tests check that every pair here is one they cover.
STEPS: dict[tuple[str, str], Callable[[_Draft, str], str]] = {
    (ROLL, "roll"): _Draft._roll,
    (ROLL, "double"): _Draft._double,
    (ROLL, "resign"): _Draft._resign,
    (MOVE, "move"): _Draft._move,
    (MOVE, "resign"): _Draft._resign,
    (DOUBLED, "take"): _Draft._take,
    (DOUBLED, "drop"): _Draft._drop,
    (DOUBLED, "beaver"): _Draft._beaver,
    (RESIGN, "accept"): _Draft._accept,
    (RESIGN, "reject"): _Draft._reject,
}
# The verbs written with an argument after a colon; every other verb stands alone.
_WITH_ARGUMENT = frozenset({"move", "resign"})

_WANTS = {
    ROLL: "roll, double or resign",
    MOVE: "a move (move:8/3 6/3) or resign",
    RESIGN: "accept or reject",
}


def _win_level(after: Position) -> int:
    """BG-10 from the position after the winning move (loser on roll = ``mine``)."""
    loser = after.mine
    if loser & 15:
        return 1
    # backgammon: a loser's checker on the bar (slot 25) or in the winner's home board,
    # which is the loser's points 19..24
    if loser >> (4 * 19):
        return 3
    return 2


def _dice_tuple(dice: Sequence[tuple[int, int]] | None) -> tuple[tuple[int, int], ...] | None:
    return tuple(dice) if dice is not None else None


class Game(_GameFields):
    """One game of backgammon between seats 0 and 1 (money play, or one game of a Match).

    Give either ``seed`` (the server seed, committed to before play) with optional
    ``client_seeds``, or ``dice``: an explicit list of throws (for lessons and tests).
    ``position`` starts from a set-up position (seen from ``turn``, who rolls first)
    instead of the start and the opening throw. ``first_throw`` is the counter n of the
    game's first throw (a Match passes it on from game to game).

    Immutable: every field refuses writes; ``apply`` returns a new Game.
    """

    __slots__ = ()
    __setattr__ = _refuse_write
    __delattr__ = _refuse_delete

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: str | None = None,
        client_seeds: Sequence[str] = (),
        dice: Sequence[tuple[int, int]] | None = None,
        length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford_game: bool = False,
        first_throw: int = 0,
        position: Position | None = None,
        turn: int = 0,
    ) -> None:
        rules = rules or Rules()
        _check_game_options(rules, seed, dice, length, score, first_throw)
        g = object.__new__(_Draft)
        g.rules = rules
        g.seed = seed
        g.client_seeds = tuple(client_seeds)
        g._dice_list = _dice_tuple(dice)
        g._first_throw = first_throw
        g._n = 0
        g.length = length
        g.score = (score[0], score[1])
        g.crawford_game = crawford_game
        g.cube = 1
        g.owner = None
        g.history = ()
        g.rolls = ()
        g.opening = ()
        g.resign_level = 0
        g.result = None
        g.dice = None
        g._plays = ()
        g._play_names = None
        g.phase = ROLL
        g._set_up(position, turn)
        _copy_fields(self, g, GAME_FIELDS)

    # --- the protocol -----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def legal_plays(self) -> list[Play]:
        """The plays open to the player on roll (empty outside the move phase)."""
        return list(self._plays) if self.phase == MOVE else []

    @property
    def throws_used(self) -> int:
        """How many throws of the dice this game has drawn so far, equal opening throws
        included: ``fair.dice(seed, client_seeds, n)`` for n from the game's
        ``first_throw`` on (from 0 in a money game and in each game of a chained match)."""
        return self._n

    def legal_actions(self) -> list[str]:
        if self.phase == ROLL:
            return ["roll", "double", *RESIGNS] if self._may_double() else ["roll", *RESIGNS]
        if self.phase == MOVE:
            # A game never changes, so neither do its plays' names: formatted once, kept
            # on the game. A table asks several times a move (the checks, the mover's
            # view, the frame) and formatting every play was 29% of its server's time
            # (py-spy).
            kept = self._play_names
            if kept is None or kept[0] is not self._plays:
                kept = (self._plays, (*(f"move:{p}" for p in self._plays), *RESIGNS))
                object.__setattr__(self, "_play_names", kept)  # a memo, not a change
            return list(kept[1])
        if self.phase == DOUBLED:
            return ["take", "drop", "beaver"] if self._may_beaver() else ["take", "drop"]
        if self.phase == RESIGN:
            return ["accept", "reject"]
        return []

    def apply(self, action: str, seat: int | None = None) -> Game:
        """The game after ``action`` by ``to_move``; with ``seat``, a seat that is not
        ``to_move`` is refused ("not your turn")."""
        if not isinstance(action, str):
            raise IllegalMove(f"an action is a string, not {type(action).__name__}")
        if self.phase == GAME_OVER:
            raise IllegalMove("the game is over")
        mover = self.to_move
        check_turn(mover, seat)
        assert mover is not None
        verb, colon, arg = action.partition(":")
        step = STEPS.get((self.phase, verb))
        if step is None or (colon and verb not in _WITH_ARGUMENT):
            raise IllegalMove(self._why_not(action))
        g = _thaw(self)
        done = step(g, arg)
        g.history = (*self.history, (mover, done))
        return _freeze(g, Game)

    def _why_not(self, action: str) -> str:
        if self.phase == DOUBLED:
            wants = "take, drop" + (" or beaver" if self._may_beaver() else "")
        else:
            wants = _WANTS[self.phase]
        return f"{action!r} is not possible now: seat {self.to_move} must {wants}"

    # --- ids and views ----------------------------------------------------------------
    def match_state(self) -> MatchState:
        state = PLAYING
        if self.result is not None:
            state = {"drop": DROPPED, "resign": RESIGNED}.get(self.result.how, OVER)
        return MatchState(
            cube=self.cube,
            owner=self.owner,
            on_roll=self.turn,
            crawford=self.crawford_game,
            state=state,
            turn=self.to_move if self.to_move is not None else self.turn,
            doubled=self.phase == DOUBLED,
            resigned=self.resign_level,
            dice=self.dice or (0, 0),
            length=self.length,
            score=self.score,
            jacoby=self.rules.jacoby,
        )

    def match_id(self) -> str:
        return self.match_state().to_id()

    def position_id(self) -> str:
        """GNU Backgammon Position ID, seen from the player on roll."""
        return self.pos.to_id()

    def board(self, seat: int) -> dict[str, Any]:
        """The board as ``seat`` sees it: points 1..24 counted from seat's side."""
        p = self.pos if seat == self.turn else self.pos.swapped()
        theirs_pts, mine_pts = p.board()
        return {
            # index 0 = point 1; > 0 seat's checkers, < 0 opponent's
            "points": [mine_pts[i] - theirs_pts[23 - i] for i in range(24)],
            "bar": [mine_pts[24], theirs_pts[24]],
            "off": list(p.off()),
            "pips": list(p.pips()),
        }

    def fairness(self) -> dict[str, Any]:
        """What a player needs to check the dice, in the shape of ``Match.fairness``.

        A money game's seed is its own and is shown once the game is over. A game of a
        match never shows its seed: the match does (its view replaces this block)."""
        shown = self.seed is not None and self.is_over and not self.length
        return {
            "scheme": "single",
            "commitment": fair.commitment(self.seed) if self.seed is not None else None,
            "client_seeds": list(self.client_seeds),
            "game": 0,
            "server_seeds": [self.seed] if shown else [],
            "server_seed": self.seed if shown else None,
        }

    views = _each_view

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the board for both players (backgammon hides nothing), never an
        unrevealed server seed nor any future throw."""
        if seat not in (0, 1, None):
            raise ValueError("seat is 0, 1 or None")
        return {
            "game": "backgammon",
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move,
            "turn": self.turn,
            "dice": list(self.dice) if self.dice else None,
            "board": self.board(0 if seat is None else seat),
            "position_id": self.position_id(),
            "match_id": self.match_id(),
            "cube": {"value": self.cube, "owner": self.owner, "enabled": self.rules.cube},
            "resign_offered": self.resign_level or None,
            "opening": [list(o) for o in self.opening],
            "rolls": [[s, list(d)] for s, d in self.rolls],
            "history": [[s, a] for s, a in self.history],
            "legal_actions": self.legal_actions() if seat == self.to_move is not None else [],
            "rules": asdict(self.rules),
            "length": self.length,
            "score": list(self.score),
            "crawford_game": self.crawford_game,
            "result": asdict(self.result) if self.result else None,
            "fairness": self.fairness(),
        }

    def __repr__(self) -> str:
        return f"<bg.Game {self.phase} turn={self.turn} cube={self.cube} {self.pos!r}>"


def _check_game_options(
    rules: Rules,
    seed: str | None,
    dice: Sequence[tuple[int, int]] | None,
    length: int,
    score: tuple[int, int],
    first_throw: int,
) -> None:
    if not isinstance(rules, Rules):
        raise ValueError("rules must be a backgammon.Rules")
    if (seed is None) == (dice is None):
        raise ValueError("give exactly one of seed= or dice=")
    if seed is not None and not isinstance(seed, str):
        raise ValueError("seed must be a string")
    if not _is_whole(length) or length < 0:
        raise ValueError("length is a whole number of points (0 = money play)")
    if length and (rules.jacoby or rules.beaver or rules.auto_doubles):
        raise ValueError("jacoby, beaver and auto_doubles are money-play options")
    if not (isinstance(score, tuple) and len(score) == 2 and all(map(_is_whole, score))):
        raise ValueError("score is a pair of whole numbers")
    if not _is_whole(first_throw) or first_throw < 0:
        raise ValueError("first_throw is a whole number")


def _thaw(game: Game) -> _Draft:
    g = object.__new__(_Draft)
    _copy_fields(g, game, GAME_FIELDS)
    return g


# --- matches --------------------------------------------------------------------------
class _MatchFields:
    """Every field of a match, with its type (see ``_GameFields`` for the pattern)."""

    __slots__ = (
        "_dice",
        "_seeds",
        "client_seeds",
        "crawford_done",
        "game",
        "game_history",
        "games",
        "length",
        "rules",
        "scores",
        "seed",
    )

    rules: Rules
    length: int
    seed: str | None  # the server seed, or with a chain its top
    _seeds: tuple[str, ...] | None  # the chain's seeds: game k throws from _seeds[k]
    client_seeds: tuple[str, ...]
    _dice: tuple[tuple[int, int], ...] | None
    scores: tuple[int, int]
    crawford_done: bool  # the Crawford game has been played (or is on)
    game: Game  # the game on the board (the last one once the match is over)
    games: tuple[Result, ...]  # the finished games' results
    game_history: tuple[tuple[int, int, str], ...]  # (game number, seat, action)

    @property
    def is_over(self) -> bool:
        return max(self.scores) >= self.length


# Every field of a match (public for the same tests as GAME_FIELDS).
MATCH_FIELDS = _MatchFields.__slots__


class _MatchDraft(_MatchFields):
    """A match while it is built or changed (see ``_Draft``)."""

    __slots__ = ()

    def _new_game(self, first_throw: int, crawford: bool) -> None:
        k = len(self.games)
        self.game = Game(
            self.rules,
            seed=self._seeds[k] if self._seeds is not None else self.seed,
            client_seeds=self.client_seeds,
            dice=self._dice,
            length=self.length,
            score=self.scores,
            crawford_game=crawford,
            first_throw=first_throw if self._seeds is None else 0,
        )

    def _game_ended(self, result: Result) -> None:
        """Score the game and, unless the match is over, start the next one."""
        scores = list(self.scores)
        scores[result.winner] += result.points
        self.scores = (scores[0], scores[1])
        self.games = (*self.games, result)
        if self.is_over:
            return
        crawford = self._crawford_next()
        if crawford:
            self.crawford_done = True
        self._new_game(self.game._next_throw, crawford)

    def _crawford_next(self) -> bool:
        """BG-11: the game after a seat first reaches match point minus one."""
        return (
            self.rules.crawford
            and self.rules.cube
            and not self.crawford_done
            and max(self.scores) == self.length - 1
        )


class Match(_MatchFields):
    """A match to ``length`` points (BG-11): games follow each other until a seat has
    ``length`` points. The Crawford rule (on by default) bars doubling in the one game
    after a seat first reaches ``length - 1``.

    Fairness: with ``seed`` alone every game throws from that seed, the throw counter
    running on across the games, and the seed is shown when the match ends. With
    ``chain=N``, ``seed`` is the top of a hash chain of N server seeds (``fair.chain``):
    game k (from 0) throws from the k-th, its counter starting at 0, and that seed is
    shown as soon as game k ends. N must be at least ``2 * length - 1``, the most games a
    match can take, so a match never runs out of seeds.

    ``history`` lists ``(seat, action)`` pairs across all games, oldest first (the
    protocol's shape); ``game_history`` the same as ``(game number, seat, action)``.
    """

    __slots__ = ()
    __setattr__ = _refuse_write
    __delattr__ = _refuse_delete

    def __init__(
        self,
        length: int,
        rules: Rules | None = None,
        *,
        seed: str | None = None,
        client_seeds: Sequence[str] = (),
        dice: Sequence[tuple[int, int]] | None = None,
        chain: int | None = None,
    ) -> None:
        if not _is_whole(length) or not 1 <= length <= 64:
            raise ValueError("a match is played to 1..64 points")
        if chain is not None:
            if seed is None or dice is not None:
                raise ValueError("a chain needs seed= (its top) and no list of dice")
            if not _is_whole(chain) or chain < 2 * length - 1:
                raise ValueError(
                    f"chain must be a whole number >= {2 * length - 1} (2 * length - 1, "
                    f"the most games a match to {length} can take), not {chain!r}"
                )
        if seed is not None and not isinstance(seed, str):
            raise ValueError("seed must be a string")
        m = object.__new__(_MatchDraft)
        m.rules = rules or Rules()
        m.length = length
        m.seed = seed
        m._seeds = None if chain is None or seed is None else tuple(fair.chain(seed, chain))
        m.client_seeds = tuple(client_seeds)
        m._dice = _dice_tuple(dice)
        m.scores = (0, 0)
        m.crawford_done = False
        m.games = ()
        m.game_history = ()
        m._new_game(first_throw=0, crawford=False)
        _copy_fields(self, m, MATCH_FIELDS)

    # --- the protocol -----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.game.to_move

    @property
    def chain(self) -> int | None:
        """How many server seeds the match's hash chain holds (``chain=`` as given), or
        None when every game throws from the one seed."""
        return None if self._seeds is None else len(self._seeds)

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.length else 1

    @property
    def result(self) -> MatchResult | None:
        winner = self.winner
        return None if winner is None else MatchResult(winner, self.scores, self.games)

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        return tuple((seat, action) for _game, seat, action in self.game_history)

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else self.game.legal_actions()

    def apply(self, action: str, seat: int | None = None) -> Match:
        """The match after ``action`` in the current game; when that game ends the next
        one starts (with its opening throw) in the same step."""
        if self.is_over:
            raise IllegalMove("the match is over")
        game = self.game.apply(action, seat)  # raises IllegalMove; nothing changes
        m = object.__new__(_MatchDraft)
        _copy_fields(m, self, MATCH_FIELDS)
        mover, done = game.history[-1]
        m.game_history = (*self.game_history, (len(self.games), mover, done))
        m.game = game
        if game.result is not None:
            m._game_ended(game.result)
        return _freeze(m, Match)

    def match_id(self) -> str:
        return self.game.match_id()

    def fairness(self) -> dict[str, Any]:
        """What a player needs to check the dice, and never a seed before it is safe.

        ``game`` is the number of the game on the board (the last one once the match is
        over); ``server_seeds[k]`` is game k's server seed, listed once it is safe: with a
        chain as soon as game k is over (``commitment`` is then of the first seed and
        each later seed hashes to the one before it, ``fair.verify_chain``), without one
        when the match is over, when ``server_seed`` shows the one seed too."""
        done = len(self.games)
        commitment = None
        revealed: list[str] = []
        server_seed = None
        if self._seeds is not None:
            commitment = fair.commitment(self._seeds[0])
            revealed = list(self._seeds[:done])
        elif self.seed is not None:
            commitment = fair.commitment(self.seed)
            if self.is_over:
                revealed = [self.seed] * done
                server_seed = self.seed
        return {
            "scheme": "chain" if self._seeds is not None else "single",
            "commitment": commitment,
            "client_seeds": list(self.client_seeds),
            "game": done - 1 if self.is_over else done,
            "server_seeds": revealed,
            "server_seed": server_seed,
        }

    views = _each_view

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current game's view, the match's scores and the match's fairness block."""
        v = self.game.view(seat)
        v["match"] = {
            "length": self.length,
            "scores": list(self.scores),
            "games": [asdict(r) for r in self.games],
            "is_over": self.is_over,
            "winner": self.winner,
        }
        v["fairness"] = self.fairness()
        return v

    def __repr__(self) -> str:
        return f"<bg.Match to {self.length} scores={self.scores} games={len(self.games)}>"
