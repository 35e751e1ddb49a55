"""The backgammon bot: GNU Backgammon's neural nets, always in a process of their own.

gnubg's move search crashes its process (a segfault) when it runs on any thread but the
main one, and ``sync_to_async`` / ``asyncio.to_thread`` are threads. So gnubg is never
imported in a server process: a small pool of worker processes started with the
``spawn`` method runs it, each call on the worker's main thread. A crash there breaks one
call (``BotUnavailable``); the pool is rebuilt for the next one, and the caller plays a
fallback move instead, so a crash costs one bot move, not the server.

The bot reads only the seat's view (``bg.Game.view(seat)`` / ``bg.Match.view(seat)``):
the Position ID seen from the player on roll, the dice, the cube, the phase and the legal
actions. Levels: "easy" plays checkers at 0-ply, "medium" at 1-ply (the best five
plays at 0-ply looked at again at 1-ply). Cube decisions come
from ``gnubg.evaluate``'s cubeless probabilities (see ``_cube_action``).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

PLIES = {"easy": 0, "medium": 1}
TIMEOUT = 10.0  # seconds; a 1-ply search takes well under a millisecond
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


def _evaluate(position_id: str) -> tuple[float, ...]:
    import gnubg

    board = gnubg.positionfromid(position_id)
    return tuple(gnubg.evaluate(board, gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0)))


def _equities(position_ids: list[str], plies: int) -> list[float]:
    """The cubeless equity of the player on roll in each position (the opponent, after
    our play). gnubg's own move search truncates bear-off moves in the tuples it returns
    (several plays come back as one), so the bot ranks the engine's plays instead: at
    0-ply this is exactly gnubg's 0-ply choice."""
    import gnubg

    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, plies, 1, 0, 0.0)
    return [gnubg.evaluate(gnubg.positionfromid(p), cube, context)[5] for p in position_ids]


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
    except (BrokenProcessPool, concurrent.futures.TimeoutError) as exc:
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
    global _pool
    if not position_ids:
        return []
    pool = _get_pool()
    parts = [position_ids[i : i + chunk] for i in range(0, len(position_ids), chunk)]
    try:
        results: list[list[float]] = [[] for _ in parts]
        flying: dict[concurrent.futures.Future[list[float]], int] = {}
        queue = list(enumerate(parts))
        while queue or flying:
            while queue and len(flying) < workers():
                index, part = queue.pop(0)
                flying[pool.submit(_equities, part, plies)] = index
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


def decide(view: dict[str, Any], level: str = "easy") -> Decision:
    """The bot's action for the seat whose view this is. Raises ValueError when it is not
    that seat's turn; never raises for a gnubg failure (it falls back instead)."""
    legal: list[str] = list(view.get("legal_actions") or [])
    if not legal:
        raise ValueError("the bot was asked to move when it is not its turn")
    plies = PLIES[level]
    try:
        return Decision(_decide(view, legal, plies), "gnubg")
    except BotUnavailable:
        return Decision(fallback(legal), "fallback")


def _decide(view: dict[str, Any], legal: list[str], plies: int) -> str:
    phase = view["phase"]
    position_id = view["position_id"]  # seen from the player on roll ("turn")
    if phase == "roll":
        if "double" in legal:
            equity = call(_evaluate, position_id)[5]
            action = _cube_action(equity, legal, deciding_as_doubler=True)
            if action:
                return action
        return "roll"
    if phase == "doubled":  # the taker decides; the position is the doubler's
        equity = call(_evaluate, position_id)[5]
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
        return _best_move(moves, position_id, dice, plies)
    return fallback(legal)


MEDIUM_CANDIDATES = 5  # 1-ply looks again at the best few of the 0-ply ranking


def _best_move(moves: list[str], position_id: str, dice: tuple[int, int], plies: int) -> str:
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
    ids = [afters[m].to_id() for m in candidates]
    scores = call(_equities, ids, 0)
    ranked = [m for _, m in sorted(zip(scores, candidates, strict=True))]
    if plies == 0:
        return ranked[0]
    best = ranked[:MEDIUM_CANDIDATES]
    deeper = call(_equities, [afters[m].to_id() for m in best], plies)
    return min(zip(deeper, best, strict=True))[1]


def fallback(legal: list[str]) -> str:
    """A sound move without gnubg: never resign, never double, take, play the first
    listed move (the engine lists plays in a fixed order)."""
    for preferred in ("roll", "take", "reject"):
        if preferred in legal:
            return preferred
    moves = [a for a in legal if a.startswith("move:")]
    return moves[0] if moves else legal[0]
