"""The server process's collector thread (baithak.process): a freeze takes what has
lived a second out of the young passes, and the full pass still frees the garbage
cycles a freeze had kept."""

from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
import threading
import weakref
from pathlib import Path

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


def test_a_closed_socket_leaves_nothing_to_the_collector_in_a_real_daphne(
    tmp_path: Path,
) -> None:
    """A real daphne serving the site (tests/site/daphne_sockets.py), its collector off:
    after 30 spectator sockets opened and closed, nothing of theirs on the server's side
    (daphne's protocol and request, Twisted's transport, autobahn's state, the
    consumer) is garbage only a collection could free. Without process.let_closed_sockets_go
    each left about 40 such objects (issue 26)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "baithak.settings", "REDIS_URL": "",
    }
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("daphne_sockets.py")), str(port), "30"],
        env=env, capture_output=True, text=True, timeout=120,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, done.stdout[-2000:] + done.stderr[-4000:]
    found = json.loads(lines[-1])
    assert found == {"sockets": 30, "server_side_garbage": {}}
