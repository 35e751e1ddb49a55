"""The bots' worker processes (game.tables.workers): an answer from another process, a
late or dead worker costing that one call, and no queue of calls timing out together."""

from __future__ import annotations

import os
import threading
import time

import pytest

from game.tables.workers import Unavailable, WorkerPool


def test_a_call_runs_in_another_process_and_the_pool_is_bounded() -> None:
    pool = WorkerPool("test", workers=2)
    try:
        pids = {pool.call(os.getpid) for _ in range(6)}
        assert os.getpid() not in pids and 1 <= len(pids) <= 2
    finally:
        pool.shutdown()


def test_a_late_worker_costs_its_call_and_the_next_gets_a_fresh_pool() -> None:
    pool = WorkerPool("test", workers=1, timeout=0.5)
    try:
        first = pool.call(os.getpid)  # warm: from now on the short timeout applies
        with pytest.raises(Unavailable):
            pool.call(time.sleep, 30)
        assert pool.call(os.getpid) != first  # a new worker
        with pytest.raises(Unavailable):
            pool.call(os.abort)  # a worker that dies
        assert pool.call(abs, -3) == 3
    finally:
        pool.shutdown()


def test_calls_queued_behind_a_busy_worker_do_not_fail_for_their_wait() -> None:
    """One worker, four calls at once, each well inside the timeout on its own but not
    all four together: each waits for the worker before its own time starts."""
    pool = WorkerPool("test", workers=1, timeout=5.0)
    pool.call(os.getpid)  # warm
    results: list[object] = []

    def one() -> None:
        try:
            results.append(pool.call(time.sleep, 2))
        except Unavailable as exc:
            results.append(exc)

    threads = [threading.Thread(target=one) for _ in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert results == [None, None, None, None]
    finally:
        pool.shutdown()
