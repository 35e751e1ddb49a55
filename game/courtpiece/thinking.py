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
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from game.bots import courtpiece as cpbot
from game.tables.workers import Unavailable, WorkerPool

log = logging.getLogger(__name__)

IN_WORKERS = frozenset({"hard"})  # the levels that think in the worker processes
FALLBACK = "medium"

POOL = WorkerPool("courtpiece bot", timeout=20.0)


def choose(view: Mapping[str, Any], level: str) -> str:
    """The bot's action at ``level`` for the seat whose view this is (blocks the calling
    thread; never call it on an event loop)."""
    if level not in IN_WORKERS:
        return cpbot.choose(view, level)
    try:
        return str(POOL.call(cpbot.choose, dict(view), level))
    except Unavailable:
        log.warning("the %s bot's worker failed: played the %s bot's choice", level, FALLBACK)
        return cpbot.choose(view, FALLBACK)


def shutdown() -> None:
    POOL.shutdown()
