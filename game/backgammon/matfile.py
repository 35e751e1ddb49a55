"""Finished backgammon games and matches as Jellyfish ``.mat`` match files, and back.

The ``.mat`` text is what GNU Backgammon (``import mat``), eXtreme Gammon, BGBlitz and
Snowie read: a header, then per game the score line and numbered lines with the first
player's turn on the left and the second player's on the right::

     5 point match

     Game 1
     alice : 0                      bob : 0
      1) 31: 8/5 6/5                 64: 24/18 13/9
      2)  Doubles => 2                Takes
      3) 62: 24/18 13/11
          Wins 2 points

The layout follows GNU Backgammon's own export (``export match mat``) column for column:
importers read the side of a cube action and of "Wins" from where it stands. Left is seat
0, right is seat 1. Moves are written one die at a time from the engine's
``Play.moves()`` ("24/18 18/13", "bar/22*", "6/off"), the form every importer reads.

Only what the board showed is written: dice already thrown and the moves made; never a
seed. A resignation is the "Wins" line without a last move, as GNU Backgammon writes it.
The format has no Nackgammon start and no set-up positions, so those raise ValueError;
beavers (money play only) are written " Beavers => 4", which this parser reads and other
programs may not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from game.engine import backgammon as bg

_LEFT = 28  # width of the left column after "NNN) ", as GNU Backgammon writes it
_NAME = 31  # width of the left half of a score line


# --- what a file says --------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    """One cell of a game: a seat's roll and move, or a cube action."""

    seat: int
    kind: str  # "move" | "double" | "take" | "drop" | "beaver"
    dice: tuple[int, int] | None = None  # "move": the roll
    moves: str = ""  # "move": the moves written ("" = no legal move)
    cube: int = 0  # "double" / "beaver": the cube's new value


@dataclass
class GameRecord:
    score: tuple[int, int]
    turns: list[Turn] = field(default_factory=list)
    winner: int | None = None
    points: int = 0


@dataclass
class MatchRecord:
    length: int  # 0 = money play
    names: tuple[str, str]
    games: list[GameRecord] = field(default_factory=list)


# --- export ---------------------------------------------------------------------------------
def _clean(name: str) -> str:
    # A name is one word to the readers (the colon separates it from the score).
    word = re.sub(r"[\s:]+", "_", name.strip())
    return word or "player"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _record(game: bg.Game) -> GameRecord:
    """A finished (or unfinished) game's turns, replayed from its history and rolls."""
    if game.rules.start != "standard":
        raise ValueError("the .mat format has no Nackgammon start")
    if not game.opening:
        raise ValueError("the .mat format starts every game from the opening position")
    rec = GameRecord(score=(game.score[0], game.score[1]))
    rolls = list(game.rolls)
    pos = game.rules.start_position()
    # The opening throw is the first mover's roll; every later one follows a "roll".
    pending: tuple[int, tuple[int, int]] | None = rolls.pop(0)

    def dance() -> None:
        nonlocal pos, pending
        if pending is not None:
            rec.turns.append(Turn(pending[0], "move", pending[1]))
            pos = pos.swapped()
            pending = None

    for seat, action in game.history:
        verb, _, arg = action.partition(":")
        if pending is not None and seat != pending[0] and verb not in ("accept", "reject"):
            dance()  # that roll had no legal move (BG-8): the turn passed
        if verb == "roll":
            pending = rolls.pop(0)
        elif verb == "move":
            assert pending is not None
            dice = pending[1]
            # the log holds str(play) of one of the roll's legal plays
            play = next(p for p in bg.legal_plays(pos, dice) if str(p) == arg)
            rec.turns.append(Turn(seat, "move", dice, _steps_text(play)))
            pos = play.after
            pending = None
        elif verb == "double":
            rec.turns.append(Turn(seat, "double", cube=0))
        elif verb in ("take", "drop", "beaver"):
            rec.turns.append(Turn(seat, verb))
    if pending is not None and game.result is None:
        dance()
    # A roll left unplayed by a resignation is not written: readers would take a roll
    # without a move for one that had no legal move.
    _number_cubes(rec, game)
    if game.result is not None:
        rec.winner, rec.points = game.result.winner, game.result.points
    return rec


