"""The table socket, ``/ws/tables/<id>/?format=json|html&lang=…``: thin by design.

It parses and validates each frame, dispatches on ``type`` to the table services
(``game.tables``) and sends views: every (re)connect and every change of the table sends
this socket's own state frame (its seat's ``view``; a spectator's is ``view(None)``). No
rules, no timers here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import weakref
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings

from game.models import Table
from game.tables import (
    access,
    emotes,
    fastmoves,
    frames,
    html,
    inbound,
    limits,
    moves,
    notices,
    presence,
)
from game.tables.errors import TableError
from game.tables.groups import LOBBY_GROUP, group_name
from game.tables.store.db import socket_db as database_sync_to_async
from game.tables.transport import clock

try:  # daphne's WebSocket library: what its send raises once the socket is closing
    from autobahn.exception import Disconnected
except ImportError:  # pragma: no cover - another server
    Disconnected = ConnectionError  # type: ignore[assignment, misc]

log = logging.getLogger(__name__)


async def _send_nothing(message: dict[str, Any]) -> None:
    """A closed socket's send: nothing goes out any more."""

MAX_FRAME = inbound.MAX_FRAME  # bytes; the longest legal frame is well under 200
BURST = limits.BURST  # frames a client may send at once, over all its sockets ...
RATE = limits.RATE  # ... refilled at this many per second
TYPES = inbound.TYPES


def _table_access(table_id: int, owner: access.Owner, invite: str) -> dict[str, Any]:
    """Whether the table is there for ``owner`` (a private one without its invite is not,
    as for its page: refused at the handshake), their seat, and whether they may watch."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.may_see(table, owner, invite):
        return {"exists": False}
    seat = access.seat_of(table, owner)
    return {
        "exists": True, "seat": seat, "may_watch": access.may_watch(table, owner, invite, seat)
    }


class Turn:
    """A socket's turn: one message at a time (see :func:`serve`), and whether anyone
    holds it or waits for it right now (an ``asyncio.Lock`` tells only the first)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._wanting = 0

    def free(self) -> bool:
        """Nobody holds it or waits for it: :meth:`hold` then takes it at once."""
        return self._wanting == 0

    def held(self) -> bool:
        """Someone holds it now (as its lock tells: one who only waits does not count,
        so a turn may be neither held nor :meth:`free`)."""
        return self._lock.locked()

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        self._wanting += 1
        try:
            async with self._lock:
                yield
        finally:
            self._wanting -= 1


async def serve(sources: list[Any], dispatch: Any, turn: Turn) -> None:
    """``channels.utils.await_many_dispatch``, without a new task for every message.

    That one wraps each wait for a socket's next message in a task of its own and waits
    on them with ``asyncio.wait``: a few dozen objects per message, alive until the
    socket's next one. The garbage collector's young generation is what it walks most
    often, and at a thousand sockets it held every socket's set: each collection was a
    pause every socket waited through. Here each source has one task
    for the socket's whole life, handing each message to ``dispatch`` in turn: one
    message at a time, as there (the lock), and the first error or StopConsumer ends
    the socket, as there. ``turn`` is the socket's: whoever holds it speaks for it."""

    async def pump(source: Any) -> None:
        while True:
            message = await source()
            async with turn.hold():
                try:
                    await dispatch(message)
                except StopConsumer:
                    return  # the clean end, as a plain return: see below
            del message  # not kept (a notice holds every seat's frame) until the next

    tasks = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)
        errors = [task.exception() for task in tasks if not task.cancelled()]
        # Nothing of a socket may outlive it in a reference cycle: only the garbage
        # collector's full pass frees those, and a server holds that pass back
        # (baithak.process). An error keeps its traceback, the traceback the frames it
        # went through, and a frame its locals: so this frame lets go of the tasks
        # (each keeps its error) before the error goes on from here, and the clean end
        # is a plain return (pump), not a StopConsumer kept by its task. That cycle
        # held every closed socket's consumer, scope, session and user (about 30 KiB;
        # docs/PERFORMANCE.md, "Closed sockets").
        tasks.clear()
        del task
    error = next((e for e in errors if e is not None), None)  # the first error ends it
    errors.clear()
    if error is not None:
        try:
            raise error
        finally:
            del error


