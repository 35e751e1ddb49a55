"""Who acts at a table and what they may see: a signed-in user or a guest (by a key in
their session), the seat they hold, the host, and the invite link of a private table.

Secrets (guest keys, invites) are compared in constant time, as bytes: a string from a
client may hold any character."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from game.models import Seat, Table
from game.tables.errors import TableError
from game.tables.store import rows


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


MAX_SECRET = 128  # characters: invites and guest keys are token_urlsafe's, about 32


def _same_secret(given: Any, stored: str) -> bool:
    """Whether ``given`` (from a client: anything at all) is the secret ``stored``. Only a
    string of at most MAX_SECRET printable ASCII characters can be (a secret is
    ``secrets.token_urlsafe``'s): anything else is simply wrong, never an error (a lone
    surrogate cannot even be encoded), and the comparison is of bytes, in constant time."""
    if not isinstance(given, str) or not given or not stored or len(given) > MAX_SECRET:
        return False
    if not given.isascii() or not given.isprintable():
        return False
    return hmac.compare_digest(given.encode("ascii"), stored.encode("utf-8"))


def holds(seat: Seat, owner: Owner) -> bool:
    """Whether ``owner`` holds ``seat`` (as its account, or by its guest key)."""
    if owner.is_user and seat.user_id is not None and seat.user_id == owner.user.pk:
        return True
    return _same_secret(owner.guest_key, seat.guest_key)


def seat_of(table: Table | list[Seat], owner: Owner) -> int | None:
    """The seat ``owner`` holds at ``table`` (a Table or its seats), or None."""
    seats = table if isinstance(table, list) else rows.seats_of(table)
    for seat in seats:
        if holds(seat, owner):
            return seat.number
    return None


def left(seat: Seat, owner: Owner) -> bool:
    """Whether ``owner`` left ``seat`` during play (lifecycle.leave_seat: a bot plays it
    on, or played it to the end), as its account or by their guest key."""
    if owner.is_user and seat.left_user_id is not None and seat.left_user_id == owner.user.pk:
        return True
    return _same_secret(owner.guest_key, seat.left_guest_key or "")


def left_seat_of(table: Table | list[Seat], owner: Owner) -> int | None:
    """The seat ``owner`` left at ``table`` (a Table or its seats) during play, if they
    hold none there now; else None. A former player sees the table as a spectator does,
    never the seat's cards (game.tables.frames), but keeps their way back to it."""
    seats = table if isinstance(table, list) else rows.seats_of(table)
    if any(holds(seat, owner) for seat in seats):
        return None
    for seat in seats:
        if left(seat, owner):
            return seat.number
    return None


def played_at(table: Table | list[Seat], owner: Owner) -> bool:
    """Whether ``owner`` holds a seat at ``table``, or held one during play and left it."""
    seats = table if isinstance(table, list) else rows.seats_of(table)
    return any(holds(seat, owner) or left(seat, owner) for seat in seats)


def is_host(table: Table, owner: Owner) -> bool:
    """Whether ``owner`` made the table (an account, or the guest whose key made it). A
    table an account hosts is that account's alone, also one a guest made and then
    handed to their new account (game.tables.signin): the old key hosts nothing."""
    if table.host_id is not None:
        return owner.is_user and table.host_id == owner.user.pk
    return _same_secret(owner.guest_key, table.host_guest)


def has_invite(table: Table, invite: Any) -> bool:
    """Whether ``invite`` is the table's invite link's secret."""
    return _same_secret(invite, table.invite)


def may_watch(table: Table, owner: Owner, invite: Any, seat: int | None) -> bool:
    """Whether ``owner`` (who holds ``seat`` there, or None) may watch the table live, its
    socket and its page: a seated player always, and one who left their seat during play
    (as a spectator: their old seat's cards are a bot's now); anyone else only at a table
    that takes spectators, and at a private one only as its host or with its invite."""
    if seat is not None:
        return True
    if table.spectators and (
        not table.private or is_host(table, owner) or has_invite(table, invite)
    ):
        return True
    return left_seat_of(table, owner) is not None


def visible(table_id: Any, owner: Owner, invite: Any = None) -> Table:
    """The table ``table_id`` if ``owner`` may see it (:func:`may_see`); ``not_found``
    alike for a private table they may not and for no table at all."""
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None or not may_see(table, owner, invite):
        raise TableError("not_found", f"no table {table_id}")
    return table


def may_see(table: Table, owner: Owner, invite: Any = None) -> bool:
    """Whether ``owner`` may see ``table`` at all, its finished hands included (pages,
    records, replays, summaries): any public table; a private one only from one of its
    seats (held now, or left during play), as its host, or with its invite link."""
    if not table.private or played_at(table, owner):
        return True
    return is_host(table, owner) or has_invite(table, invite)
