"""What a seat sees: docs/TABLE_PROTOCOL.md's ``state`` frame, built from the table's rows
and its game state. The game's part of a frame is the engine's own ``view(seat)`` (a
spectator's is ``view(None)``), so nothing here can show a card its seat may not see;
the rest (the table, the seats and their players) is the same for every seat.

A frame is encoded once per seat with orjson (a move sends one to each seat and one to
the spectators); the common part is encoded once and joined to each seat's own part as
text (:mod:`game.tables.notices`), byte for byte what encoding the whole would give.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime
from typing import Any

import orjson

from game.models import Seat, Table
from game.tables import access, names, registry
from game.tables.emotes import EMOTES
from game.tables.errors import TableError
from game.tables.store import replay
from game.tables.store import rows as store_rows


def _player_name(seat: Seat, shown: dict[int, str]) -> str | None:
    if seat.user_id is not None:
        return shown.get(seat.user_id)
    if seat.guest_key:
        return "guest"
    return None


def _left_name(seat: Seat, shown: dict[int, str]) -> str | None:
    """Who left the seat during play, now a bot's: their name, "guest", or None."""
    if seat.left_user_id is not None:
        return shown.get(seat.left_user_id)
    if seat.left_guest_key:
        return "guest"
    return None


def seat_rows(seats: list[Seat]) -> list[dict[str, Any]]:
    """The seats as every frame shows them. ``left``: the name of the player who left a
    seat during play (a bot plays it on; "guest" for a guest), else None."""
    shown = names.names_of(
        {uid for s in seats for uid in (s.user_id, s.left_user_id) if uid is not None}
    )
    return [
        {
            "seat": s.number,
            "player": _player_name(s, shown),
            "bot": s.bot,
            "guest": bool(s.guest_key),
            "connected": s.bot or s.connections > 0,
            "away": s.away,
            "left": _left_name(s, shown),
        }
        for s in seats
    ]


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z"
    )


def table_info(table: Table) -> dict[str, Any]:
    """What anyone may know about the table itself (never the seed's top or the invite)."""
    return {
        "id": table.pk,
        "game": table.game,
        "variant": table.variant,
        "options": table.options,
        "target": table.target,
        "length": registry.length(table.game, table.target),
        "status": table.status,
        "private": table.private,
        "host": names.host_name(table),
        "move_seconds": table.move_seconds,
        "spectators": table.spectators,
        "rated": table.rated,
        "version": table.version,
        "commitment": table.commitment,
        # A deal played again: which finished hand it copies (never the cards themselves).
        "copied_deal": copied_from(table),
        "created_at": iso(table.created_at),
        "started_at": iso(table.started_at),
        "finished_at": iso(table.finished_at),
    }


def copied_from(table: Table) -> dict[str, int] | None:
    """``{"table", "hand"}`` of the hand whose deal ``table`` plays again, or None."""
    copied = table.copied_deal
    if not copied:
        return None
    return {"table": int(copied["table"]), "hand": int(copied["hand"])}


def state_payload(table_id: int, seat: int | None) -> dict[str, Any]:
    """docs/TABLE_PROTOCOL.md's ``state`` frame for ``seat`` (None: a spectator)."""
    table, seats = _table_and_seats(table_id)
    return payload(table, seats, seat)


def socket_state(table_id: int, owner: access.Owner) -> tuple[int | None, dict[str, Any]]:
    """The seat ``owner`` holds now and its state frame, from one read of the seats: a
    socket follows its owner into a seat they took, and out of one they left (a bot's
    seat is never shown to its former owner)."""
    table, seats = _table_and_seats(table_id)
    seat = access.seat_of(seats, owner)
    return seat, payload(table, seats, seat)


def _table_and_seats(table_id: int) -> tuple[Table, list[Seat]]:
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    return table, store_rows.seats_of(table)


def payload(
    table: Table,
    seats: list[Seat],
    seat: int | None,
    game_state: Any = None,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The state frame of ``seat``. ``game_state`` (the table's state at ``table.version``)
    and ``shared`` (the seats and table rows, the same for every seat) save the reads
    when the caller already has them."""
    if shared is None:
        shared = common(table, seats)
    return {**own_part(table, seat, game_state), **shared}


def own_part(
    table: Table, seat: int | None, game_state: Any = None, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The keys of ``seat``'s state frame that differ from seat to seat (all before the
    common ones: :func:`game.tables.notices.notice` joins the two as text). ``view``: the
    seat's view of ``game_state``, when the caller built it already."""
    own: dict[str, Any] = {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "to_move": None,
        "legal": [],
        "deadline": None,
        "deadline_kind": None,
        "view": None,
    }
    if table.status != Table.WAITING:
        if game_state is None:
            game_state = replay.load(table)
        # A closed table (everyone left: lifecycle.leave_seat) waits for nobody, even if
        # its game stopped half-way.
        to_move = game_state.to_move if table.status == Table.PLAYING else None
        own["to_move"] = to_move
        own["view"] = game_state.view(seat) if view is None else view
        if seat is not None and seat == to_move:
            own["legal"] = list(game_state.legal_actions())
        if table.deadline_at is not None and table.deadline_kind != Table.BOT:
            own["deadline"] = iso(table.deadline_at)
            own["deadline_kind"] = table.deadline_kind
    return own


def common(table: Table, seats: list[Seat]) -> dict[str, Any]:
    return {"seats": seat_rows(seats), "table": table_info(table), "emotes": list(EMOTES)}


def frame_json(payload: dict[str, Any]) -> str:
    """A state frame as sent to programs (and compared, to send each change once).

    orjson, not the standard library's json: a move encodes five of these (four seats
    and the spectators), and json.dumps was the largest part of building a move's
    notice. The text is compact JSON in UTF-8, with the keys in the payload's order;
    numbers as dict keys become strings, as json's do."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


def owner_digest(guest_key: str) -> str:
    """What a change notice carries to say which guest holds a seat (never the key)."""
    return hashlib.sha256(guest_key.encode()).hexdigest()[:32] if guest_key else ""


def frame_key(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def seat_from_owners(owners: list[list[Any]], user_id: int | None, digest: str) -> int | None:
    """:func:`game.tables.access.seat_of` over a change notice's ``owners`` (what
    :func:`game.tables.notices.notice` stores)."""
    for number, (seat_user, seat_digest) in enumerate(owners):
        if user_id is not None and seat_user is not None and seat_user == user_id:
            return number
        if digest and seat_digest and hmac.compare_digest(digest, seat_digest):
            return number
    return None


def list_open_tables(game: str | None = None) -> list[dict[str, Any]]:
    """Public tables that are waiting or being played, newest first, for the lobby."""
    tables = Table.objects.filter(private=False, status__in=[Table.WAITING, Table.PLAYING])
    if game:
        tables = tables.filter(game=game)
    tables = tables.select_related("host").prefetch_related("seats")[:200]
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.number)
        out.append({**table_info(table), "seats": seat_rows(seats)})
    return out
