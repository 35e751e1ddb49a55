"""Every write to a live table goes through this module (API, consumer, pages, clock).

Each write locks the table row (``select_for_update``), so two server processes, or the
clock and a player, are serialised on it; the version check then refuses whatever was
decided against an older state. Broadcasts leave only after the commit
(``transaction.on_commit``), so nobody ever hears of an action that was not stored.

Messages in :class:`TableError` are plain English for programs (docs/TABLE_PROTOCOL.md); pages
turn the ``code`` into words in the reader's language.

Ratings: a match is rated when all its seats were taken by accounts at the start (no
guest, no bot). Tables with a guest or a bot are never rated. A player who leaves a rated
match while it is being played is replaced by a bot and, when the match ends, recorded
as having abandoned it (a loss, counted in ``GameStats.abandoned``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import GameStats, Profile
from accounts.services import record_result
from game import rows
from game import state as states
from game.engine import fair
from game.engine.protocol import IllegalAction
from game.games import GAMES, GameSpec, spec
from game.models import Action, Connection, Seat, ServerProcess, Table

log = logging.getLogger(__name__)

LOBBY_GROUP = "tables-lobby"
CLOCK_GROUP = "tables-clock"
# Every clock looks at the deadlines at least this often (clock.MAX_SLEEP), so a deadline
# further off than this needs no wake-up: the clock's next round finds it in time. A move
# timer (30 s) then costs no wake-up, and no clock round of two queries, per move.
WAKE_WITHIN = 5.0
EMOTES = ("hello", "well_played", "oops", "thanks", "wow", "good_game")
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
MOVE_SECONDS_MAX = 600  # the per-move timer a table may choose, in seconds, up to this


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def bot_pause() -> float:
    """A short human-like pause before a bot moves (TABLES_BOT_PAUSE, seconds)."""
    low, high = _setting("TABLES_BOT_PAUSE", (0.6, 1.2))
    return low if high <= low else secrets.SystemRandom().uniform(low, high)


# ---------------------------------------------------------------------------- who acts
@dataclass(frozen=True)
class Owner:
    """Who acts: a signed-in user, or a guest whose key lives in their session."""

    user: Any | None
    guest_key: str | None

    @property
    def is_user(self) -> bool:
        return bool(
            self.user is not None
            and getattr(self.user, "is_authenticated", False)
            and getattr(self.user, "is_active", False)
        )


def owner_from_request(request: Any) -> Owner:
    """The requester; a guest gets a ``guest_key`` in their session if they have none."""
    user = request.user if request.user.is_authenticated else None
    key = request.session.get("guest_key")
    if user is None and not key:
        key = secrets.token_urlsafe(24)
        request.session["guest_key"] = key
    return Owner(user=user, guest_key=key or None)


def owner_of_request(request: Any) -> Owner:
    """The requester as they are, without giving a guest a key (for reads)."""
    user = request.user if request.user.is_authenticated else None
    return Owner(user=user, guest_key=request.session.get("guest_key") or None)


def owner_from_scope(scope: dict[str, Any]) -> Owner:
    """The socket's owner (sync: reading the session touches the database)."""
    user = scope.get("user")
    if user is not None and not user.is_authenticated:
        user = None
    session = scope.get("session")
    key = session.get("guest_key") if session is not None else None
    return Owner(user=user, guest_key=key or None)


