"""Backgammon games and matches: opening roll, fair dice, moves, cube, resignation.

Both ``Game`` and ``Match`` are immutable: ``apply(action)`` returns a new object or
raises ``IllegalMove`` (a ValueError) saying why. Actions (ENGINE_CONTRACT.md):

    roll | move:<notation> | double | take | drop | beaver | resign:1|2|3 | accept | reject

Dice come from ``fair.dice(server_seed, client_seeds, n)`` where n counts every throw of
the match from 0, opening throws included (in a money game the match is that one game).
At the opening throw (BG-2) seat 0 takes the first die and seat 1 the second.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from game.engine import fair
from game.engine.backgammon.matchid import DROPPED, OVER, PLAYING, RESIGNED, MatchState
from game.engine.backgammon.position import (
    IllegalMove,
    Play,
    Position,
    find_play,
    legal_plays,
)

MAX_CUBE = 2**12  # far beyond any real game; keeps the Match ID's 4-bit field safe

ROLL, MOVE, DOUBLED, RESIGN, GAME_OVER = "roll", "move", "doubled", "resign", "over"
KINDS = {1: "single", 2: "gammon", 3: "backgammon"}


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
        if not isinstance(self.auto_doubles, int) or not 0 <= self.auto_doubles <= 6:
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


class Game:
    """One game of backgammon between seats 0 and 1 (money play, or one game of a Match).

    Give either ``seed`` (the server seed, committed to before play) with optional
    ``client_seeds``, or ``dice``: an explicit list of throws (for lessons and tests).
    ``position`` starts from a set-up position (seen from ``turn``, who rolls first)
    instead of the start and the opening throw.
    """

    __slots__ = (
        "_base",
        "_dice_list",
        "_n",
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
        self.rules = rules or Rules()
        if (seed is None) == (dice is None):
            raise ValueError("give exactly one of seed= or dice=")
        if seed is not None and not isinstance(seed, str):
            raise ValueError("seed must be a string")
        if length and (self.rules.jacoby or self.rules.beaver or self.rules.auto_doubles):
            raise ValueError("jacoby, beaver and auto_doubles are money-play options")
        self.seed = seed
        self.client_seeds = tuple(client_seeds)
        self._dice_list = tuple(dice) if dice is not None else None
        self._base = first_throw
        self._n = 0  # throws used so far in this game
        self.length = length
        self.score = score
        self.crawford_game = crawford_game
        self.cube = 1
        self.owner: int | None = None
        self.history: tuple[tuple[int, str], ...] = ()
        self.rolls: tuple[tuple[int, tuple[int, int]], ...] = ()
        self.opening: tuple[tuple[int, int], ...] = ()
        self.resign_level = 0
        self.result: Result | None = None
        if position is not None:
            # A set-up position (lessons, tests): no opening throw, ``turn`` is to roll.
            if turn not in (0, 1) or not isinstance(position, Position):
                raise ValueError("position must be a Position and turn 0 or 1")
            self.pos = position
            self.turn = turn
            self.dice = None
            self._plays = []
            self.phase = ROLL
            return
        self.pos = self.rules.start_position()
        # BG-2: each seat throws one die; equal dice are thrown again (and, as a house
        # rule in money play, double the cube).
        while True:
            a, b = self._throw()
            self.opening += ((a, b),)
            if a != b:
                break
            if self.rules.auto_doubles and len(self.opening) <= self.rules.auto_doubles:
                self.cube *= 2
        self.turn = 0 if a > b else 1
        self._start_move((a, b))

    # --- internals -------------------------------------------------------------------
    def _throw(self) -> tuple[int, int]:
        n = self._base + self._n
        self._n += 1
        if self._dice_list is not None:
            if n >= len(self._dice_list):
                raise IllegalMove("the given list of dice has run out")
            d = self._dice_list[n]
            ok = isinstance(d, tuple) and len(d) == 2
            if not (ok and all(isinstance(x, int) and 1 <= x <= 6 for x in d)):
                raise ValueError(f"bad throw {d!r} in dice list")
            return d
        assert self.seed is not None
        return fair.dice(self.seed, self.client_seeds, n)

    def _copy(self) -> Game:
        g = object.__new__(Game)
        for name in Game.__slots__:
            object.__setattr__(g, name, getattr(self, name))
        return g

    def _start_move(self, dice: tuple[int, int]) -> None:
        """Dice are on the board for self.turn; with no legal play the turn is lost."""
        self.rolls += ((self.turn, dice),)
        plays = legal_plays(self.pos, dice)
        if plays:
            self.dice = dice
            self._plays = plays
            self.phase = MOVE
        else:  # BG-8 / BG-6: no legal play at all, the whole roll is lost
            self._pass_turn()

    def _pass_turn(self) -> None:
        self.pos = self.pos.swapped()
        self.turn = 1 - self.turn
        self.dice = None
        self._plays = []
        self.phase = ROLL

    def _finish(self, winner: int, level: int, how: str) -> None:
        counted = level
        if level > 1 and self.rules.jacoby and self.owner is None and not self.length:
            counted = 1  # BG-11 Jacoby: the cube was never turned
        self.result = Result(winner, KINDS[level], how, self.cube, counted * self.cube)
        self.phase = GAME_OVER
        self.dice = None
        self._plays = []

    def _may_double(self) -> bool:
        return (
            self.rules.cube
            and not self.crawford_game
            and self.owner in (None, self.turn)
            and self.cube * 2 <= MAX_CUBE
        )

    def _may_beaver(self) -> bool:
        return self.rules.beaver and not self.length and self.cube * 4 <= MAX_CUBE

    # --- the contract ----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase == GAME_OVER:
            return None
        if self.phase in (DOUBLED, RESIGN):
            return 1 - self.turn
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def legal_plays(self) -> list[Play]:
        """The plays open to the player on roll (empty outside the move phase)."""
        return list(self._plays) if self.phase == MOVE else []

    def legal_actions(self) -> list[str]:
        if self.phase == ROLL:
            acts = ["roll"]
            if self._may_double():
                acts.append("double")
            return [*acts, "resign:1", "resign:2", "resign:3"]
        if self.phase == MOVE:
            return [f"move:{p}" for p in self._plays] + ["resign:1", "resign:2", "resign:3"]
        if self.phase == DOUBLED:
            return ["take", "drop", "beaver"] if self._may_beaver() else ["take", "drop"]
        if self.phase == RESIGN:
            return ["accept", "reject"]
        return []

    def apply(self, action: str) -> Game:
        if not isinstance(action, str):
            raise IllegalMove(f"an action is a string, not {type(action).__name__}")
        if self.phase == GAME_OVER:
            raise IllegalMove("the game is over")
        g = self._copy()
        seat = self.to_move
        verb, _, arg = action.partition(":")
        if verb == "roll" and not arg and self.phase == ROLL:
            g._start_move(g._throw())
        elif verb == "move" and self.phase == MOVE:
            assert self.dice is not None
            play = find_play(self.pos, self.dice, arg)
            g.pos = play.after  # seen from the opponent's side, as g.turn says next
            g.turn = 1 - self.turn
            g.dice = None
            if g.pos.theirs & 15 == 15:  # the mover (now not on roll) bore off all 15
                g._finish(self.turn, _win_level(g.pos), "bearoff")
            else:
                g._plays = []
                g.phase = ROLL
            action = f"move:{play}"
        elif verb == "double" and not arg and self.phase == ROLL:
            if not self._may_double():
                raise IllegalMove(self._why_no_double())
            g.phase = DOUBLED
        elif verb in ("take", "drop", "beaver") and not arg and self.phase == DOUBLED:
            if verb == "drop":  # BG-11: the doubler wins the cube's value before doubling
                g._finish(self.turn, 1, "drop")
            else:
                if verb == "beaver" and not self._may_beaver():
                    raise IllegalMove("beavers are off at this table")
                g.cube *= 4 if verb == "beaver" else 2
                g.owner = 1 - self.turn
                g.phase = ROLL
        elif verb == "resign" and self.phase in (ROLL, MOVE):
            if arg not in ("1", "2", "3"):
                raise IllegalMove("resign:1 (single), resign:2 (gammon) or resign:3 (backgammon)")
            g.resign_level = int(arg)
            g.phase = RESIGN
        elif verb in ("accept", "reject") and not arg and self.phase == RESIGN:
            if verb == "accept":
                g._finish(1 - self.turn, self.resign_level, "resign")
            else:
                g.phase = MOVE if self.dice is not None else ROLL
            g.resign_level = 0
        else:
            raise IllegalMove(self._why_not(action))
        g.history = (*self.history, (seat, action))  # type: ignore[arg-type]
        return g

    def _why_no_double(self) -> str:
        if not self.rules.cube:
            return "this table plays without the cube"
        if self.crawford_game:
            return "no doubling in the Crawford game"
        if self.owner is not None and self.owner != self.turn:
            return "only the cube's owner may double"
        return "the cube is at its limit"

    def _why_not(self, action: str) -> str:
        wants = {
            ROLL: "roll, double or resign",
            MOVE: "a move (move:8/3 6/3) or resign",
            DOUBLED: "take, drop" + (" or beaver" if self._may_beaver() else ""),
            RESIGN: "accept or reject",
        }[self.phase]
        return f"{action!r} is not possible now: seat {self.to_move} must {wants}"

    # --- ids and views -----------------------------------------------------------------
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
        points = [mine_pts[i] - theirs_pts[23 - i] for i in range(24)]
        off = p.off()
        return {
            "points": points,  # index 0 = point 1; > 0 seat's checkers, < 0 opponent's
            "bar": [mine_pts[24], theirs_pts[24]],
            "off": list(off),
            "pips": list(p.pips()),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the board for both players (backgammon hides nothing), never the
        unrevealed server seed nor any future throw."""
        if seat not in (0, 1, None):
            raise ValueError("seat is 0, 1 or None")
        side = 0 if seat is None else seat
        v: dict[str, Any] = {
            "game": "backgammon",
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move,
            "turn": self.turn,
            "dice": list(self.dice) if self.dice else None,
            "board": self.board(side),
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
            "fairness": {
                "commitment": fair.commitment(self.seed) if self.seed is not None else None,
                "client_seeds": list(self.client_seeds),
                "server_seed": None,
            },
        }
        if self.seed is not None and self.is_over and not self.length:
            v["fairness"]["server_seed"] = self.seed  # a money game reveals at its end
        return v


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


