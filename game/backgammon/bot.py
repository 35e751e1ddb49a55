"""The backgammon bot: GNU Backgammon's neural nets, always in a process of their own.

gnubg's move search crashes its process (a segfault) when it runs on any thread but the
main one, and ``sync_to_async`` / ``asyncio.to_thread`` are threads. So gnubg is never
imported in a server process: a small pool of worker processes started with the
``spawn`` method runs it, each call on the worker's main thread. A crash there breaks one
call (``BotUnavailable``); the pool is rebuilt for the next one, and the caller plays a
fallback move instead, so a crash costs one bot move, not the server.

The bot reads only the seat's view (``bg.Game.view(seat)`` / ``bg.Match.view(seat)``):
the Position ID seen from the player on roll, the dice, the cube, the phase and the legal
actions. Levels (``LEVELS``, weakest first):

* "beginner": gnubg's 0-ply evaluation with noise added to every equity it compares
  (checker plays and cube decisions), drawn from a generator seeded by the evaluated
  position and the level, so the same position always gets the same noise and the bot
  stays deterministic; it makes the mistakes a beginner makes, and can be beaten;
* "intermediate": gnubg's 0-ply evaluation as it is (the neural net's first opinion);
* "expert": 2-ply (gnubg's own pruned search two rolls deep) over the plays that a
  0-ply then 1-ply filter keep, as gnubg's move filters do; its cube decisions at 2-ply
  too. Everything runs in the worker processes.

Tables stored before these names used "easy" (0-ply) and "medium" (1-ply): ``ALIASES``
maps them to "intermediate" (the same play) and "expert" (the nearest stronger level), so
such a table keeps working without a data migration. Cube decisions come from
``gnubg.evaluate``'s cubeless probabilities (see ``_cube_action``).

The game analysis (game.backgammon.analysis) judges cube decisions by gnubg's own
cubeful cube analysis instead (``cube_equities``): the module's ``evaluate`` returns only
the cubeless equity and its ``hint`` refuses cube actions, so the worker sets the
position with gnubg's ``set gnubgid`` command and reads what its ``hint`` command prints
(no double, double/take, double/pass), with gnubg's evaluation threads set to 1 (more
deadlock in the embedded module).
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
import random
import re
import threading
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from game.tables import workers as workers_module

LEVELS = ("beginner", "intermediate", "expert")  # weakest first
DEFAULT_LEVEL = "intermediate"
ALIASES = {"easy": "intermediate", "medium": "expert"}  # the names stored before issue 28
PLIES = {"beginner": 0, "intermediate": 0, "expert": 2}
# The standard deviation of the noise added to each equity the beginner compares, in
# cubeless equity (1.0 = a single game). gnubg's own "beginner" setting uses 0.06; that
# still beats most people, so ours is twice as wide: it loses about four money games in
# five to intermediate (bench/bgbot.py --duel measures it: docs/PERFORMANCE.md).
NOISE = {"beginner": 0.12, "intermediate": 0.0, "expert": 0.0}
TIMEOUT = 10.0  # seconds; a 2-ply decision takes tens of milliseconds
START_TIMEOUT = 90.0  # a fresh pool spawns interpreters and loads the nets first

# Money-play cube thresholds on the doubler's cubeless equity (gammons included). They
# follow the usual "window": double from about 0.4 (some 70% to win), but not when
# playing on for a gammon is worth more than the point a pass gives (equity above 1);
# take while the doubler's equity is at most about 0.55 (the taker's recube vig makes a
# 25% take point).
DOUBLE_FROM = 0.40
TOO_GOOD = 1.0
TAKE_UP_TO = 0.55
BEAVER_BELOW = -0.10


class BotUnavailable(RuntimeError):
    """The worker died or timed out; the caller plays a fallback move."""


@dataclass(frozen=True)
class Decision:
    action: str  # a canonical engine action, one of the view's legal actions
    source: str  # "gnubg" or "fallback"


# ---------------------------------------------------------------------------- workers
def _worker_init() -> None:
    import gnubg  # noqa: F401  -- load the nets once per worker, on its main thread


def _evaluate(position_id: str, plies: int = 0) -> tuple[float, ...]:
    import gnubg

    board = gnubg.positionfromid(position_id)
    context = gnubg.evalcontext(0, plies, 1, 1 if plies else 0, 0.0)
    return tuple(gnubg.evaluate(board, gnubg.cubeinfo(), context))


def _equities(position_ids: list[str], plies: int) -> list[float]:
    """The cubeless equity of the player on roll in each position (the opponent, after
    our play). gnubg's own move search truncates bear-off moves in the tuples it returns
    (several plays come back as one), so the bot ranks the engine's plays instead: at
    0-ply this is exactly gnubg's 0-ply choice. Deeper searches use gnubg's pruning nets
    (as its own 2-ply "expert" and "world class" settings do)."""
    import gnubg

    cube = gnubg.cubeinfo()
    context = gnubg.evalcontext(0, plies, 1, 1 if plies else 0, 0.0)
    return [gnubg.evaluate(gnubg.positionfromid(p), cube, context)[5] for p in position_ids]


# GNU Backgammon's own cube analysis ("hint" on a position before the roll), as its
# command line prints it: the cubeful equities of no double, double/take and
# double/pass, normalised to the cube before the double (EMG in match play).
_CUBE_LINE = re.compile(
    r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass|beaver))\s+([+-]?\d+\.\d+)",
    re.MULTILINE,
)
_cube_set_up: dict[str, str] = {}


def _command(line: str) -> str:
    """A GNU Backgammon command in this worker, and what it printed (gnubg writes to the
    C library's standard output, so the process's file descriptor 1 is caught)."""
    import ctypes
    import os
    import tempfile

    import gnubg

    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 1)
        try:
            gnubg.command(line)
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        caught.seek(0)
        return caught.read().decode("utf-8", "replace")


def _settings(plies: int, jacoby: bool) -> None:
    wanted = {
        # gnubg's evaluation threads deadlock in the embedded module: its own thread only
        "threads": "set threads 1",
        "digits": "set output digits 4",
        "mwc": "set output mwc off",  # match play: equities (EMG), not winning chances
        "plies": f"set evaluation cubedecision eval plies {plies}",
        "prune": "set evaluation cubedecision eval prune on",
        "cubeful": "set evaluation cubedecision eval cubeful on",
        "beavers": "set beavers 0",  # a beaver is judged as the take it also is
        "jacoby": f"set jacoby {'on' if jacoby else 'off'}",
    }
    for key, line in wanted.items():
        if _cube_set_up.get(key) != line:
            _command(line)
            _cube_set_up[key] = line


def _cube_equities(
    asked: list[tuple[str, bool]], plies: int
) -> list[tuple[float, float, float] | None]:
    """For each (GNUbgID, Jacoby rule) of a position before the roll whose player may
    double: GNU Backgammon's cubeful equities for that player of no double, double/take
    and double/pass, at ``plies`` (None where gnubg printed no cube analysis: that
    decision goes unjudged, the rest of the game's analysis stands)."""
    out = []
    for gnubg_id, jacoby in asked:
        _settings(plies, jacoby)
        _command(f"set gnubgid {gnubg_id}")
        found: dict[str, float] = {}
        for name, value in _CUBE_LINE.findall(_command("hint")):
            key = "nd" if name.startswith("No") else ("dp" if name.endswith("pass") else "dt")
            found[key] = float(value)
        ok = set(found) == {"nd", "dt", "dp"}
        out.append((found["nd"], found["dt"], found["dp"]) if ok else None)
    return out


_pool: concurrent.futures.ProcessPoolExecutor | None = None
_warm = False  # whether the current pool has answered once (its workers are up)
_lock = threading.Lock()


def _get_pool() -> concurrent.futures.ProcessPoolExecutor:
    global _pool, _warm
    with _lock:
        if _pool is None:
            _warm = False
            _pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers(),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
            )
        return _pool


