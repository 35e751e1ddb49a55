"""A bounded pool of worker processes for a bot's slow decisions (knows no game).

A search that runs for a tenth of a second in pure Python holds the interpreter's lock
that long, and in a thread of a server process it would take its share of every
socket's time. In a worker process it takes none: the calling thread (one of the clock's
bot threads, never the event loop) waits on the answer with the lock released. Workers
are started with ``spawn`` (a forked server process would copy its sockets, database
connections and threads) by the first call, and at most ``workers`` decide at once,
however many tables wait: the others queue. A worker that dies or a call that takes too
long raises ``Unavailable`` and the next call gets a fresh pool, so a crash costs one
decision, never the server.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_background = threading.local()


@contextlib.contextmanager
def background() -> Iterator[None]:
    """Work done in this block is background work (an analysis computed ahead,
    game.tables.ahead): a pool shared with live bots gives it the lowest priority, at
    most one small piece in flight, so a bot's decision waits for one piece at most."""
    outer = getattr(_background, "on", False)
    _background.on = True
    try:
        yield
    finally:
        _background.on = outer


def in_background() -> bool:
    """Whether this thread is inside ``background()``."""
    return bool(getattr(_background, "on", False))


class Unavailable(RuntimeError):
    """The worker died or did not answer in time; the caller decides some other way."""


def worker_count(default: int = 2) -> int:
    """``TABLES_BOT_WORKERS`` (docs/CONFIGURATION.md): worker processes per pool."""
    try:
        return max(1, int(os.environ.get("TABLES_BOT_WORKERS", default)))
    except ValueError:
        return default


def executor_pids(executor: concurrent.futures.ProcessPoolExecutor | None) -> list[int]:
    """The process ids of a process pool's workers (benchmarks read their CPU)."""
    processes = getattr(executor, "_processes", None) or {}
    return [p.pid for p in list(processes.values()) if p.pid]


def _nothing() -> None:
    """What ``WorkerPool.warm`` runs: a worker started is the whole point."""


class WorkerPool:
    """``call(fn, *args)`` in one of at most ``workers`` processes (``fn`` and its
    arguments must pickle: a module-level function and plain data)."""

    def __init__(
        self,
        name: str,
        *,
        workers: int | None = None,
        timeout: float = 20.0,
        start_timeout: float = 90.0,
        initializer: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.workers = workers or worker_count()
        self.timeout = timeout
        self.start_timeout = start_timeout  # a fresh pool starts interpreters first
        self.initializer = initializer
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._warm = False
        self._lock = threading.Lock()
        # A call waits here for a free worker before it is handed over, so its timeout
        # is the decision's own time, not its wait behind fifty others.
        self._slots = threading.BoundedSemaphore(self.workers)

    def started(self) -> bool:
        return self._pool is not None

    def pids(self) -> list[int]:
        """The worker processes' ids (none before the pool has started)."""
        return executor_pids(self._pool)

    def _get(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._warm = False
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self.initializer,
                )
            return self._pool

    def warm(self) -> None:
        """Start the workers now without waiting for them (a no-op call), so that the
        first decision that needs one does not wait for interpreters to start: a caller
        that will soon need the pool (a hard bot deciding its calls in its own thread)
        asks for this. Does nothing once the pool has started."""
        if self._pool is not None:
            return
        pool = self._get()
        with contextlib.suppress(Exception):  # a pool that fails shows on the first call
            for _ in range(self.workers):
                pool.submit(_nothing)

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self._slots:
            return self._call(fn, *args)

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        pool = self._get()
        try:
            answer = pool.submit(fn, *args).result(
                timeout=self.timeout if self._warm else self.start_timeout
            )
        except (
            BrokenProcessPool,
            concurrent.futures.TimeoutError,
            # Another call's failure shut this pool down: a cancelled future raises this
            # (which asyncio would take for its own task's cancellation if it got out).
            concurrent.futures.CancelledError,
        ) as exc:
            with self._lock:  # the next call gets a fresh pool
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise Unavailable(f"{self.name} worker failed: {exc.__class__.__name__}") from exc
        self._warm = True
        return answer

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