class TableError(Exception):
    """A refusal: ``code`` is docs/TABLE_PROTOCOL.md's (or bad_request, forbidden, conflict,
    not_found, needs_account, not_over), ``message`` says why in English."""

    STATUS: ClassVar[dict[str, int]] = {
        "bad_request": 400, "malformed": 400, "forbidden": 403, "needs_account": 403,
        "not_seated": 403, "not_found": 404, "conflict": 409, "not_your_turn": 409,
        "illegal": 409, "stale": 409, "rate_limited": 429, "not_over": 404,
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.http_status = self.STATUS.get(code, 400)


# ---------------------------------------------------------------------------- reading
def _lock_row(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends (None: no such table)."""
    try:
        return _locked(table_id)
    except TableError:
        return None


def _locked(table_id: int) -> Table:
    try:
        table = rows.locked_table(int(table_id))
    except (ValueError, TypeError):
        table = None
    if table is None:
        raise TableError("not_found", f"no table {table_id}")
    return table


def _seats(table: Table) -> list[Seat]:
    # The seats alone: players' names come from _names (a join with the users and
    # their profiles on every move was a fifth of the clock's database time).
    seats = rows.seats(table.pk)
    for seat in seats:
        seat.table = table  # the row the caller holds (locked), not a second read
    return seats


NAME_SECONDS = 30.0  # how long a process trusts a player's name it has read
# user id -> (read at, name shown, username): one read gives both
_names: dict[int, tuple[float, str, str]] = {}
_names_used: dict[int, float] = {}  # user id -> when a frame last showed the name
_names_lock = threading.Lock()
REFRESH_BATCH = 500  # ids per query of refresh_names


def _people(user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """(name shown, username) of these accounts, fresh enough for display (a new display
    name shows within NAME_SECONDS everywhere, at once in the process that saved it:
    accounts' profile saves call forget_name)."""
    now = time.monotonic()
    known = _cached_people(user_ids, now)
    missing = user_ids - known.keys()
    if missing:
        fresh = _read_people(missing)
        _store_people(fresh, now)
        known.update(fresh)
    return known


def _read_people(user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """(name shown, username) by id: ``Profile.name``'s rule on plain rows. No model
    objects: the clock refreshes a few hundred names at once in the database thread,
    and building users and profiles took four times the Python (16 against 4 ms of CPU
    for 500), all of it time the event loop could wait for Python's lock (the GIL)."""
    users = get_user_model()
    rows = users.objects.filter(pk__in=user_ids).values_list(
        "pk", users.USERNAME_FIELD, "profile__display_name"
    )
    fresh = {}
    for pk, username, display_name in rows:
        username = str(username)
        fresh[pk] = (Profile.shown_name(display_name, username), username)
    return fresh


def _store_people(fresh: dict[int, tuple[str, str]], read_at: float) -> None:
    with _names_lock:
        if len(_names) > 20000:
            _names.clear()
            _names_used.clear()
        _names.update({uid: (read_at, *both) for uid, both in fresh.items()})


def _cached_people(user_ids: set[int], now: float) -> dict[int, tuple[str, str]]:
    """The entries of :func:`_people`'s cache still fresh at monotonic time ``now``."""
    with _names_lock:
        found = {
            uid: (entry[1], entry[2]) for uid in user_ids
            if (entry := _names.get(uid)) is not None and now - entry[0] < NAME_SECONDS
        }
        for uid in found:
            _names_used[uid] = now
    return found


def refresh_names(now: float | None = None) -> int:
    """Read again, a few hundred to a query, the cached names past half their time that
    a frame showed lately, and forget the ones nobody has shown for NAME_SECONDS. The
    clock calls this every few seconds, so the names of a table in play never expire: a
    move on the loop whose name had expired would go to the database thread for it
    (bench/load.py: one move in twenty at 250 tables, and most of the slowest ones).
    Returns how many names were read."""
    now = time.monotonic() if now is None else now
    with _names_lock:
        unused = [uid for uid, entry in _names.items()
                  if now - entry[0] >= NAME_SECONDS
                  and now - _names_used.get(uid, entry[0]) >= NAME_SECONDS]
        for uid in unused:
            del _names[uid]
            _names_used.pop(uid, None)
        due = sorted(uid for uid, entry in _names.items()
                     if now - entry[0] >= NAME_SECONDS / 2
                     and now - _names_used.get(uid, entry[0]) < NAME_SECONDS)
    for start in range(0, len(due), REFRESH_BATCH):
        batch = set(due[start:start + REFRESH_BATCH])
        fresh = _read_people(batch)
        _store_people(fresh, now)
        with _names_lock:  # accounts deleted since: nothing to show any more
            for uid in batch - fresh.keys():
                _names.pop(uid, None)
                _names_used.pop(uid, None)
    return len(due)


def _names_of(user_ids: set[int]) -> dict[int, str]:
    """The names the table shows for these accounts (see :func:`_people`)."""
    return {uid: both[0] for uid, both in _people(user_ids).items()}


def names_cached(table: Table, seats: list[Seat]) -> bool:
    """Whether every name a frame of this table shows is in the cache and fresh (then
    :func:`_notice` reads nothing)."""
    wanted = {s.user_id for s in seats if s.user_id is not None}
    if table.host_id is not None and not Table.host.is_cached(table):
        wanted.add(table.host_id)
    # A second's margin: the caller builds its frames right after asking.
    return len(_cached_people(wanted, time.monotonic() + 1.0)) == len(wanted)


def forget_name(user_id: int) -> None:
    with _names_lock:
        _names.pop(user_id, None)
        _names_used.pop(user_id, None)


def _host_name(table: Table) -> str | None:
    """The host's username, in every frame: from the row the caller joined, else from
    the names' cache (a move reads the table row alone)."""
    if table.host_id is None:
        return None
    if Table.host.is_cached(table):
        return str(table.host.get_username()) if table.host else None
    both = _people({table.host_id}).get(table.host_id)
    return both[1] if both else None


def _seat_matches(seat: Seat, owner: Owner) -> bool:
    if owner.is_user and seat.user_id is not None and seat.user_id == owner.user.pk:
        return True
    return bool(owner.guest_key and seat.guest_key and hmac.compare_digest(
        seat.guest_key, owner.guest_key
    ))


def seat_of(table: Table | list[Seat], owner: Owner) -> int | None:
    """The seat ``owner`` holds at ``table`` (a Table or its seats), or None."""
    seats = table if isinstance(table, list) else _seats(table)
    for seat in seats:
        if _seat_matches(seat, owner):
            return seat.number
    return None


def may_read(table: Table, owner: Owner, invite: str = "") -> bool:
    """Whether ``owner`` may read a table's finished hands (records, replays, summaries):
    anyone for a public table; for a private one, its players, its host, and whoever
    holds its invite link."""
    if not table.private or seat_of(table, owner) is not None:
        return True
    if owner.is_user and table.host_id is not None and table.host_id == owner.user.pk:
        return True
    if owner.guest_key and table.host_guest and hmac.compare_digest(
        owner.guest_key, table.host_guest
    ):
        return True
    return bool(invite) and hmac.compare_digest(invite, table.invite)


def _player_name(seat: Seat, names: dict[int, str]) -> str | None:
    if seat.user_id is not None:
        return names.get(seat.user_id)
    if seat.guest_key:
        return "guest"
    return None


def _seat_rows(seats: list[Seat]) -> list[dict[str, Any]]:
    names = _names_of({s.user_id for s in seats if s.user_id is not None})
    return [
        {
            "seat": s.number,
            "player": _player_name(s, names),
            "bot": s.bot,
            "guest": bool(s.guest_key),
            "connected": s.bot or s.connections > 0,
            "away": s.away,
        }
        for s in seats
    ]


def _iso(moment: datetime | None) -> str | None:
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
        "length": GAMES[table.game].length(table.target) if table.game in GAMES else 0,
        "status": table.status,
        "private": table.private,
        "host": _host_name(table),
        "move_seconds": table.move_seconds,
        "spectators": table.spectators,
        "rated": table.rated,
        "version": table.version,
        "commitment": table.commitment,
        # A deal played again: which finished hand it copies (never the cards themselves).
        "copied_deal": copied_from(table),
        "created_at": _iso(table.created_at),
        "started_at": _iso(table.started_at),
        "finished_at": _iso(table.finished_at),
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
    return _payload(table, seats, seat)


def socket_state(table_id: int, owner: Owner) -> tuple[int | None, dict[str, Any]]:
    """The seat ``owner`` holds now and its state frame, from one read of the seats: a
    socket follows its owner into a seat they took, and out of one they left (a bot's
    seat is never shown to its former owner)."""
    table, seats = _table_and_seats(table_id)
    seat = seat_of(seats, owner)
    return seat, _payload(table, seats, seat)


def _table_and_seats(table_id: int) -> tuple[Table, list[Seat]]:
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    return table, _seats(table)


def _payload(
    table: Table,
    seats: list[Seat],
    seat: int | None,
    game_state: Any = None,
    common: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The state frame of ``seat``. ``game_state`` (the table's state at ``table.version``)
    and ``common`` (the seats and table rows, the same for every seat) save the reads
    when the caller already has them."""
    if common is None:
        common = _common(table, seats)
    return {**_own_part(table, seat, game_state), **common}


def _own_part(
    table: Table, seat: int | None, game_state: Any = None, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The keys of ``seat``'s state frame that differ from seat to seat (all before the
    common ones: :func:`_notice` joins the two as text). ``view``: the seat's view of
    ``game_state``, when the caller built it already."""
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
            game_state = states.load(table)
        to_move = game_state.to_move
        own["to_move"] = to_move
        own["view"] = game_state.view(seat) if view is None else view
        if seat is not None and seat == to_move:
            own["legal"] = list(game_state.legal_actions())
        if table.deadline_at is not None and table.deadline_kind != Table.BOT:
            own["deadline"] = _iso(table.deadline_at)
            own["deadline_kind"] = table.deadline_kind
    return own


def _common(table: Table, seats: list[Seat]) -> dict[str, Any]:
    return {"seats": _seat_rows(seats), "table": table_info(table), "emotes": list(EMOTES)}


def frame_json(payload: dict[str, Any]) -> str:
    """A state frame as sent to programs (and compared, to send each change once).

    orjson, not the standard library's json: a move encodes five of these (four seats
    and the spectators), and json.dumps took about 35 µs each, the largest part of
    building a move's notice (bench/load.py). The text is compact JSON in UTF-8, with
    the keys in the payload's order; numbers as dict keys become strings, as json's do."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


def owner_digest(guest_key: str) -> str:
    """What a change notice carries to say which guest holds a seat (never the key)."""
    return hashlib.sha256(guest_key.encode()).hexdigest()[:32] if guest_key else ""


def frame_key(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def seat_from_owners(owners: list[list[Any]], user_id: int | None, digest: str) -> int | None:
    """``seat_of`` over a change notice's ``owners`` (what :func:`_notice` stores)."""
    for number, (seat_user, seat_digest) in enumerate(owners):
        if user_id is not None and seat_user is not None and seat_user == user_id:
            return number
        if digest and seat_digest and hmac.compare_digest(digest, seat_digest):
            return number
    return None


def _notice(table: Table, seats: list[Seat], game_state: Any = None) -> dict[str, Any]:
    """The change notice sent to the table's sockets: every seat's frame (and the
    spectators'), built once from the rows and state the writer already holds, so the
    sockets need no database read of their own. Each socket sends only the frame of the
    seat its owner holds (``owners``); the others never leave the server."""
    owners = [
        [s.user_id if s.user_id is not None else None, owner_digest(s.guest_key)]
        for s in seats
    ]
    # The seats and table rows are the same in every frame: encoded once, and joined
    # to each seat's own part as text. The result is byte for byte frame_json of the
    # whole payload (the common keys come last in both), so a socket that builds its
    # frame itself (socket_state) sends the same text, and repeats are still caught.
    if game_state is None and table.status != Table.WAITING:
        game_state = states.load(table)
    common = frame_json(_common(table, seats))
    # A seat nobody holds (a bot's, an empty one) has no socket to send its frame to:
    # seat_from_owners never names it, so its frame is not built.
    held = [n for n, (user, digest) in enumerate(owners) if user is not None or digest]
    framed = [None, *held]
    # The views built together: what every seat sees alike is built once (Hand.views).
    views = game_state.views(framed) if game_state is not None else {}
    frames = {
        frame_key(seat): (
            f"{frame_json(_own_part(table, seat, game_state, views.get(seat)))[:-1]},"
            f"{common[1:]}"
        )
        for seat in framed
    }
    return {"type": "table.changed", "version": table.version, "owners": owners,
            "frames": frames}


def list_open_tables(game: str | None = None) -> list[dict[str, Any]]:
    """Public tables that are waiting or being played, newest first, for the lobby."""
    tables = Table.objects.filter(private=False, status__in=[Table.WAITING, Table.PLAYING])
    if game:
        tables = tables.filter(game=game)
    tables = tables.select_related("host").prefetch_related("seats")[:200]
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.number)
        out.append({**table_info(table), "seats": _seat_rows(seats)})
    return out


def hand_record(table_id: int, hand: int) -> dict[str, Any]:
    """Hand (or game) ``hand``, counted from 1, once it is over: its record and what
    ``fair`` needs to recompute its deal. Not over yet (or no such hand): not_found."""
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise TableError("bad_request", "hand must be a whole number from 1")
    if table.status == Table.WAITING:
        raise TableError("not_found", "the table has not started")
    game = spec(table.game)
    finished = game.finished(states.load(table))
    if hand > len(finished):
        raise TableError("not_found", f"hand {hand} is not over")
    counter = hand - 1
    out = {
        "record": game.record(finished[counter]),
        "server_seed": fair.chain(table.seed_top, table.chain_length)[counter],
        "commitment": table.commitment,
        "client_seeds": list(table.client_seeds),
        "counter": counter,
        "hand": hand,
        **game.record_extra(finished, counter),
    }
    if counter == 0 and table.copied_deal:
        # This table's first seed did not deal these cards: they are a copy. Say where
        # from, with the seeds (revealed there) that dealt them first.
        out["copied_from"] = {k: table.copied_deal[k] for k in _COPIED_PROVENANCE}
    return out


_COPIED_PROVENANCE = (
    "table", "hand", "shift", "server_seed", "client_seeds", "counter", "commitment"
)


# ---------------------------------------------------------------------------- after commit
def _broadcast(
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

    def send() -> None:
        held = getattr(_held, "messages", None)
        if held is not None:
            held.extend(messages)  # the async caller sends them (see hold_broadcasts)
        else:
            _send(messages)

    transaction.on_commit(send)


def change_messages(
    table: Table, seats: list[Seat], game_state: Any = None, *, wake: bool = False,
    lobby: bool = False,
) -> list[tuple[str, dict[str, Any]]]:
    """What a change of the table sends: the table's notice, and a word to the clocks
    (a deadline due soon) and the lobby (the table's line changed)."""
    messages = [(group_name(table.pk), _notice(table, seats, game_state))]
    if wake:
        messages.append((CLOCK_GROUP, {"type": "clock.wake"}))
    if lobby:
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    return messages


_held = threading.local()


def _send(messages: list[tuple[str, dict[str, Any]]]) -> None:
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
        _send(held)
        raise
    _held.messages = outer
    return result, held


# ---------------------------------------------------------------------------- deadlines
def _set_deadline(table: Table, seats: list[Seat], game_state: Any, now: datetime) -> None:
    """Store the one pending deadline of the seat to move (nothing when none applies).

    Timers run from ``moved_at`` (when the current version was reached), so recomputing
    after a (re)connect never gives a player more time. While no person has a socket open
    at the table, nothing runs: bots do not play on to an empty room, and the clock
    starts when the first player arrives."""
    table.deadline_at, table.deadline_kind, table.deadline_version = None, "", None
    if table.status != Table.PLAYING or game_state.is_over:
        return
    if not any(s.connections > 0 for s in seats if not s.bot):
        return
    seat = seats[game_state.to_move]
    base = table.moved_at or now
    if seat.bot or seat.away:
        pause = bot_pause()
        game = spec(table.game)
        if game.hand_just_ended(game_state):
            pause = max(pause, float(_setting("TABLES_HAND_PAUSE", 6.0)))
        elif game.trick_just_won(game_state):
            pause = max(pause, float(_setting("TABLES_TRICK_PAUSE", 1.8)))
        table.deadline_at = max(base, now) + timedelta(seconds=pause)
        table.deadline_kind = Table.BOT
    else:
        timer: tuple[datetime, str] | None = None
        if spec(table.game).timeout_action(game_state) is not None:
            seconds = (
                _setting("TABLES_FIRST_CALL_SECONDS", 10)
                if seat.first_game
                else _setting("TABLES_CALL_SECONDS", 20)
            )
            timer = (base + timedelta(seconds=seconds), Table.CALL)
        elif table.move_seconds:
            timer = (base + timedelta(seconds=table.move_seconds), Table.MOVE)
        if seat.connections == 0 and seat.disconnected_at is not None:
            grace = seat.disconnected_at + timedelta(
                seconds=_setting("TABLES_GRACE_SECONDS", 30)
            )
            if timer is None or grace < timer[0]:
                timer = (grace, Table.GRACE)
        if timer is None:
            return
        table.deadline_at, table.deadline_kind = timer
    table.deadline_version = table.version


# What a move or a deadline changes on the table row: saving only these keeps the write
# small (the options, seeds and commitment never change once the table has started).
_DEADLINE_FIELDS = ("deadline_at", "deadline_kind", "deadline_version")
_PLAY_FIELDS = ("version", "moved_at", "status", "finished_at", *_DEADLINE_FIELDS)


def _wakes_clock(table: Table) -> bool:
    """Whether the deadline just set may be due before every clock's next round."""
    if table.deadline_at is None:
        return False
    return (table.deadline_at - timezone.now()).total_seconds() < WAKE_WITHIN


def _save_table(table: Table, fields: tuple[str, ...] | None = None) -> None:
    states.forget_rows(table.pk)  # game.fastmoves' copy of the rows is out of date
    if fields is None:
        table.save()
    else:
        rows.update(table, fields)  # a move's few fields, in SQL built once (game.rows)


# ---------------------------------------------------------------------------- the log
def _append(
    table: Table, seats: list[Seat], game_state: Any, seat: int, action: str, source: str
) -> Any:
    """Apply ``action`` for ``seat``, store it, bump the version, set the next deadline."""
    new_state, now = _advance(table, seats, game_state, seat, action)
    rows.append_action(table.pk, table.version, seat, action, source, now)
    if new_state.is_over:
        _finish(table, seats, new_state)
    _save_table(table, _PLAY_FIELDS)
    states.remember(table, table.version, new_state)
    _broadcast(
        table, seats, new_state, wake=_wakes_clock(table), lobby=new_state.is_over
    )
    return new_state


def _advance(
    table: Table, seats: list[Seat], game_state: Any, seat: int, action: str
) -> tuple[Any, datetime]:
    """The engine's new state after ``action``, and the table row moved on to it in
    memory (version, when, the next deadline; a finished match only its status). Writes
    nothing: the caller stores the action at ``table.version`` and the row's
    ``_PLAY_FIELDS`` (``game.fastmoves`` does the same with its own connection)."""
    try:
        new_state = game_state.apply(action, seat)
    except IllegalAction as exc:
        raise TableError("illegal", str(exc)) from None
    now = timezone.now()
    table.version += 1
    table.moved_at = now
    if new_state.is_over:
        _finish_fields(table, now)
    else:
        _set_deadline(table, seats, new_state, now)
    return new_state, now


def _finish_fields(table: Table, now: datetime) -> None:
    table.status = Table.OVER
    table.finished_at = now
    table.deadline_at, table.deadline_kind, table.deadline_version = None, "", None


def _finish(table: Table, seats: list[Seat], final: Any) -> None:
    """The match is over (its row's fields already set by ``_advance``): record it."""
    if not table.rated:
        return
    game = spec(table.game)
    players = {s.number: s.user or s.abandoned_by for s in seats}
    if any(p is None for p in players.values()):
        log.warning("rated table %s lost a player account; not recorded", table.pk)
        return
    teams = [[players[n] for n in team] for team in game.teams]
    abandoned = [s.abandoned_by for s in seats if s.abandoned_by is not None]
    try:
        with transaction.atomic():  # a savepoint: a refused result must not undo the move
            record_result(
                game.rating_game(table.variant), teams, game.winner(final), abandoned=abandoned
            )
    except ValueError:
        log.exception("the result of table %s could not be recorded", table.pk)


def check_action_args(action: Any, expected_version: Any) -> None:
    if not isinstance(action, str) or not action or len(action) > 64:
        raise TableError("malformed", "action must be a short string")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TableError("malformed", "version must be a whole number")


def admit_action(
    table: Table,
    seats: list[Seat],
    owner: Owner,
    action: str,
    expected_version: int,
    load: Callable[[Table], Any] = states.load,
) -> tuple[int, Any]:
    """The owner's seat and the table's state, if ``action`` may be tried now: held seat,
    started, exactly ``expected_version``, not over, the owner's turn, not ``timeout``.
    Reads nothing but through ``load`` (the state of the row at its version)."""
    seat = seat_of(seats, owner)
    if seat is None:
        raise TableError("not_seated", "you hold no seat at this table")
    if table.status == Table.WAITING:
        raise TableError("illegal", "the table has not started")
    if expected_version != table.version:
        raise TableError("stale", f"the table has moved on (version {table.version})")
    if table.status == Table.OVER:
        raise TableError("illegal", "the match is over")
    game_state = load(table)
    if game_state.to_move != seat:
        raise TableError("not_your_turn", "it is not your turn")
    game = spec(table.game)
    if action not in game_state.legal_actions() and action == game.timeout_action(game_state):
        # The engine accepts `timeout` from the table; a player may never send it.
        raise TableError("illegal", "timeout is applied by the table, not sent by a player")
    return seat, game_state


def apply_action(*, table_id: int, owner: Owner, action: str, expected_version: int) -> int:
    """Play ``action`` for the owner's seat if it is legal at exactly ``expected_version``.

    Returns the new version. Refusals (TableError) change nothing. ``game.fastmoves``
    plays the common case of this on the event loop, with these same checks and steps."""
    check_action_args(action, expected_version)
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        seat, game_state = admit_action(table, seats, owner, action, expected_version)
        if seats[seat].away:
            seats[seat].away = False
            seats[seat].save(update_fields=["away"])
        _append(table, seats, game_state, seat, action, Action.PLAYER)
        return table.version


# ---------------------------------------------------------------------------- the clock
def fire(table_id: int, version: int, kind: str, action: str | None = None) -> bool:
    """Carry out the stored deadline ``kind`` set at ``version``, if it is still the
    table's pending one and is due. Returns whether anything happened; a second call
    (another process, a restart, a late wake) finds it gone and does nothing.

    ``action``: the bot's choice, made beforehand outside the lock by
    :func:`bot_choice` (the clock does this so that no bot thinks while holding a
    table, nor in the database thread). It is applied only if the deadline is still
    pending at the same version, and like any action only if the engine takes it."""
    return _fire(table_id, version, kind, action) is not None


Question = tuple[Any, int, dict[str, Any], str]  # what bot_choice decides from


def fire_and_next(
    table_id: int, version: int, kind: str, action: str | None = None
) -> tuple[Due, Question | None] | None:
    """:func:`fire`, then the table's next deadline if it is already due (a bot's move
    right after its roll, with no pause set), with its :func:`bot_question` answered
    from the state just written: the clock carries it out at once instead of at its
    next wake, without reading the table again."""
    done = _fire(table_id, version, kind, action)
    if done is None:
        return None
    table, game_state = done
    if (
        table.status != Table.PLAYING
        or table.deadline_at is None
        or table.deadline_version is None
        or table.deadline_at > timezone.now()
    ):
        return None
    due = Due(table.pk, table.deadline_version, table.deadline_kind)
    question = None
    if due.kind in (Table.BOT, Table.MOVE):
        question = (game_state, game_state.to_move, dict(table.options), table.game)
    return due, question


def _fire(
    table_id: int, version: int, kind: str, action: str | None
) -> tuple[Table, Any] | None:
    """:func:`fire`; returns the table as written and its state, or None when nothing
    happened."""
    with transaction.atomic():
        table = _lock_row(table_id)
        if table is None:
            return None
        now = timezone.now()
        if (
            table.status != Table.PLAYING
            or table.deadline_at is None
            or table.deadline_version != version
            or table.version != version
            or table.deadline_kind != kind
            or table.deadline_at > now
        ):
            return None
        seats = _seats(table)
        game_state = states.load(table)
        seat = game_state.to_move
        game = spec(table.game)
        if kind == Table.GRACE:
            # The owner did not come back in time: the bot plays the seat until they do.
            seats[seat].away = True
            seats[seat].save(update_fields=["away"])
            _set_deadline(table, seats, game_state, now)
            _save_table(table, _PLAY_FIELDS)
            _broadcast(table, seats, game_state, wake=True)
            return table, game_state
        if kind == Table.CALL:
            action, source = game.timeout_action(game_state), Action.CLOCK
            assert action is not None
        else:
            if action is None:
                action = game.bot_action(game_state, seat, table.options)
            source = Action.BOT if kind == Table.BOT else Action.CLOCK
        return table, _append(table, seats, game_state, seat, action, source)


@dataclass(frozen=True)
class Due:
    """A deadline that is due: what :func:`fire` needs to carry it out."""

    table_id: int
    version: int
    kind: str


def _pending_deadlines() -> Any:
    """The playing tables with a deadline pending, soonest first: the rows of the
    ``table_clock`` index (migration 0006), so a clock never reads the tables left in
    play with nobody there."""
    return Table.objects.filter(status=Table.PLAYING, deadline_pending=True).order_by(
        "deadline_at"
    )


def _due_now() -> Any:
    """:func:`_pending_deadlines` that are due, after closing dead processes' sockets."""
    try:
        reap_dead_processes()
    except Exception:
        log.exception("closing the sockets of dead processes failed")
    return _pending_deadlines().filter(deadline_at__lte=timezone.now())


def due_deadlines(limit: int = 100) -> list[Due]:
    """The deadlines due now, soonest first (after closing dead processes' sockets)."""
    rows = _due_now().values_list("pk", "deadline_version", "deadline_kind")[:limit]
    return [Due(pk, version, kind) for pk, version, kind in rows]


def due_with_questions(limit: int = 100) -> list[tuple[Due, Question | None]]:
    """:func:`due_deadlines` with each one's :func:`bot_question`, from one read of the
    tables (what the clock asks each round)."""
    tables = _due_now()[:limit]
    out: list[tuple[Due, Question | None]] = []
    for table in tables:
        if table.deadline_version is None:
            continue
        due = Due(table.pk, table.deadline_version, table.deadline_kind)
        question = None
        if due.kind in (Table.BOT, Table.MOVE) and table.version == due.version:
            try:
                game_state = states.load(table)
            except Exception:  # fire() will meet the same fault and log it there
                log.exception("the state of table %s could not be loaded", table.pk)
            else:
                question = (game_state, game_state.to_move, dict(table.options), table.game)
        out.append((due, question))
    return out


def next_deadline_in() -> float | None:
    """Seconds until the next pending deadline (None: there is none)."""
    upcoming = _pending_deadlines().values_list("deadline_at", flat=True).first()
    if upcoming is None:
        return None
    return max(0.0, (upcoming - timezone.now()).total_seconds())


def bot_question(due: Due) -> Question | None:
    """What the bot must decide for ``due`` (a bot's move or a player's expired move
    timer): the state, the seat, the table's options and game, read without a lock.
    None when no decision is needed (another kind, or the table has moved on)."""
    if due.kind not in (Table.BOT, Table.MOVE):
        return None
    table = Table.objects.filter(pk=due.table_id).first()
    if table is None or table.version != due.version or table.status != Table.PLAYING:
        return None
    game_state = states.load(table)
    return game_state, game_state.to_move, dict(table.options), table.game


def bot_choice(question: Question) -> str:
    """The bot's action for a :func:`bot_question` (no database: any thread)."""
    game_state, seat, options, game = question
    return spec(game).bot_action(game_state, seat, options)


def fire_due(limit: int = 100) -> float | None:
    """Fire every deadline that is due, one after another; return the seconds until the
    next one (None: none). The clock's own path (``clock.fire_round``) does the same
    with the bots' decisions made concurrently."""
    for due in due_deadlines(limit):
        try:
            fire(due.table_id, due.version, due.kind)
        except Exception:  # one broken table must not stop every other table's clock
            log.exception(
                "deadline %s of table %s at version %s failed", due.kind, due.table_id,
                due.version,
            )
    return next_deadline_in()


# ---------------------------------------------------------------------------- tables
def _check_settings(
    game: str, variant: str | None, options: Any, target: Any, length: Any = 0
) -> tuple[GameSpec, str, dict[str, Any], int | None]:
    if not isinstance(game, str) or game not in GAMES:
        raise TableError("bad_request", f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    gspec = GAMES[game]
    try:
        target = gspec.table_target(length, target)  # backgammon keeps `length` in target
    except ValueError as exc:
        raise TableError("bad_request", str(exc)) from None
    variant = variant or gspec.default_variant
    if not isinstance(variant, str) or variant not in gspec.variants:
        raise TableError(
            "bad_request",
            f"unknown variant {variant!r}; choose one of {', '.join(gspec.variants)}",
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TableError("bad_request", "options must be an object")
    try:
        gspec.check(variant, dict(options), target)
    except (ValueError, TypeError) as exc:
        raise TableError("bad_request", str(exc)) from None
    return gspec, variant, dict(options), target


def _check_client_seed(seed: Any) -> str:
    if not isinstance(seed, str) or not CLIENT_SEED.fullmatch(seed):
        raise TableError(
            "bad_request", "a client seed is 1 to 64 letters, digits, '-' or '_'"
        )
    return seed


def create_table(
    *,
    owner: Owner,
    game: str = "courtpiece",
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    private: bool = False,
    bots: Any = (),
    move_seconds: int | None = 30,
    spectators: bool = True,
    length: int = 0,
    target: int | None = None,
    client_seed: str | None = None,
    copied_deal: dict[str, Any] | None = None,
) -> Table:
    """A new table with the owner at seat 0 and ``bots`` seated; it starts at once when
    every seat is filled. Guests may only create tables where every other seat is a bot.
    ``copied_deal`` (made by ``play_deal_again``, never taken from a client): the first
    hand is that deal (see ``Table.copied_deal``)."""
    gspec, variant, options, target = _check_settings(game, variant, options, target, length)
    if copied_deal is not None and gspec.build_with_deal is None:
        raise TableError("bad_request", f"{game} cannot play a deal again")
    if not isinstance(private, bool) or not isinstance(spectators, bool):
        raise TableError("bad_request", "private and spectators must be true or false")
    if not isinstance(bots, list | tuple) or any(
        isinstance(b, bool) or not isinstance(b, int) for b in bots
    ):
        raise TableError("bad_request", "bots must be a list of seat numbers")
    bot_seats = set(bots)
    if len(bot_seats) != len(bots) or not bot_seats <= set(range(1, gspec.seats)):
        raise TableError(
            "bad_request", f"bots must be distinct seats from 1 to {gspec.seats - 1}"
        )
    if move_seconds is None:
        if not private:
            raise TableError("bad_request", "only a private table may play without a timer")
    elif (
        isinstance(move_seconds, bool)
        or not isinstance(move_seconds, int)
        or not _setting("TABLES_MIN_MOVE_SECONDS", 5) <= move_seconds <= MOVE_SECONDS_MAX
    ):
        low = _setting("TABLES_MIN_MOVE_SECONDS", 5)
        raise TableError(
            "bad_request",
            f"move_seconds must be {low} to {MOVE_SECONDS_MAX}, or null (private tables)",
        )
    if not owner.is_user and (not owner.guest_key or len(bot_seats) != gspec.seats - 1):
        raise TableError("needs_account", "sign in to play with people; guests play bots")
    seed = None if client_seed in (None, "") else _check_client_seed(client_seed)
    top = secrets.token_hex(32)
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            variant=variant,
            options=options,
            target=target,
            private=private,
            host=owner.user if owner.is_user else None,
            host_guest="" if owner.is_user else (owner.guest_key or ""),
            move_seconds=move_seconds,
            spectators=spectators,
            seed_top=top,
            chain_length=gspec.chain_length,
            # The first seed's hash: published now, before anyone's client seed is fixed.
            commitment=fair.commitment(fair.chain(top, gspec.chain_length)[0]),
            copied_deal=copied_deal,
        )
        seats = [
            Seat(table=table, number=n, bot=n in bot_seats) for n in range(gspec.seats)
        ]
        if owner.is_user:
            seats[0].user = owner.user
        else:
            seats[0].guest_key = owner.guest_key or ""
        seats[0].client_seed = seed or ""
        Seat.objects.bulk_create(seats)
        if all(not s.empty for s in seats):
            _start(table)
        else:
            _broadcast(table, seats, lobby=not private)
    return table


def play_now(*, owner: Owner, game: str = "courtpiece", variant: str | None = None) -> Table:
    """A started table against bots, the owner at seat 0; guests welcome (never rated).
    Court Piece: Rung (the default variant) against three bots; backgammon: a money game
    against the bot."""
    gspec = spec(game) if game in GAMES else None
    if gspec is None:
        raise TableError("bad_request", f"unknown game {game!r}")
    return create_table(
        owner=owner, game=game, variant=variant, private=True,
        bots=list(range(1, gspec.seats)), move_seconds=None, spectators=False,
    )


def may_see(table: Table, owner: Owner, invite: str | None = None) -> bool:
    """Whether ``owner`` may see ``table`` at all (the pages' rule): any public table; a
    private one only from one of its seats, as its host, or with its invite link."""
    if not table.private or seat_of(table, owner) is not None:
        return True
    if owner.is_user and table.host_id is not None and table.host_id == owner.user.pk:
        return True
    if owner.guest_key and table.host_guest and hmac.compare_digest(
        owner.guest_key.encode(), table.host_guest.encode()
    ):
        return True
    return isinstance(invite, str) and bool(invite) and hmac.compare_digest(
        invite.encode(), table.invite.encode()
    )


def deal_to_copy(
    *, table_id: Any, hand: Any, owner: Owner, invite: str | None = None
) -> tuple[Table, dict[str, Any]]:
    """The source table and the ``Table.copied_deal`` that plays its hand ``hand``
    (counted from 1) again for ``owner``. Refused unless the owner may see the table and
    the hand is over, so its seed is already revealed: nothing is shown or stored that
    was not public to them already. Nothing changes either way."""
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise TableError("bad_request", "table must be a table number")
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise TableError("bad_request", "hand must be a whole number from 1")
    source = Table.objects.filter(pk=table_id).first()
    if source is None or not may_see(source, owner, invite):
        raise TableError("not_found", f"no table {table_id}")  # a private table: not admitted
    gspec = GAMES.get(source.game)
    if gspec is None or gspec.build_with_deal is None or gspec.deal_of is None:
        raise TableError("bad_request", "only a Court Piece deal can be played again")
    finished = gspec.finished(states.load(source)) if source.client_seeds else ()
    if hand > len(finished):
        raise TableError("not_over", f"hand {hand} is not over: its seed is still secret")
    counter = hand - 1
    if counter == 0 and source.copied_deal:
        # Itself a copy: point at the hand first dealt with these cards, whose seeds
        # recompute them (a copy's own first seed dealt nothing).
        origin = {k: source.copied_deal[k] for k in _COPIED_PROVENANCE}
    else:
        origin = {
            "table": source.pk,
            "hand": hand,
            "shift": 0,
            "server_seed": fair.chain(source.seed_top, source.chain_length)[counter],
            "client_seeds": list(source.client_seeds),
            "counter": counter,
            "commitment": source.commitment,
        }
    dealer, deal = gspec.deal_of(finished[counter])
    seats = gspec.seats
    first = fair.deal(origin["server_seed"], origin["client_seeds"], origin["counter"])
    if [first[(s + origin["shift"]) % seats] for s in range(seats)] != deal:
        # Never claim a provenance that does not hold (it always should).
        raise TableError("conflict", "that deal does not recompute from its seeds")
    # The requester holds the cards they held in that hand; everyone's move round with
    # them, so their partner, the opponents and the dealer keep their places.
    shift = seat_of(source, owner) or 0
    copied = {
        **origin,
        "shift": (origin["shift"] + shift) % seats,
        "dealer": (dealer - shift) % seats,
        "deal": [list(deal[(s + shift) % seats]) for s in range(seats)],
    }
    return source, copied


def play_deal_again(
    *,
    owner: Owner,
    table_id: Any,
    hand: Any,
    invite: str | None = None,
    private: bool = True,
    bots: Any = None,
    move_seconds: int | None = None,
    spectators: bool = False,
) -> Table:
    """A new table whose first hand is hand ``hand`` of table ``table_id`` dealt again:
    the same four hands, the same dealer (see ``deal_to_copy``), with the source's
    variant, house rules and target. Seats, bots, timer and privacy are chosen as for
    any table (``create_table``); by default it is a private table against bots, like
    Play now, so guests may use it too. A deal from a private table stays private.

    The match goes on after the copied hand: friends who sit down to replay a deal sit
    down to a game of Court Piece, and a one-hand table would close under them the
    moment the hand is over. Every later hand is a fresh fair deal from the new table's
    own chain (committed to at creation, before any client seed is fixed), as at any
    table; only the first is marked as copied (``fairness.given``), and the table is
    never rated."""
    source, copied = deal_to_copy(table_id=table_id, hand=hand, owner=owner, invite=invite)
    if source.private and private is not True:
        raise TableError(
            "bad_request", "a deal from a private table is played again at a private table"
        )
    gspec = GAMES[source.game]
    return create_table(
        owner=owner,
        game=source.game,
        variant=source.variant,
        options=dict(source.options),
        target=source.target,
        private=private,
        bots=list(range(1, gspec.seats)) if bots is None else bots,
        move_seconds=move_seconds,
        spectators=spectators,
        copied_deal=copied,
    )


def _is_first_game(seat: Seat) -> bool:
    if seat.bot:
        return False
    if seat.user_id is None:
        return True  # a guest: we cannot know, so give them a newcomer's time
    return not GameStats.objects.filter(user_id=seat.user_id, played__gt=0).exists()


def _start(table: Table) -> None:
    """Fix the client seeds (server-chosen where missing) and begin play."""
    seats = _seats(table)
    if all(seat.empty or seat.bot for seat in seats):
        raise TableError("conflict", "nobody is seated: a table needs at least one player")
    now = timezone.now()
    for seat in seats:
        if seat.empty:
            seat.bot = True
        if not CLIENT_SEED.fullmatch(seat.client_seed or ""):
            seat.client_seed = secrets.token_hex(8)
        seat.first_game = _is_first_game(seat)
        seat.save(update_fields=["bot", "client_seed", "first_game"])
    table.client_seeds = [s.client_seed for s in seats]
    table.status = Table.PLAYING
    table.started_at = now
    table.moved_at = now
    # A deal played again is known to whoever asked for it (they saw all four hands on
    # the replay page), so such a table is never rated.
    table.rated = all(s.user_id is not None for s in seats) and not table.copied_deal
    game_state = states.initial(table)
    _set_deadline(table, seats, game_state, now)
    _save_table(table)
    states.remember(table, 0, game_state)
    _broadcast(
        table, seats, game_state, wake=_wakes_clock(table), lobby=not table.private
    )


def take_seat(*, table_id: int, owner: Owner, seat: int, invite: str | None = None) -> Table:
    if not owner.is_user:
        raise TableError("needs_account", "sign in or create an account to take a seat")
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise TableError("bad_request", f"seat must be 0 to {len(seats) - 1}")
        is_host = table.host_id is not None and table.host_id == owner.user.pk
        if table.private and not is_host and not (
            isinstance(invite, str) and hmac.compare_digest(invite, table.invite)
        ):
            raise TableError("forbidden", "this table is private: you need its invite link")
        if table.status != Table.WAITING:
            raise TableError("conflict", "the table has already started")
        held = seat_of(seats, owner)
        if held == seat:
            return table
        if held is not None:
            raise TableError("conflict", f"you already hold seat {held}")
        if not seats[seat].empty:
            raise TableError("conflict", f"seat {seat} is taken")
        seats[seat].user = owner.user
        seats[seat].save(update_fields=["user"])
        _broadcast(table, seats, lobby=not table.private)
    return table


def set_client_seed(*, table_id: int, owner: Owner, seed: str) -> Table:
    """A seated player's own seed for the deals, while the table waits (it is fixed at
    the start, after everyone has seen the commitment)."""
    seed = _check_client_seed(seed)
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        number = seat_of(seats, owner)
        if number is None:
            raise TableError("not_seated", "you hold no seat at this table")
        if table.status != Table.WAITING:
            raise TableError("conflict", "client seeds are fixed once the table starts")
        seats[number].client_seed = seed
        seats[number].save(update_fields=["client_seed"])
    return table


def leave_seat(*, table_id: int, owner: Owner) -> Table:
    """Leave: before the start the seat is freed; during play a bot takes it over (and a
    rated match records the leaver as having abandoned it)."""
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        number = seat_of(seats, owner)
        if number is None:
            raise TableError("not_seated", "you hold no seat at this table")
        seat = seats[number]
        if table.status == Table.OVER:
            raise TableError("conflict", "the match is over")
        if table.status == Table.PLAYING:
            if table.rated and seat.user_id is not None:
                seat.abandoned_by = seat.user
            seat.bot = True
            seat.away = False
        seat.user = None
        seat.guest_key = ""
        seat.client_seed = "" if table.status == Table.WAITING else seat.client_seed
        seat.save()
        now = timezone.now()
        if table.status == Table.PLAYING:
            if all(s.bot for s in seats):
                # Nobody is left to play for: close the table rather than let bots play on.
                table.status = Table.OVER
                table.finished_at = now
                table.deadline_at, table.deadline_kind, table.deadline_version = None, "", None
            else:
                _set_deadline(table, seats, states.load(table), now)
            _save_table(table)
        _broadcast(table, seats, wake=_wakes_clock(table), lobby=not table.private)
    return table


def start_table(*, table_id: int, owner: Owner) -> Table:
    """Host only: empty seats become bots and play begins."""
    with transaction.atomic():
        table = _locked(table_id)
        is_host = (owner.is_user and table.host_id == owner.user.pk) or bool(
            owner.guest_key and table.host_guest
            and hmac.compare_digest(owner.guest_key, table.host_guest)
        )
        if not is_host:
            raise TableError("forbidden", "only the host starts the table")
        if table.status != Table.WAITING:
            raise TableError("conflict", "the table has already started")
        _start(table)
    return table


# ---------------------------------------------------------------------------- sockets
# This process's name in ServerProcess/Connection rows, and the sockets it holds, so that
# a process wrongly given up for dead (its loop stalled) can put them back.
PROCESS = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"
_own_sockets: dict[str, tuple[int, int]] = {}  # channel -> (table id, seat)
_own_lock = threading.Lock()


def process_timeout() -> float:
    """Seconds without a heartbeat after which a process's sockets count as closed."""
    return float(_setting("TABLES_PROCESS_TIMEOUT", 30))


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
        table = _lock_row(table_id)
        if table is None:
            return
        seats = _seats(table)
        if not 0 <= number < len(seats):
            return
        if opened is not None:
            _heartbeat()
            Connection.objects.update_or_create(
                channel=opened, defaults={"table": table, "seat": number, "process": PROCESS}
            )
        if closed is not None:
            Connection.objects.filter(channel=closed).delete()
        _recount(table, seats, [number], back=opened is not None)


def _recount(table: Table, seats: list[Seat], numbers: list[int], *, back: bool) -> None:
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
        game_state = states.load(table)
        _set_deadline(table, seats, game_state, now)
        _save_table(table, _DEADLINE_FIELDS)
    _broadcast(table, seats, game_state, wake=_wakes_clock(table))


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
        affected = sorted(
            set(Connection.objects.filter(process=name).values_list("table_id", "seat"))
        )
        for table_id in sorted({t for t, _s in affected}):
            with transaction.atomic():
                table = _lock_row(table_id)
                if table is None:
                    continue
                Connection.objects.filter(process=name, table=table).delete()
                _recount(
                    table, _seats(table), [s for t, s in affected if t == table_id], back=False
                )
        with transaction.atomic():
            if not Connection.objects.filter(process=name).exists():
                ServerProcess.objects.filter(name=name, seen_at__lt=cutoff).delete()
    return len(dead)


def send_emote(*, table_id: int, owner: Owner, emote: str) -> None:
    """One of the fixed emotes from a seated player, at most one per seat every 2 s
    (counted in the shared cache, so every server process sees the same limit)."""
    if emote not in EMOTES:
        raise TableError("malformed", f"emote must be one of {', '.join(EMOTES)}")
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    seat = seat_of(table, owner)
    if seat is None:
        raise TableError("not_seated", "only seated players send emotes")
    if not cache.add(f"tables:emote:{table_id}:{seat}", 1, timeout=2):
        raise TableError("rate_limited", "one emote every 2 seconds")
    message = {"type": "table.emote", "seat": seat, "emote": emote}
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(table_id), message)