def pool_started() -> bool:
    """Whether this process has started its worker processes (they start on first use)."""
    return _pool is not None


def workers() -> int:
    return 2


def worker_pids() -> list[int]:
    """The gnubg worker processes' ids (none before the pool has started)."""
    return workers_module.executor_pids(_pool)


def shutdown() -> None:
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


def call(fn: Any, *args: Any) -> Any:
    global _pool, _warm
    pool = _get_pool()
    try:
        answer = pool.submit(fn, *args).result(timeout=TIMEOUT if _warm else START_TIMEOUT)
        _warm = True
        return answer
    except (
        BrokenProcessPool,
        concurrent.futures.TimeoutError,
        # Another call's failure shut this pool down and cancelled this call: as a
        # failure of its own (asyncio would take the exception for its task's cancelling).
        concurrent.futures.CancelledError,
    ) as exc:
        with _lock:  # the next call gets a fresh pool
            if _pool is pool:
                _pool = None
        pool.shutdown(wait=False, cancel_futures=True)
        raise BotUnavailable(f"gnubg worker failed: {exc.__class__.__name__}") from exc


def equities(position_ids: list[str], plies: int, chunk: int = 8) -> list[float]:
    """The cubeless equity of the player on roll in each position, at ``plies``, in the
    worker processes: the positions in small chunks, at most one in flight per worker, so
    that a bot's move asked meanwhile waits for one chunk (a fraction of a second at
    2-ply), never for the whole batch (the game analysis, game.backgammon.analysis).
    Raises BotUnavailable as ``call`` does."""
    return _batched(_equities, position_ids, plies, chunk)


