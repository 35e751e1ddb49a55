"""What signing in does at the tables (allauth's ``user_logged_in``, connected in
game/apps.py): a guest's seats pass to the account they signed up or in with, and an
invite they followed as a guest brings them back to its table, in the seat they chose.

The invite is kept in the session (``remember_invite``) as well as in the sign-in's
``next``: with mandatory email verification the account signs in only when the emailed
link is confirmed, and allauth keeps ``next`` only so long (and never through a sign-in
begun from the header). Sessions survive signing in (Django cycles the key, not the
data), so the same browser finds both the guest key and the invite there.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _

from game.models import Seat, Table
from game.tables import access, lifecycle, notices, records
from game.tables.errors import TableError
from game.tables.store import replay, rows

INVITE_KEY = "table_invite"  # the session's pending invite (remember_invite)
INVITE_MAX_AGE = 24 * 3600  # seconds: an invite followed yesterday no longer steers a sign-in


def remember_invite(session: Any, table_id: int, invite: str, seat: int | None = None) -> None:
    """A guest followed ``table_id``'s invite (``invite``: its secret, checked by the
    caller; empty for a public table) and chose ``seat``, if given: after they sign in,
    in this browser, they land at that table, seated there if they chose."""
    kept = session.get(INVITE_KEY)
    if seat is None and isinstance(kept, dict) and kept.get("table") == table_id:
        seat = kept.get("seat")  # looking at the table again keeps the seat they chose
    session[INVITE_KEY] = {
        "table": table_id, "invite": invite, "seat": seat, "at": int(time.time())
    }


def pending_invite(session: Any) -> dict[str, Any] | None:
    """The invite the session keeps, if it is well formed and fresh."""
    kept = session.get(INVITE_KEY)
    if not isinstance(kept, dict):
        return None
    table, invite, seat, at = (kept.get(k) for k in ("table", "invite", "seat", "at"))
    if not isinstance(table, int) or not isinstance(invite, str) or not isinstance(at, int):
        return None
    if seat is not None and not isinstance(seat, int):
        return None
    if not 0 <= time.time() - at <= INVITE_MAX_AGE:
        return None
    return {"table": table, "invite": invite, "seat": seat}


def hand_over(guest_key: str, user: Any) -> int:
    """The guest's seats pass to ``user``, and the tables the guest made become theirs;
    returns how many seats passed. So do the seats the guest left during play (a bot's
    now: ``Seat.left_guest_key``), which keep the game theirs to find again. Only seats
    no account holds (or left) are taken, and the key leaves each seat it moves, so a key
    is never handed over twice. A table keeps the ``rated`` it was given at its start: a
    guest's table was never rated, and a match does not become rated half-way."""
    if not guest_key:
        return 0
    moved = 0
    held = Q(guest_key=guest_key, user__isnull=True)
    left = Q(left_guest_key=guest_key, left_user__isnull=True)
    tables = Seat.objects.filter(held | left).values_list("table_id", flat=True).distinct()
    for table_id in list(tables):
        with transaction.atomic():  # the row locked, as every write of a table
            table = rows.locked_table(table_id)
            if table is None:
                continue
            seats = rows.seats_of(table)
            if any(user.pk in (s.user_id, s.left_user_id) for s in seats):
                continue  # one person, one seat: the account is there already
            theirs = access.Owner(user=None, guest_key=guest_key)
            changed = [s for s in seats if s.user_id is None and access.holds(s, theirs)]
            for seat in changed:
                seat.user, seat.guest_key = user, ""
                seat.save(update_fields=["user", "guest_key"])
            was_left = [s for s in seats if s.left_user_id is None and access.left(s, theirs)]
            for seat in was_left:
                seat.left_user, seat.left_guest_key = user, None
                seat.save(update_fields=["left_user", "left_guest_key"])
            if table.host_id is None and access.is_host(table, theirs):
                table.host = user
                table.save(update_fields=["host"])
            if changed and table.status == Table.OVER and table.client_seeds:
                # A game the guest finished counts for the account (never rated).
                records.record_match(table, seats, replay.load(table))
            if changed or was_left:
                # Every open page of the table shows the account's name for "Guest".
                notices.broadcast(table, seats, lobby=not table.private)
            moved += len(changed) + len(was_left)
    return moved


def _goes_home(response: HttpResponseRedirect) -> bool:
    """Whether the sign-in was going to land on the home page (nowhere in particular)."""
    try:
        return resolve(urlsplit(response["Location"]).path).url_name == "home"
    except Resolver404:
        return False


def _follow_invite(request: Any, user: Any, pending: dict[str, Any]) -> tuple[str, bool] | None:
    """The table's page for the invite ``pending`` (and whether the player now sits
    there, having chosen a seat), or None if the invite no longer opens its table."""
    table = Table.objects.filter(pk=pending["table"]).first()
    if table is None or (table.private and not access.has_invite(table, pending["invite"])):
        return None
    url = reverse("game:table", args=[table.pk])
    if pending["invite"]:
        url += f"?invite={pending['invite']}"
    if pending["seat"] is None:
        return url, False
    owner = access.Owner(user=user, guest_key=None)
    try:
        lifecycle.take_seat(
            table_id=table.pk, owner=owner, seat=pending["seat"], invite=pending["invite"]
        )
    except TableError:
        messages.warning(
            request, _("The seat you chose is no longer free: choose another at the table.")
        )
        return url, False
    return url, True


def on_signed_in(
    sender: Any, request: Any = None, user: Any = None, response: Any = None, **kwargs: Any
) -> None:
    """allauth's ``user_logged_in``: hand the session's guest seats over, then follow the
    invite it keeps. A seat chosen before signing in is taken and the player lands at its
    table; an invite only looked at brings them there when the sign-in had nowhere else
    to go (the home page)."""
    session = getattr(request, "session", None)
    if session is None or user is None:
        return
    key = session.pop("guest_key", None)  # from now on the account holds what it held
    if isinstance(key, str):
        hand_over(key, user)
    pending = pending_invite(session)
    session.pop(INVITE_KEY, None)
    if pending is None:
        return
    followed = _follow_invite(request, user, pending)
    if followed is None or not isinstance(response, HttpResponseRedirect):
        return
    url, seated = followed
    if seated or _goes_home(response):
        response["Location"] = url
