"""Who is at the table: each seated socket is a ``Connection`` row, and each server
process a ``ServerProcess`` heartbeat, so every process (and a restart) knows which seats
have a socket open.

When a seat's last socket closes its grace period starts (:mod:`game.tables.deadlines`);
when a socket opens again the bot stops playing for it. The sockets of a process whose
heartbeat stops (killed, frozen) are closed by whichever clock notices.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from game.models import Connection, OpenSocket, Seat, ServerProcess, Table
from game.tables import deadlines, moves, notices
from game.tables.config import setting
from game.tables.store import replay, rows

# This process's name in ServerProcess/Connection rows, and the sockets it holds, so that
# a process wrongly given up for dead (its loop stalled) can put them back.
PROCESS = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"
_own_sockets: dict[str, tuple[int, int]] = {}  # channel -> (table id, seat)
_own_lock = threading.Lock()


def process_timeout() -> float:
    """Seconds without a heartbeat after which a process's sockets count as closed."""
    return float(setting("TABLES_PROCESS_TIMEOUT", 30))


def seat_connected(*, table_id: int, seat: int, channel: str | None = None) -> None:
    """A socket of ``seat`` opened: the owner is back, the bot stops playing for them."""
    channel = channel or f"direct-{secrets.token_hex(8)}"
    with _own_lock:
        _own_sockets[channel] = (table_id, seat)
    _connection_change(table_id, seat, opened=channel)


def seat_disconnected(*, table_id: int, seat: int, channel: str | None = None) -> None:
    """A socket of ``seat`` closed; with none left the grace period starts."""
    if channel is None:  # a caller without channel names: close one of this process's
        with _own_lock:
            channel = next(
                (c for c, ts in _own_sockets.items() if ts == (table_id, seat)), None
            )
    if channel is None:
        return
    with _own_lock:
        _own_sockets.pop(channel, None)
    _connection_change(table_id, seat, closed=channel)


def _connection_change(
    table_id: int, number: int, *, opened: str | None = None, closed: str | None = None
) -> None:
    with transaction.atomic():
        table = rows.locked_table(table_id)
        if table is None:
            return
        seats = rows.seats_of(table)
        if not 0 <= number < len(seats):
            return
        if opened is not None:
            _heartbeat()
            Connection.objects.update_or_create(
                channel=opened, defaults={"table": table, "seat": number, "process": PROCESS}
            )
        if closed is not None:
            Connection.objects.filter(channel=closed).delete()
        recount(table, seats, [number], back=opened is not None)


def recount(table: Table, seats: list[Seat], numbers: list[int], *, back: bool) -> None:
    """Count the open sockets of ``numbers`` again (table row locked), then the deadline."""
    now = timezone.now()
    for number in numbers:
        seat = seats[number]
        seat.connections = Connection.objects.filter(table=table, seat=number).count()
        if back:
            seat.disconnected_at = None
            seat.away = False
        elif seat.connections == 0 and seat.disconnected_at is None:
            seat.disconnected_at = now
        seat.save(update_fields=["connections", "disconnected_at", "away"])
    game_state = None
    if table.status == Table.PLAYING:
        game_state = replay.load(table)
        deadlines.set_deadline(table, seats, game_state, now)
        moves.save_table(table, deadlines.DEADLINE_FIELDS)
    notices.broadcast(table, seats, game_state, wake=deadlines.wakes_clock(table))


def _heartbeat() -> None:
    ServerProcess.objects.update_or_create(name=PROCESS, defaults={"seen_at": timezone.now()})


def heartbeat() -> None:
    """Renew this process's heartbeat (the clock calls it every few seconds). If others
    had given this process up for dead, its open sockets are counted again."""
    now = timezone.now()
    updated = ServerProcess.objects.filter(name=PROCESS).update(seen_at=now)
    if updated:
        return
    _heartbeat()
    with _own_lock:
        mine = dict(_own_sockets)
    for channel, (table_id, seat) in mine.items():
        if not Connection.objects.filter(channel=channel).exists():
            _connection_change(table_id, seat, opened=channel)


def reap_dead_processes() -> int:
    """Close the sockets of processes whose heartbeat stopped (killed, frozen, gone):
    their seats then start the grace period. Returns how many processes were reaped."""
    cutoff = timezone.now() - timedelta(seconds=process_timeout())
    dead = list(
        ServerProcess.objects.filter(seen_at__lt=cutoff)
        .exclude(name=PROCESS)
        .values_list("name", flat=True)
    )
    for name in dead:
        OpenSocket.objects.filter(process=name).delete()  # its places under the caps
        affected = sorted(
            set(Connection.objects.filter(process=name).values_list("table_id", "seat"))
        )
        for table_id in sorted({t for t, _s in affected}):
            with transaction.atomic():
                table = rows.locked_table(table_id)
                if table is None:
                    continue
                Connection.objects.filter(process=name, table=table).delete()
                numbers = [s for t, s in affected if t == table_id]
                recount(table, rows.seats_of(table), numbers, back=False)
        with transaction.atomic():
            if not Connection.objects.filter(process=name).exists():
                ServerProcess.objects.filter(name=name, seen_at__lt=cutoff).delete()
    return len(dead)


def forget_own_sockets() -> None:
    """Forget this process's sockets (a fresh process starts like this)."""
    with _own_lock:
        _own_sockets.clear()


def own_socket_count() -> int:
    """How many sockets this process counts as open (the memory probe of bench/soak.py)."""
    return len(_own_sockets)