def cube_equities(
    asked: list[tuple[str, bool]], plies: int, chunk: int = 4
) -> list[tuple[float, float, float] | None]:
    """GNU Backgammon's cubeful equities (no double, double/take, double/pass) of the
    player on roll, for each (GNUbgID, Jacoby rule) of a position before the roll where
    that player may double, at ``plies``, in the worker processes in small chunks as
    ``equities`` (None where gnubg gave none). Raises BotUnavailable as ``call`` does."""
    return _batched(_cube_equities, asked, plies, chunk)


def _batched(fn: Any, items: list[Any], plies: int, chunk: int) -> list[Any]:
    global _pool
    if not items:
        return []
    position_ids = items
    pool = _get_pool()
    # Background work (an analysis computed ahead of any request): the lowest priority,
    # one small chunk in flight, so live bots always find a worker free or wait for
    # one chunk at most.
    most = 1 if workers_module.in_background() else workers()
    chunk = min(chunk, 4) if workers_module.in_background() else chunk
    parts = [position_ids[i : i + chunk] for i in range(0, len(position_ids), chunk)]
    try:
        results: list[list[Any]] = [[] for _ in parts]
        flying: dict[concurrent.futures.Future[list[Any]], int] = {}
        queue = list(enumerate(parts))
        while queue or flying:
            while queue and len(flying) < most:
                index, part = queue.pop(0)
                flying[pool.submit(fn, part, plies)] = index
            done, _rest = concurrent.futures.wait(
                flying, timeout=START_TIMEOUT, return_when=concurrent.futures.FIRST_COMPLETED
            )
            if not done:
                raise concurrent.futures.TimeoutError()
            for future in done:
                results[flying.pop(future)] = future.result()
        return [equity for part in results for equity in part]
    except (BrokenProcessPool, concurrent.futures.TimeoutError) as exc:
        with _lock:
            if _pool is pool:
                _pool = None
        pool.shutdown(wait=False, cancel_futures=True)
        raise BotUnavailable(f"gnubg worker failed: {exc.__class__.__name__}") from exc


# ---------------------------------------------------------------------------- decisions
def _cube_action(equity: float, legal: list[str], deciding_as_doubler: bool) -> str | None:
    if deciding_as_doubler:
        if "double" in legal and DOUBLE_FROM <= equity <= TOO_GOOD:
            return "double"
        return None
    if "beaver" in legal and equity < BEAVER_BELOW:
        return "beaver"
    return "take" if equity <= TAKE_UP_TO else "drop"


def level_of(name: Any) -> str:
    """The level a table's ``bot_level`` names (an old name through ``ALIASES``);
    ValueError for anything else."""
    level = ALIASES.get(name, name) if isinstance(name, str) else name
    if level not in LEVELS:
        raise ValueError(f"option bot_level must be one of {', '.join(LEVELS)}, not {name!r}")
    return str(level)


def noise(position_id: str, level: str, what: str = "") -> float:
    """The noise the level adds to its equity of ``position_id`` (0.0 for a level
    without noise): a normal draw from a generator seeded by the position, the level and
    what is being decided, so the same question always gets the same answer."""
    spread = NOISE[level]
    if not spread:
        return 0.0
    digest = hashlib.sha256(f"{level}|{what}|{position_id}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")).gauss(0.0, spread)


def decide(view: dict[str, Any], level: str = DEFAULT_LEVEL) -> Decision:
    """The bot's action for the seat whose view this is. Raises ValueError when it is not
    that seat's turn or the level is unknown; never raises for a gnubg failure (it falls
    back instead)."""
    legal: list[str] = list(view.get("legal_actions") or [])
    if not legal:
        raise ValueError("the bot was asked to move when it is not its turn")
    level = level_of(level)
    try:
        return Decision(_decide(view, legal, level), "gnubg")
    except BotUnavailable:
        return Decision(fallback(legal), "fallback")


