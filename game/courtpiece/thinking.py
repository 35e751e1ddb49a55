"""Where a Court Piece bot thinks at the tables.

"easy" and "medium" decide in well under a millisecond: in the calling thread (one of
the clock's bot threads, ``game.tables.transport.clock``). "hard" searches (deals
sampled from what the seat knows, each solved double-dummy or rolled out), most of it
pure Python that would hold the interpreter's lock for a tenth of a second at a time
and slow every socket of the server process: it runs in a bounded pool of worker
processes (``game.tables.workers``, ``TABLES_BOT_WORKERS``), while the clock's thread
waits on it with the lock released. A worker that dies or is late costs one move: the
medium bot's choice for that view, logged. The workers get only the seat's view, as
the bot does anywhere.

Only the decisions the hard bot searches go to the workers (:func:`searches`). The
others — a call, a bid, a forced card, the first tricks, a game where it plays the
medium bot's rules — take the hard bot a fraction of a millisecond, the same function
in this thread; sent to the workers they waited in the queue behind fifty tables'
searches, for the same answer (docs/PERFORMANCE.md, "Only searches in the workers").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from game.bots import courtpiece as cpbot
from game.bots.courtpiece import hard
from game.bots.courtpiece.sampling import hand_view
from game.tables.workers import Unavailable, WorkerPool

log = logging.getLogger(__name__)

IN_WORKERS = frozenset({"hard"})  # the levels that think in the worker processes
FALLBACK = "medium"

def load_bot() -> None:
    """Each worker's start: the bots and DDS loaded before its first search (a second of
    CPU that a search would otherwise wait for), then ``WorkerPool.warm`` starts them
    as soon as a hard bot decides anything."""
    from game.bots.courtpiece import hard as _hard  # noqa: F401  -- DDS (endplay) too


POOL = WorkerPool("courtpiece bot", timeout=20.0, initializer=load_bot)


def searches(view: Mapping[str, Any], level: str) -> bool:
    """Whether the bot at ``level`` searches for this view (and so thinks in a worker):
    the hard bot's own tests — a card to choose among several, plain trick-taking with
    trump known (``hard.searchable``), few enough cards in hand (``hard.samples_for``).
    Only where it runs is at stake, never what it answers: the same ``choose`` runs in
    the worker or here. When in doubt (a view or a hard bot this does not know), the
    worker."""
    if level not in IN_WORKERS or _forced(view) is not None:
        return False
    try:
        hv = hand_view(view)
        legal = [a for a in hv.get("legal_actions") or () if isinstance(a, str)]
        if not any(a.startswith("play:") for a in legal):
            # A call, a bid, the 13th-card call, hiding, asking, revealing: the hard bot
            # plays the medium bot's rules there (tests/courtpiece/test_thinking.py
            # checks it samples nothing for them).
            return False
        return bool(hard.searchable(hv)) and hard.samples_for(len(hv["hand"])) > 0
    except Exception:  # a view or hard bot this check does not know: let the worker decide
        return True


def _forced(view: Mapping[str, Any]) -> str | None:
    """The one legal action, when there is only one (every level plays it: a bot's
    action is one of the view's legal actions), else None."""
    legal = hand_view(view).get("legal_actions") or ()
    return legal[0] if len(legal) == 1 and isinstance(legal[0], str) else None


def choose(view: Mapping[str, Any], level: str) -> str:
    """The bot's action at ``level`` for the seat whose view this is (blocks the calling
    thread; never call it on an event loop)."""
    forced = _forced(view)
    if forced is not None and level in cpbot.LEVELS:
        return forced  # the hard bot would sample deals only to find it has no choice
    if not searches(view, level):
        if level in IN_WORKERS:
            POOL.warm()  # the hand's calls come before its searches: start the workers
        return cpbot.choose(view, level)
    try:
        return str(POOL.call(cpbot.choose, dict(view), level))
    except Unavailable:
        log.warning("the %s bot's worker failed: played the %s bot's choice", level, FALLBACK)
        return cpbot.choose(view, FALLBACK)


def shutdown() -> None:
    POOL.shutdown()
