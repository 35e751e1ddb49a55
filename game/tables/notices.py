"""Telling a table's sockets (and the clocks, and the lobby) that the table changed.

A write builds its change notice inside its transaction, from the rows and state it holds,
and sends it only after the commit (``transaction.on_commit``), so nobody ever hears of an
action that was not stored. The notice carries every held seat's frame and the
spectators' (:mod:`game.tables.frames`), with who holds each seat (``owners``): each
socket sends only its own seat's frame, and the others never leave the server.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from game.models import Seat, Table
from game.tables import frames
from game.tables.groups import CLOCK_GROUP, LOBBY_GROUP, group_name
from game.tables.store import replay

log = logging.getLogger(__name__)

def notice(table: Table, seats: list[Seat], game_state: Any = None) -> dict[str, Any]:
    """The change notice sent to the table's sockets: every seat's frame (and the
    spectators'), built once from the rows and state the writer already holds, so the
    sockets need no database read of their own. Each socket sends only the frame of the
    seat its owner holds (``owners``); the others never leave the server."""
    owners = [
        [s.user_id if s.user_id is not None else None, frames.owner_digest(s.guest_key)]
        for s in seats
    ]
    # The seats and table rows are the same in every frame: encoded once, and joined
    # to each seat's own part as text. The result is byte for byte frame_json of the
    # whole payload (the common keys come last in both), so a socket that builds its
    # frame itself (frames.socket_state) sends the same text, and repeats are still caught.
    if game_state is None and table.status != Table.WAITING:
        game_state = replay.load(table)
    common = frames.frame_json(frames.common(table, seats))
    # A seat nobody holds (a bot's, an empty one) has no socket to send its frame to:
    # frames.seat_from_owners never names it, so its frame is not built.
    held = [n for n, (user, digest) in enumerate(owners) if user is not None or digest]
    framed = [None, *held]
    # The views built together: what every seat sees alike is built once (Hand.views).
    views = game_state.views(framed) if game_state is not None else {}
    texts = {
        frames.frame_key(seat): (
            f"{frames.frame_json(frames.own_part(table, seat, game_state, views.get(seat)))[:-1]},"
            f"{common[1:]}"
        )
        for seat in framed
    }
    return {"type": "table.changed", "version": table.version, "owners": owners,
            "frames": texts}


def broadcast(
    table: Table,
    seats: list[Seat],
    game_state: Any = None,
    *,
    wake: bool = False,
    lobby: bool = False,
) -> None:
    """Tell every socket of the table (and the clocks, the lobby) once the commit is done.

    The notice is built now, inside the transaction, from what the writer holds (the
    table row and seats as they will be committed); it is sent only after the commit."""
    messages = change_messages(table, seats, game_state, wake=wake, lobby=lobby)

    def after_commit() -> None:
        held = getattr(_held, "messages", None)
        if held is not None:
            held.extend(messages)  # the async caller sends them (see hold_broadcasts)
        else:
            send(messages)

    transaction.on_commit(after_commit)


def change_messages(
    table: Table, seats: list[Seat], game_state: Any = None, *, wake: bool = False,
    lobby: bool = False,
) -> list[tuple[str, dict[str, Any]]]:
    """What a change of the table sends: the table's notice, and a word to the clocks
    (a deadline due soon) and the lobby (the table's line changed)."""
    messages = [(group_name(table.pk), notice(table, seats, game_state))]
    if wake:
        messages.append((CLOCK_GROUP, {"type": "clock.wake"}))
    if lobby:
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    return messages


_held = threading.local()


def send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # the write is committed; a lost notice only delays a redraw
            log.exception("broadcast to %s failed", group)


def hold_broadcasts(
    fn: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    """Call ``fn`` and return its result with the broadcasts its commits made, held back
    for the async caller (a socket, the clock) to send itself. From the database thread
    each send is a round trip through the event loop; the caller is already on it.
    They are still sent only after the commit: ``fn`` has returned. If ``fn`` raises,
    what it had committed is sent at once, then the error goes on."""
    outer = getattr(_held, "messages", None)
    _held.messages = held = []
    try:
        result = fn(*args, **kwargs)
    except BaseException:
        _held.messages = outer
        send(held)
        raise
    _held.messages = outer
    return result, held
