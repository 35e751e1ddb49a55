"""Each finished hand's (and backgammon game's) analysis computed ahead: as soon as the
hand ends, before anyone asks for it (docs/TABLES.md, "Analysis ahead").

The move that ends a hand goes through the thread's path (game.tables.moves; the moves
on the loop hand it over, game.tables.fastmoves), which, once the move is committed,
hands ``(table, hand)`` to this module's pool: one background thread per server process,
so the analyses of many tables ending at once queue here and never take more than one
core's share, and never delay a move (the move's transaction is already over, and the
pool's thread holds no lock a move needs). The thread claims the hand in the database
(game.tables.analysis.claim: one row per hand, inserted if absent), so a request that
arrives meanwhile, in any process, waits for that row instead of computing it again;
a process that dies mid-way leaves a claim that goes stale and is taken over by the next
request. Backgammon's equities are asked for as background work
(game.tables.workers.background): one small chunk at a time in gnubg's worker
processes, so live bots are never starved.

After the hand's analysis, the knowable verdicts of each seat a person held (Court Piece:
game.courtpiece.knowable) are computed ahead the same way, one part per seat, so the
replay's second request and the mistakes pages read them too.

``TABLES_ANALYSIS_AHEAD=off`` turns it off (then each hand is computed when first asked).
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection

from game.models import Table
from game.tables import analysis, registry, workers
from game.tables.errors import TableError

log = logging.getLogger(__name__)

_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis-ahead")
_lock = threading.Lock()
_queued: set[concurrent.futures.Future[bool]] = set()
# At most this many hands wait for the background thread: a burst beyond it (or a backlog
# on a slow machine) is computed by each hand's first request instead, and a process
# that stops (its pool runs what is queued before it exits) is never held up for long.
MAX_QUEUED = 32


def enabled() -> bool:
    return bool(getattr(settings, "TABLES_ANALYSIS_AHEAD", True))


def ended_hand(game: str, before: Any, after: Any) -> int | None:
    """The number (from 1) of the hand that the move from ``before`` to ``after`` ended,
    if it ended one whose analysis the game computes ahead; else None. Cheap: asked on
    every move."""
    spec = registry.spec(game)
    if spec.hands_over is None or spec.analyse is None or not enabled():
        return None
    over = spec.hands_over(after)
    return over if over > spec.hands_over(before) else None


def schedule(table_id: int, hand: int) -> concurrent.futures.Future[bool] | None:
    """Compute hand ``hand`` of the table in the background (call after the commit).
    None: ``MAX_QUEUED`` are waiting already; that hand is computed when first asked."""
    with _lock:
        if len(_queued) >= MAX_QUEUED:
            log.warning("analysis ahead: %s hands queued, table %s hand %s left for its "
                        "first request", len(_queued), table_id, hand)
            return None
        future = _pool.submit(run, table_id, hand)
        _queued.add(future)
    future.add_done_callback(_done)
    return future


def _done(future: concurrent.futures.Future[bool]) -> None:
    with _lock:
        _queued.discard(future)


def drain(timeout: float | None = None) -> None:
    """Wait until every scheduled analysis is done (tests, the benchmark, a shutdown)."""
    with _lock:
        waiting = list(_queued)
    concurrent.futures.wait(waiting, timeout=timeout)


def run(table_id: int, hand: int) -> bool:
    """Claim, compute and store the hand's analysis; True if this call computed it
    (False: it was stored or claimed already, or the table is gone). A failure is logged
    and its claim released: the first request computes it then."""
    close_old_connections()
    try:
        return _run(table_id, hand)
    except Exception:  # the first request computes it then
        log.exception("the analysis ahead of table %s hand %s failed", table_id, hand)
        return False
    finally:
        connection.close()  # this thread's connection: not left open between hands


def _run(table_id: int, hand: int) -> bool:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return False
    computed = _part(table, hand)
    # Then the knowable verdicts (Court Piece) of each seat a person holds: the part the
    # replay asks for next, and the one the mistakes pages read; a bot's seat has nobody
    # to read it (a request computes it if ever asked).
    if registry.spec(table.game).knowable is not None:
        people = table.seats.filter(bot=False).exclude(user__isnull=True, guest_key="")
        for seat in people.values_list("number", flat=True):
            _part(table, hand, seat)
    return computed


def _part(table: Table, hand: int, seat: int | None = None) -> bool:
    """Claim, compute and store the hand's analysis (``seat``: that seat's knowable
    part); True if this call computed it."""
    part = "" if seat is None else f"knowable:{seat}"
    try:
        found = analysis.stored_or_pending(table, hand, seat, part)
    except TableError:
        return False
    if not isinstance(found, analysis.Pending) or not analysis.claim(found):
        return False
    try:
        with workers.background():
            data = analysis.compute(found)
    except BaseException:
        analysis.release(found)
        raise
    analysis.store(found, data)
    return True


def queued_count() -> int:
    """How many analyses wait or run in this process (the memory probe of bench/soak.py)."""
    return len(_queued)
