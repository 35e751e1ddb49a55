"""The server process's collector thread (baithak.process): a freeze takes what has
lived a second out of the young passes, and the full pass still frees the garbage
cycles a freeze had kept."""

from __future__ import annotations

import gc
import threading
import weakref

from baithak import process


class _Node:
    other: _Node


def test_a_frozen_cycle_is_kept_until_the_full_pass_frees_it() -> None:
    first, second = _Node(), _Node()
    first.other, second.other = second, first  # a cycle: only the collector frees it
    gone = weakref.ref(first)
    process.keep_young_small(0.001, 0, rounds=1)  # one freeze, no full pass
    assert gc.get_count()[0] < 1000  # the young generation starts afresh
    del first, second
    gc.collect()
    assert gone() is not None  # frozen: no pass walks it
    process.keep_young_small(0.001, 1e-9, rounds=1)  # a full pass, then a freeze
    assert gone() is None


def test_the_tests_run_without_the_thread() -> None:
    # tests/conftest.py turns it off (a freeze every second would keep every test's
    # garbage cycles for ten minutes); servers start it from tune_collector.
    assert "gc-freezer" not in [thread.name for thread in threading.enumerate()]