CUBE_CLOSE = 0.15  # the expert looks deeper only at a cube decision this close to a line


def _cube_equity(position_id: str, level: str) -> float:
    """The equity of the player on roll, for a cube decision: 0-ply, and at the level's
    depth where 0-ply puts it near one of the cube's lines (most rolls are far from any:
    no double is near, and 2-ply costs what a whole 0-ply turn does many times over)."""
    equity = float(call(_evaluate, position_id, 0)[5])
    lines = (DOUBLE_FROM, TOO_GOOD, TAKE_UP_TO, BEAVER_BELOW)
    if PLIES[level] and any(abs(equity - line) < CUBE_CLOSE for line in lines):
        equity = float(call(_evaluate, position_id, PLIES[level])[5])
    return equity + noise(position_id, level, "cube")


def _decide(view: dict[str, Any], legal: list[str], level: str) -> str:
    phase = view["phase"]
    position_id = view["position_id"]  # seen from the player on roll ("turn")
    if phase == "roll":
        if "double" in legal:
            equity = _cube_equity(position_id, level)
            action = _cube_action(equity, legal, deciding_as_doubler=True)
            if action:
                return action
        return "roll"
    if phase == "doubled":  # the taker decides; the position is the doubler's
        equity = _cube_equity(position_id, level)
        return _cube_action(equity, legal, deciding_as_doubler=False) or "take"
    if phase == "resign":  # accept when playing on is worth no more than what is offered
        offered = int(view.get("resign_offered") or 1)
        theirs = -call(_evaluate, position_id)[5]  # the resigner is on roll
        return "accept" if offered >= theirs else "reject"
    if phase == "move":
        moves = [a for a in legal if a.startswith("move:")]
        if len(moves) == 1:
            return moves[0]
        dice = (int(view["dice"][0]), int(view["dice"][1]))
        return _best_move(moves, position_id, dice, level)
    return fallback(legal)


# The expert's move filter, as gnubg's: the plays within reach of the best at one depth
# are looked at again at the next (at most so many, within so much equity).
FILTER = ((0, 5, 0.16), (1, 2, 0.04))


def _keep(scored: list[tuple[float, str]], most: int, within: float) -> list[str]:
    best = scored[0][0]
    return [m for score, m in scored[:most] if score <= best + within]


def _best_move(moves: list[str], position_id: str, dice: tuple[int, int], level: str) -> str:
    from game.engine import backgammon as bg

    pos = bg.Position.from_id(position_id)
    plays = {f"move:{p}": p for p in bg.legal_plays(pos, dice)}
    candidates = [m for m in moves if m in plays]
    if not candidates:
        raise BotUnavailable("the view's moves are not this position's plays")
    afters = {m: plays[m].after for m in candidates}
    for move, after in afters.items():
        if after.theirs & 15 == 15:  # this play bears off the last checker: it wins
            return move
    ids = {m: afters[m].to_id() for m in candidates}
    plies = PLIES[level]
    scores = call(_equities, [ids[m] for m in candidates], 0)
    # The opponent's equity after each play, so the lowest is best; the noise (beginner)
    # is the level's own opinion of each resulting position.
    scored = sorted(
        (score + noise(ids[m], level), m) for score, m in zip(scores, candidates, strict=True)
    )
    if plies == 0:
        return scored[0][1]
    for depth, most, within in FILTER:
        kept = _keep(scored, most, within)
        if len(kept) == 1:
            return kept[0]
        deeper = depth + 1
        scores = call(_equities, [ids[m] for m in kept], deeper)
        scored = sorted(zip(scores, kept, strict=True))
        if deeper == plies:
            break
    return scored[0][1]


def equities_at(position_ids: list[str], plies: int) -> list[float]:
    """The cubeless equity of the player on roll in each position, at ``plies``, from a
    worker (tests and benchmarks compare the levels' plays with it)."""
    return list(call(_equities, position_ids, plies))


def fallback(legal: list[str]) -> str:
    """A sound move without gnubg: never resign, never double, take, play the first
    listed move (the engine lists plays in a fixed order)."""
    for preferred in ("roll", "take", "reject"):
        if preferred in legal:
            return preferred
    moves = [a for a in legal if a.startswith("move:")]
    return moves[0] if moves else legal[0]