def _number_cubes(rec: GameRecord, game: bg.Game) -> None:
    """Write the value each double and beaver turns the cube to, from the cube at the
    start (equal opening dice may have doubled it, money play's automatic doubles)."""
    equal = sum(1 for a, b in game.opening if a == b)
    cube = 2 ** min(equal, game.rules.auto_doubles)
    for i, t in enumerate(rec.turns):
        if t.kind == "double":
            rec.turns[i] = Turn(t.seat, "double", cube=cube * 2)
        elif t.kind == "take":
            cube *= 2
        elif t.kind == "beaver":
            cube *= 4
            rec.turns[i] = Turn(t.seat, "beaver", cube=cube)


def _steps_text(play: bg.Play) -> str:
    names = {25: "bar", 0: "off"}
    return " ".join(
        f"{names.get(s, s)}/{names.get(t, t)}{'*' if hit else ''}" for s, t, hit in play.moves()
    )


def _cell(t: Turn) -> str:
    if t.kind == "move":
        assert t.dice is not None
        hi, lo = max(t.dice), min(t.dice)
        return f"{hi}{lo}: {t.moves}".rstrip() + " " if t.moves else f"{hi}{lo}: "
    if t.kind == "double":
        return f" Doubles => {t.cube}"
    if t.kind == "beaver":
        return f" Beavers => {t.cube}"
    return " Takes" if t.kind == "take" else " Drops"


def _game_lines(rec: GameRecord, names: tuple[str, str], number: int, last: bool) -> list[str]:
    left = f" {names[0]} : {rec.score[0]}"
    out = [f" Game {number}", f"{left:<{_NAME}}{names[1]} : {rec.score[1]}"]
    rows: list[list[str]] = []
    row: list[str] = []
    for t in rec.turns:
        if t.seat == 0:
            if row:
                rows.append(row)
            row = [_cell(t)]
        else:
            row = [row[0] if row else "", _cell(t)]
            rows.append(row)
            row = []
    if row:
        rows.append(row)
    for i, r in enumerate(rows, start=1):
        text = r[0] if len(r) == 1 else f"{r[0]:<{_LEFT}}" + (" " if len(r[0]) >= _LEFT else "")
        if len(r) == 2:
            text += r[1]
        out.append(f"{i:3d}) {text}")
    if rec.winner is not None:
        wins = f"Wins {_points(rec.points)}" + (" and the match" if last else "")
        indent = 6 if rec.winner == 0 else 6 + _LEFT
        out.append(" " * indent + wins)
    return out


def export(
    games: bg.Game | bg.Match | Sequence[bg.Game],
    names: tuple[str, str] = ("Player_1", "Player_2"),
    *,
    length: int | None = None,
    comments: Iterable[tuple[str, str]] = (),
) -> str:
    """The ``.mat`` text of one game, a match's games (see ``match_games``), or a list.

    ``length`` is the match length (0 = money play); taken from the games when not given.
    ``comments`` are (key, value) header lines, e.g. ("Site", "Baithak"), written the way
    GNU Backgammon writes them: ``; [Site "Baithak"]``.
    """
    if isinstance(games, bg.Match):
        raise ValueError("a Match keeps only its current game: pass match_games(start, log)")
    glist = [games] if isinstance(games, bg.Game) else list(games)
    if not glist:
        raise ValueError("nothing to export: no games")
    n = glist[0].length if length is None else length
    clean = (_clean(names[0]), _clean(names[1]))
    lines = []
    for key, value in comments:
        safe = value.replace('"', "'").replace("\n", " ")
        lines.append(f'; [{_clean(key)} "{safe}"]')
    if lines:
        lines.append("")
    lines += [f" {n} point match", ""]
    for i, g in enumerate(glist, start=1):
        rec = _record(g)
        last = bool(n) and rec.winner is not None and rec.score[rec.winner] + rec.points >= n
        lines += _game_lines(rec, clean, i, last)
        lines.append("")
    return "\n".join(lines) + "\n"


