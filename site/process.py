"""Settings of a server process itself, shared by the site's ASGI application and the
load benchmark's bare anchor (so the two are measured alike)."""

from __future__ import annotations

import gc
import os
import threading
import time
from typing import Any

_freezer: threading.Thread | None = None
_stop = threading.Event()  # never set in a server; ends the thread otherwise
_letting_go = False  # let_closed_sockets_go has been called


def tune_collector() -> None:
    """Call once the application is loaded.

    A server process allocates fast (a frame per socket per move) and holds a large,
    long-lived heap (Django, the sockets, cached game states). With the default
    thresholds the collector ran hundreds of times a second, and each older pass walked
    that heap while every socket waited. What is loaded by now lives as long as the
    process: freeze it out of the collections, and collect the young generation less
    often (docs/PERFORMANCE.md has what that did to the slowest moves).

    Then a thread keeps the young generation young (``GC_FREEZE_SECONDS``, default 1;
    0 turns it off). Even so, a young pass walked everything allocated since the last
    one that was still alive: each socket's pending receive, the new cached states,
    the moves' history. Under load that was tens of thousands of objects every few
    seconds, and a pause during which no socket was served. Freezing once a second moves what has
    lived that long out of the young generation, in constant time, so a young pass walks
    at most a second's worth. What the freeze keeps from the collector is garbage in
    reference cycles that lived over a second, and that is little (a move makes none;
    a closed socket some): every ``GC_FULL_SECONDS`` (default 600) the thread puts
    everything back and collects it all once (one pause; docs/PERFORMANCE.md has its
    figure)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 1_000)
    every = float(os.environ.get("GC_FREEZE_SECONDS", "1"))
    full = float(os.environ.get("GC_FULL_SECONDS", "600"))
    global _freezer
    if every > 0 and _freezer is None:
        _freezer = threading.Thread(
            target=keep_young_small, args=(every, full), name="gc-freezer", daemon=True
        )
        _freezer.start()


def keep_young_small(every: float, full: float, rounds: int | None = None) -> None:
    """The freezer's loop (``rounds``: stop after that many, for the tests)."""
    last_full = time.monotonic()
    while (rounds is None or rounds > 0) and not _stop.wait(every):
        if rounds is not None:
            rounds -= 1
        if full > 0 and time.monotonic() - last_full >= full:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()


def let_closed_sockets_go() -> None:
    """Call once in a server process: daphne's WebSocket connections end in two
    reference cycles, which the collector's young passes never reach here (what a socket
    made when it opened is frozen out of them a second later: see tune_collector), so
    each closed socket's connection (about 20 KiB: its protocol, its transport and socket,
    the HTTP request it came by, their buffers) stayed until the full pass. Both are
    broken where they are made:

    - autobahn resolves a protocol's ``is_closed`` Deferred with the protocol itself;
      once Twisted has reported the connection lost, it is replaced by a Deferred
      resolved with None (nothing in daphne awaits it).
    - daphne's ``WebRequest`` hands the connection to the WebSocket protocol and leaves
      the HTTP channel and the request holding each other (the channel's ``requests``);
      the request is taken out of that list once it has handed over.

    Checked by tests/site/test_process.py (a real daphne, collector off: no connection
    of a closed socket is left for the collector) and bench/soak.py (docs/PERFORMANCE.md,
    "Closed sockets")."""
    from daphne.http_protocol import WebRequest
    from daphne.ws_protocol import WebSocketProtocol
    from twisted.internet.defer import succeed

    global _letting_go
    if _letting_go:
        return
    connection_lost = WebSocketProtocol.connectionLost
    process = WebRequest.process

    def connectionLost(self: Any, reason: Any) -> None:  # Twisted's name for it
        try:
            connection_lost(self, reason)
        finally:
            self.is_closed = succeed(None)

    def handed_over(self: Any) -> None:
        try:
            process(self)
        finally:
            channel = getattr(self, "channel", None)
            requests = getattr(channel, "requests", None)
            if self.transport is None and requests is not None and self in requests:
                requests.remove(self)  # upgraded: the connection is the WebSocket's now

    WebSocketProtocol.connectionLost = connectionLost
    WebRequest.process = handed_over
    _letting_go = True