class _NoConnectionHop(AsyncWebsocketConsumer):
    """Channels closes the consumer's database connections before every message it
    dispatches: a trip to the database thread for each frame to each socket (four per
    move at a table). These consumers never touch the ORM in their own context: every
    call goes through ``game.tables.store.db.socket_db``, which checks its connection
    itself. So they dispatch without that trip, and wait for messages through
    :func:`serve`."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # channels.consumer.AsyncConsumer.__call__ (these consumers are async), with
        # serve in place of await_many_dispatch.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(
                self.channel_layer.receive, self.channel_name
            )
            sources.append(self.channel_receive)
        self.closing = False  # the server said the socket is closing: nothing more to send

        async def send_while_open(message: dict[str, Any]) -> None:
            """The server's send, but a socket the client is closing (its close frame on
            the way, its ``websocket.disconnect`` not yet here) takes nothing more, as
            one already closed does: a frame sent then is dropped, not an error."""
            if self.closing:
                return
            try:
                await send(message)
            except Disconnected:
                self.closing = True

        self.base_send = send_while_open
        self.turn = Turn()  # one message at a time (see serve)
        self.loop = asyncio.get_running_loop()
        ended_by: BaseException | None = None
        try:
            await serve(sources, self.dispatch, self.turn)
        except StopConsumer:
            pass
        except BaseException as error:  # raised again below, once the socket is let go
            ended_by = error
        # Not in a finally: with an exception in flight, sync_to_async hands it to its
        # thread, which raises it there, and the error's traceback then holds the frame
        # that holds the error (a cycle keeping the whole socket: see serve).
        await self._ended()
        # send_while_open holds this consumer (its ``closing``), and the consumer holds it:
        # let go of it, so a closed socket is freed by reference counting.
        self.base_send = _send_nothing
        if ended_by is not None:
            try:
                raise ended_by
            finally:
                del ended_by

    async def _ended(self) -> None:
        """The socket is done, cleanly or not: Channels calls ``disconnect`` only when the
        client's ``websocket.disconnect`` arrives, so whatever else ended it (an error, a
        cancelled task) the clean-up runs here."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


# This process's table sockets, by group: a move's frames go straight to the table's other
# sockets here (TableConsumer._hand_over). Weak: a socket gone is gone from here too.
LOCAL_SOCKETS: dict[str, weakref.WeakSet[TableConsumer]] = {}