def match_games(start: bg.Match, log: Iterable[str]) -> list[bg.Game]:
    """Replay a match's action log from its start and return every game's final state
    (what a table stores: the fresh Match and the actions, in order)."""
    m = start
    out: list[bg.Game] = []
    for action in log:
        before = m.game
        finished = len(m.games)
        m = m.apply(action)
        if len(m.games) > finished:
            out.append(m.game if m.is_over else before.apply(action))
    if not m.is_over and (m.game.history or m.game.rolls):
        out.append(m.game)
    return out


# --- import -----------------------------------------------------------------------------------
_MATCH = re.compile(r"^\s*(\d+)\s+point\s+match", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.I)
_SCORE = re.compile(r"^\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)")
_LINE = re.compile(r"^\s*(\d+)\)(.*)$")
_CELL = re.compile(
    r"(?P<roll>[1-6][1-6]):(?P<moves>[^:]*?)(?=\s+(?:[1-6][1-6]:|Doubles|Beavers|Takes|Drops)|\s*$)"
    r"|Doubles\s*=>\s*(?P<double>\d+)|Beavers\s*=>\s*(?P<beaver>\d+)|(?P<take>Takes)|(?P<drop>Drops)",
    re.I,
)
_WINS = re.compile(r"Wins\s+(\d+)\s+point", re.I)
_SPLIT = 20  # a cell starting this far into a line's moves is the right player's


def parse(text: str) -> MatchRecord:
    """Read a ``.mat`` file into its games and turns (ValueError on what is not one)."""
    rec: MatchRecord | None = None
    game: GameRecord | None = None
    names: tuple[str, str] = ("", "")
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if m := _MATCH.match(line):
            rec = MatchRecord(length=int(m.group(1)), names=names)
            continue
        if rec is None:
            raise ValueError(f"line {lineno}: expected 'N point match' first, not {line!r}")
        if _GAME.match(line):
            game = None
            continue
        if (m := _SCORE.match(line)) and game is None:
            rec.names = (m.group(1), m.group(3))
            game = GameRecord(score=(int(m.group(2)), int(m.group(4))))
            rec.games.append(game)
            continue
        if game is None:
            raise ValueError(f"line {lineno}: a game starts with 'Game N' and the score")
        if m := _WINS.search(line):
            game.winner = 0 if m.start() < _SPLIT else 1
            game.points = int(m.group(1))
            continue
        if m := _LINE.match(line):
            body = m.group(2)
            for c in _CELL.finditer(body):
                seat = 0 if c.start() < _SPLIT else 1
                game.turns.append(_turn(seat, c))
            continue
        raise ValueError(f"line {lineno}: cannot read {line!r}")
    if rec is None:
        raise ValueError("not a match file: no 'N point match' line")
    return rec


def _turn(seat: int, c: re.Match[str]) -> Turn:
    if c.group("roll"):
        d = c.group("roll")
        return Turn(seat, "move", (int(d[0]), int(d[1])), " ".join(c.group("moves").split()))
    if c.group("double"):
        return Turn(seat, "double", cube=int(c.group("double")))
    if c.group("beaver"):
        return Turn(seat, "beaver", cube=int(c.group("beaver")))
    return Turn(seat, "take" if c.group("take") else "drop")


def positions(game: GameRecord) -> list[tuple[int, str]]:
    """(seat on roll, Position ID before the move) for every roll of the game, replaying
    each written move through the engine (``bg.apply``): an illegal move raises
    ``bg.IllegalMove`` naming the turn."""
    pos = bg.Position.start()
    out: list[tuple[int, str]] = []
    for i, t in enumerate(game.turns, start=1):
        if t.kind != "move":
            continue
        assert t.dice is not None
        out.append((t.seat, pos.to_id()))
        if not t.moves:
            if bg.legal_plays(pos, t.dice):
                raise bg.IllegalMove(f"turn {i}: {t.dice} has a legal move, none written")
            pos = pos.swapped()
            continue
        try:
            pos = bg.apply(pos, t.moves, t.dice)
        except bg.IllegalMove as e:
            raise bg.IllegalMove(f"turn {i} ({t.dice[0]}{t.dice[1]}: {t.moves}): {e}") from None
    out.append((-1, pos.to_id()))
    return out
