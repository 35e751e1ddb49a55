"""The limits on a client's table sockets (docs/TABLE_PROTOCOL.md, "Limits").

- **Caps.** A table takes at most ``TABLES_SOCKETS_PER_TABLE`` sockets, and a client holds
  at most ``TABLES_SOCKETS_PER_CLIENT`` across every table. Counted in the database
  (``OpenSocket``, a row from a socket's admission to its end), so every server process
  sees the same count; admission at a table is counted under the table's row lock, so two
  processes cannot both take its last place. A watcher past a cap is refused; a player's
  socket to their own seat never is (it counts all the same).
- **Frames.** A client's frames are rate-limited together, whichever of its sockets they
  come by (:class:`FrameBudget`): one budget per client in each server process. Across
  processes the budgets are not shared (a frame would otherwise cost a trip to Redis), so
  a client whose sockets land on k processes may send k times the rate; the caps bound k.

A client is its account when signed in, else its guest key, else its address (the
socket's peer: behind a proxy, daphne's ``--proxy-headers`` makes it the real one).
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction

from game.models import OpenSocket
from game.tables import frames
from game.tables.access import Owner
from game.tables.config import setting
from game.tables.presence import PROCESS
from game.tables.store import rows

BURST = 20  # frames a client may send at once ...
RATE = 10.0  # ... refilled at this many per second


def per_table() -> int:
    return int(setting("TABLES_SOCKETS_PER_TABLE", 200))


def per_client() -> int:
    return int(setting("TABLES_SOCKETS_PER_CLIENT", 20))


def client_key(owner: Owner, scope: dict[str, Any]) -> str:
    """Who a socket's client is, for the caps and the frame budget."""
    if owner.is_user:
        return f"user:{owner.user.pk}"
    if owner.guest_key:
        return f"guest:{frames.owner_digest(owner.guest_key)}"
    peer = scope.get("client") or ("?",)
    return f"address:{str(peer[0])[:60]}"


def admit(*, table_id: int, channel: str, client: str, seated: bool) -> str | None:
    """Count a new socket of ``client`` at the table: None when admitted, else why not
    (a watcher past a cap; a seated player is always admitted)."""
    with transaction.atomic():
        table = rows.locked_table(table_id)  # one admission at a time at this table
        if table is None:
            return "no such table"
        if not seated:
            if OpenSocket.objects.filter(table_id=table_id).count() >= per_table():
                return f"this table has as many sockets as it takes ({per_table()})"
            if OpenSocket.objects.filter(client=client).count() >= per_client():
                return f"this client has as many sockets open as it may ({per_client()})"
        OpenSocket.objects.create(
            channel=channel, table_id=table_id, client=client, process=PROCESS
        )
    return None


def release(channel: str) -> None:
    """The socket ended: it counts no more."""
    OpenSocket.objects.filter(channel=channel).delete()


class FrameBudget:
    """This process's frame budgets, one per client (a token bucket of ``BURST`` tokens
    refilled at ``RATE`` a second), shared by all of that client's sockets here, and
    forgotten with its last socket."""

    def __init__(self) -> None:
        self._buckets: dict[str, list[float]] = {}  # client -> [tokens, refilled, sockets]

    def join(self, client: str) -> None:
        bucket = self._buckets.setdefault(client, [float(BURST), time.monotonic(), 0])
        bucket[2] += 1

    def leave(self, client: str) -> None:
        bucket = self._buckets.get(client)
        if bucket is None:
            return
        bucket[2] -= 1
        if bucket[2] <= 0:
            del self._buckets[client]

    def take(self, client: str) -> bool:
        """One frame of ``client``: False when its budget is spent."""
        bucket = self._buckets.get(client)
        if bucket is None:  # no socket of this client joined: nothing to spend
            return False
        now = time.monotonic()
        bucket[0] = min(BURST, bucket[0] + (now - bucket[1]) * RATE)
        bucket[1] = now
        if bucket[0] < 1:
            return False
        bucket[0] -= 1
        return True

    def clients(self) -> int:
        return len(self._buckets)


BUDGETS = FrameBudget()  # this process's: every socket runs on its one event loop