class TableConsumer(_NoConnectionHop):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.format = "json" if query.get("format", ["html"])[0] == "json" else "html"
        lang = query.get("lang", [settings.LANGUAGE_CODE])[0]
        self.lang = lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        self.seat: int | None = None
        self.marked = False
        self.last_sent: str | None = None  # the last state frame sent, as JSON
        self.last_version = -1
        self.counted = False  # an OpenSocket row holds this socket's place (limits)
        clock.ensure_started()
        self.owner = await database_sync_to_async(access.owner_from_scope)(self.scope)
        self.client = limits.client_key(self.owner, self.scope)
        limits.BUDGETS.join(self.client)  # left in _ended, however the socket ends
        # How change notices name this socket's owner (frames.seat_from_owners).
        self.owner_user = self.owner.user.pk if self.owner.is_user else None
        self.owner_digest = frames.owner_digest(self.owner.guest_key or "")
        admitted = await database_sync_to_async(_table_access)(
            self.table_id, self.owner, query.get("invite", [""])[0]
        )
        if not admitted["exists"]:
            await self.close(code=4404)
            return
        await self.accept()
        if not admitted["may_watch"]:
            await self._error("forbidden", "this table does not take spectators")
            await self.close(code=4403)
            return
        refused = await database_sync_to_async(limits.admit)(
            table_id=self.table_id, channel=self.channel_name, client=self.client,
            seated=admitted["seat"] is not None,
        )
        if refused is not None:
            await self._error("forbidden", refused)
            await self.close(code=4403)
            return
        self.counted = True
        self.seat = admitted["seat"]
        self.group = group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.grouped = True
        LOCAL_SOCKETS.setdefault(self.group, weakref.WeakSet()).add(self)
        if self.seat is not None:
            await database_sync_to_async(presence.seat_connected)(
                table_id=self.table_id, seat=self.seat, channel=self.channel_name
            )
            self.marked = True
        await self._send_state(force=True)

    async def disconnect(self, code: int) -> None:
        """Out of the table's group, and the seat's socket counted closed (presence):
        once, whether the client closed it or anything else ended it (``_ended``)."""
        self.closing = True
        if getattr(self, "grouped", False):
            self.grouped = False
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "marked", False) and self.seat is not None:
            self.marked = False
            await database_sync_to_async(presence.seat_disconnected)(
                table_id=self.table_id, seat=self.seat, channel=self.channel_name
            )

    async def _ended(self) -> None:  # out of the registry and the counts, however it ended
        group = getattr(self, "group", None)
        here = LOCAL_SOCKETS.get(group) if group is not None else None
        if here is not None:
            here.discard(self)
            if not here:
                del LOCAL_SOCKETS[group]
        client = getattr(self, "client", None)
        if client is not None:
            limits.BUDGETS.leave(client)
            self.client = None
        if getattr(self, "counted", False):
            self.counted = False
            try:
                await database_sync_to_async(limits.release)(self.channel_name)
            except Exception:  # the row then goes with this process's heartbeat
                log.exception("a closed socket's place could not be given back")
        try:
            await self.disconnect(1006)  # a no-op after the client's own disconnect
        except Exception:
            log.exception("the clean-up of a socket to table %s failed", group)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """One message, which never ends the socket by an error: a frame that could not be
        handled is answered ``malformed`` (and logged, for it is a fault of ours), a
        change that could not be sent is sent in full with the next one."""
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            if message.get("type") == "websocket.connect":
                raise  # refused at the handshake (disconnect still runs: _ended)
            log.exception("table %s: a %s message failed", self.table_id, message.get("type"))
            self.last_sent = None
            if message.get("type") == "websocket.receive":
                with contextlib.suppress(Exception):
                    await self._error("malformed", "this frame could not be handled")

    # ------------------------------------------------------------------ frames in
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not limits.BUDGETS.take(getattr(self, "client", "")):
            await self._error(
                "rate_limited",
                f"at most {BURST} frames at once, {RATE:g} a second, over all your sockets",
            )
            return
        try:  # size, nesting and every field's type checked (game.tables.inbound)
            message = inbound.frame(text_data, self.format)
        except inbound.Malformed as exc:
            await self._error("malformed", exc.message)
            return
        handler = getattr(self, f"_on_{message['type']}")
        await handler(message)

    async def _on_ping(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "pong"}))

    async def _on_action(self, message: dict[str, Any]) -> None:
        # Checked by inbound.frame: a non-empty string, and a whole number (from htmx's
        # ws-send a form field's ASCII digits; programs must send an int).
        action, version = message["action"], message["version"]
        resync = False
        on_loop: tuple[int, list[tuple[str, dict[str, Any]]]] | None = None
        try:
            try:  # the common case on the loop itself (see game.tables.fastmoves)
                on_loop = await fastmoves.apply_action(
                    table_id=self.table_id, owner=self.owner, action=action,
                    expected_version=version,
                )
            except fastmoves.Fallback as why:
                resync = why.resync
            # The thread's path outside the ``except``: sync_to_async raises the
            # exception in flight again in its thread, whose frame then held it from
            # its own traceback, a cycle holding the move's frames, rows and states
            # until the collector's full pass (issue 26; docs/PERFORMANCE.md, "Closed
            # sockets"). tests/tables/test_socket_memory.py checks it.
            _version, held = on_loop or await database_sync_to_async(notices.hold_broadcasts)(
                moves.apply_action, table_id=self.table_id, owner=self.owner,
                action=action, expected_version=version,
            )
        except TableError as exc:
            await self._error(exc.code, exc.message)
            held = []
        if resync:  # a move on the loop failed where its commit may have happened
            held.append((self.group, {"type": "table.changed"}))
        handed: dict[str, Any] | None = None  # the notice these sockets were served
        served: set[str] = set()
        try:
            for group, notice in held:
                if group == self.group and notice.get("frames") is not None:
                    # This socket's own frame at once, not after the group send's round
                    # trip to Redis; the same notice arriving through the group would
                    # then be a repeat (_send_frame), so it is not sent to this socket.
                    handed = notice
                    await self.table_changed(notice)
                    served.add(self.channel_name)
                    served |= await self._hand_over(notice)
                    break
        finally:  # committed: tell the table, whatever happened here
            for group, notice in held:
                await self._group_send(group, notice, served if notice is handed else ())

    async def _group_send(self, group: str, notice: dict[str, Any], served: set[str]) -> None:
        """The group send of a committed change, but not to the sockets served with it
        already: each would wake only to find a repeat (at a table of four, four
        wake-ups a move for nothing). A layer without ``group_send_except`` (another
        backend in the settings) sends to all, and the repeats are dropped as before."""
        send_except = getattr(self.channel_layer, "group_send_except", None)
        if served and send_except is not None:
            await send_except(group, notice, served)
        else:
            await self.channel_layer.group_send(group, notice)

    async def _hand_over(self, notice: dict[str, Any]) -> set[str]:
        """The table's other sockets in this process get their frames now, from this
        task, each while holding its turn: through the channel layer each would wait for
        a turn of the event loop of its own first, one more wait behind everything else
        the loop has to do, and under load that wait was a move's slowest stretch after
        its write (docs/PERFORMANCE.md). Only the common case, a socket whose seat and
        frame the notice has: any other, or one busy with a message now, is left to the
        group's copy. Returns the channels of the sockets served here, which the group's
        copy then skips."""
        served: set[str] = set()
        for other in list(LOCAL_SOCKETS.get(self.group, ())):
            if other is self or other.loop is not self.loop or not other.turn.free():
                continue
            text = other._own_frame(notice)
            if text is None or notice["version"] < other.last_version:
                continue
            # Free: taken with no wait, so nothing ran between the checks and here.
            async with other.turn.hold():
                sent_before = other.last_sent, other.last_version
                try:
                    await other._send_frame(text, notice["version"])
                except Exception:  # that socket's trouble, not this move's
                    # Not counted as sent: the layer's copy still goes to it.
                    other.last_sent, other.last_version = sent_before
                    log.exception("a frame handed over to another socket failed")
                else:
                    served.add(other.channel_name)
        return served

    async def _on_emote(self, message: dict[str, Any]) -> None:
        emote = message["emote"]
        try:
            await database_sync_to_async(emotes.send_emote)(
                table_id=self.table_id, owner=self.owner, emote=emote
            )
        except TableError as exc:
            await self._error(exc.code, exc.message)

    # ------------------------------------------------------------------ frames out
    async def table_changed(self, event: dict[str, Any]) -> None:
        """A change of the table: its notice carries every seat's frame, so the common
        case sends this socket's own frame without touching the database."""
        text = self._own_frame(event)
        if text is None:
            # No frames, or the owner took or left a seat, or (never for a held seat
            # or a spectator) no frame for this one: the full path.
            await self._send_state()
            return
        if event["version"] < self.last_version:
            return  # a notice overtaken by a newer frame (sent on connect, say)
        await self._send_frame(text, event["version"])

    def _own_frame(self, event: dict[str, Any]) -> str | None:
        """This socket's frame from a change notice, if it holds one for this seat."""
        texts = event.get("frames")
        if texts is None:
            return None
        seat = frames.seat_from_owners(event["owners"], self.owner_user, self.owner_digest)
        if seat != self.seat:
            return None
        text = texts.get(frames.frame_key(seat))
        return text if isinstance(text, str) else None

    async def table_emote(self, event: dict[str, Any]) -> None:
        frame = {"type": "emote", "seat": event["seat"], "emote": event["emote"]}
        if self.format == "json":
            await self.send(text_data=json.dumps(frame))
        else:
            await self.send(text_data=html.emote_html(frame, lang=self.lang))

    async def _send_state(self, force: bool = False) -> None:
        try:
            seat, payload = await database_sync_to_async(frames.socket_state)(
                self.table_id, self.owner
            )
        except TableError as exc:
            await self._error(exc.code, exc.message)
            return
        if seat != self.seat:
            await self._move_to(seat)
        await self._send_frame(frames.frame_json(payload), payload["version"], force=force)

    async def _send_frame(self, text: str, version: int, force: bool = False) -> None:
        if not force and text == self.last_sent:
            return  # several notices can arrive for one change: send it once
        self.last_sent = text
        self.last_version = max(self.last_version, version)
        if self.format == "json":
            await self.send(text_data=text)
        else:
            await self.send(text_data=html.table_frame_html(json.loads(text), lang=self.lang))

    async def _move_to(self, seat: int | None) -> None:
        """The owner took a seat or left one since this socket last looked."""
        if self.marked and self.seat is not None:
            self.marked = False
            await database_sync_to_async(presence.seat_disconnected)(
                table_id=self.table_id, seat=self.seat, channel=self.channel_name
            )
        self.seat = seat
        if seat is not None:
            await database_sync_to_async(presence.seat_connected)(
                table_id=self.table_id, seat=seat, channel=self.channel_name
            )
            self.marked = True

    async def _error(self, code: str, message: str) -> None:
        if self.format == "json":
            frame = {"type": "error", "code": code, "message": message}
            await self.send(text_data=json.dumps(frame))
        else:
            await self.send(text_data=html.error_html(code, message, lang=self.lang))


class LobbyConsumer(_NoConnectionHop):
    """``/ws/lobby/?format=json|html&game=…``: the open tables, sent on connect and again
    whenever one is created, filled, started or finished. Read-only: frames in are
    ignored. HTML: ``game.tables.html.lobby_html``, a doorbell for the page to fetch the list."""

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.format = "json" if query.get("format", ["html"])[0] == "json" else "html"
        lang = query.get("lang", [settings.LANGUAGE_CODE])[0]
        self.lang = lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        self.game = query.get("game", [""])[0] or None
        self.last_sent: Any = None
        clock.ensure_started()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.lobby_changed({})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def _ended(self) -> None:  # out of the group however the socket ended
        if self.channel_layer is not None:
            with contextlib.suppress(Exception):
                await self.disconnect(1006)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby is watched, not talked to

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        tables = await database_sync_to_async(frames.list_open_tables)(self.game)
        if tables == self.last_sent:
            return
        self.last_sent = tables
        if self.format == "html":
            await self.send(text_data=html.lobby_html(tables, lang=self.lang))
        else:
            await self.send(text_data=json.dumps({"type": "lobby", "tables": tables}))