class Match:
    """A match to ``length`` points (BG-11): games follow each other until a seat has
    ``length`` points. The Crawford rule (on by default) bars doubling in the one game
    after a seat first reaches ``length - 1``."""

    __slots__ = (
        "_dice",
        "client_seeds",
        "crawford_done",
        "game",
        "games",
        "history",
        "length",
        "rules",
        "scores",
        "seed",
    )

    def __init__(
        self,
        length: int,
        rules: Rules | None = None,
        *,
        seed: str | None = None,
        client_seeds: Sequence[str] = (),
        dice: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        if not isinstance(length, int) or not 1 <= length <= 64:
            raise ValueError("a match is played to 1..64 points")
        self.rules = rules or Rules()
        self.length = length
        self.seed = seed
        self.client_seeds = tuple(client_seeds)
        self._dice = tuple(dice) if dice is not None else None
        self.scores = (0, 0)
        self.crawford_done = False
        self.history: tuple[tuple[int, int, str], ...] = ()  # (game number, seat, action)
        self.games: tuple[Result, ...] = ()
        self.game = self._new_game(first_throw=0, crawford=False)

    def _new_game(self, first_throw: int, crawford: bool) -> Game:
        return Game(
            self.rules,
            seed=self.seed,
            client_seeds=self.client_seeds,
            dice=self._dice,
            length=self.length,
            score=self.scores,
            crawford_game=crawford,
            first_throw=first_throw,
        )

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.game.to_move

    @property
    def is_over(self) -> bool:
        return max(self.scores) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.length else 1

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else self.game.legal_actions()

    def apply(self, action: str) -> Match:
        if self.is_over:
            raise IllegalMove("the match is over")
        seat = self.game.to_move
        game = self.game.apply(action)
        m = object.__new__(Match)
        for name in Match.__slots__:
            object.__setattr__(m, name, getattr(self, name))
        m.history = (*self.history, (len(self.games), seat, game.history[-1][1]))  # type: ignore[assignment]
        m.game = game
        if game.result is not None:
            r = game.result
            scores = list(self.scores)
            scores[r.winner] += r.points
            m.scores = (scores[0], scores[1])
            m.games = (*self.games, r)
            if not m.is_over:
                crawford = (
                    self.rules.crawford
                    and self.rules.cube
                    and not self.crawford_done
                    and max(m.scores) == self.length - 1
                )
                if crawford:
                    m.crawford_done = True
                m.game = m._new_game(game._base + game._n, crawford)
        return m

    def match_id(self) -> str:
        return self.game.match_id()

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self.game.view(seat)
        v["match"] = {
            "length": self.length,
            "scores": list(self.scores),
            "games": [asdict(r) for r in self.games],
            "is_over": self.is_over,
            "winner": self.winner,
        }
        if self.is_over:
            v["legal_actions"] = []
            v["to_move"] = None
            if self.seed is not None:
                v["fairness"]["server_seed"] = self.seed
        return v
