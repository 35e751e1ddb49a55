"""A player's own tables, the way back to a game: every table where they hold a seat, or
held one during play and left it to a bot (lifecycle.leave_seat), as an account or as a
guest (by the key in their browser's session), newest first, finished ones too.
``GET /api/tables?mine=1`` lists them as the open tables are listed; the home page and the
lobby show the few newest in progress and finished, with their replays.

Only tables with one of the player's own seats: a private table is listed to those seated
at it, or who left a seat there during play (who may open it without its invite, as a
spectator), never to anyone else."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game.models import Seat, Table
from game.tables import access, frames, registry
from game.tables.store import replay

MINE_MAX = 100  # the API's list: a long way back, and a bound on what one call reads
PAGE_ROWS = 5  # the pages' boxes: this many in progress, and as many finished


def held_tables(owner: access.Owner) -> QuerySet[Table]:
    """The tables where ``owner`` holds a seat now, or left one during play, newest first
    (none for a visitor with neither an account nor a guest key)."""
    held = Q()
    if owner.is_user:
        held |= Q(user_id=owner.user.pk) | Q(left_user_id=owner.user.pk)
    if owner.guest_key:
        held |= Q(guest_key=owner.guest_key) | Q(left_guest_key=owner.guest_key)
    if not held:
        return Table.objects.none()
    seats = Seat.objects.filter(held).values("table_id")
    return Table.objects.filter(pk__in=seats).order_by("-created_at", "-pk")


def page_url(table_id: int) -> str:
    """The table's page, in the active language."""
    return reverse("game:table", args=[table_id])


def list_my_tables(owner: access.Owner, limit: int = MINE_MAX) -> list[dict[str, Any]]:
    """docs/TABLE_PROTOCOL.md's ``?mine=1`` list: each table as the open tables' list
    gives it (frames.list_open_tables), with its page, the seat ``owner`` holds and the
    seat they left during play (``left_seat``, a bot's since; None if they left none)."""
    out = []
    for table in held_tables(owner).select_related("host").prefetch_related("seats")[:limit]:
        seats = sorted(table.seats.all(), key=lambda s: s.number)
        out.append(
            {
                **frames.table_info(table),
                "page": page_url(table.pk),
                "seats": frames.seat_rows(seats),
                "your_seat": access.seat_of(seats, owner),
                "left_seat": access.left_seat_of(seats, owner),
            }
        )
    return out


def _others(rows: list[dict[str, Any]], mine: int | None) -> list[str]:
    """Who else sits at the table, in the words of its lobby."""
    names = []
    for row in rows:
        if row["seat"] == mine:
            continue
        if row["bot"]:
            names.append(_("Bot"))
        elif row["guest"]:
            names.append(_("Guest"))
        elif row["player"]:
            names.append(str(row["player"]))
        else:
            names.append(_("Empty seat"))
    return names


def ago(when: datetime, now: datetime | None = None) -> str:
    """How long ago ``when`` was, in a few words of the active language ("5 minutes
    ago"): Django's own timesince has no Urdu or Hindi, so the pages say it here."""
    seconds = max(0, int(((now or timezone.now()) - when).total_seconds()))
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    if minutes < 1:
        return _("just now")
    if hours < 1:
        return ngettext("%(n)d minute ago", "%(n)d minutes ago", minutes) % {"n": minutes}
    if days < 1:
        return ngettext("%(n)d hour ago", "%(n)d hours ago", hours) % {"n": hours}
    return ngettext("%(n)d day ago", "%(n)d days ago", days) % {"n": days}


def _progress(table: Table, gspec: registry.GameSpec, mine: int | None) -> dict[str, Any]:
    """What tells one table in progress from another: the score (the player's side
    first), the hand (or game) being played, from a replay of its log (the process's
    cache spares most of it); nothing for a table not started."""
    if table.status != Table.PLAYING:
        return {"score": None, "round": None}
    try:
        state = replay.load(table)
    except ValueError:
        return {"score": None, "round": None}
    view = state.view(mine)
    scores = (view.get("match") or {}).get("scores") or view.get("score")
    score = None
    if scores and len(scores) == len(gspec.teams) == 2:  # two sides: the player's, the other
        side = next((i for i, team in enumerate(gspec.teams) if mine in team), 0)
        score = {"mine": int(scores[side]), "theirs": int(scores[1 - side])}
    done = len(gspec.finished(state))
    return {"score": score, "round": gspec.pages.round_name(done + 1)}


def _finished_part(table: Table, gspec: registry.GameSpec, mine: int | None) -> dict[str, Any]:
    """A finished table's replays (one per finished hand or game) and whether the
    player's side won: a replay of its log (the process's cache spares most of it)."""
    try:
        state = replay.load(table)
    except ValueError:  # never started: nothing was played
        return {"replays": [], "won": None}
    hands = len(gspec.finished(state))
    won = None
    if state.is_over and mine is not None:
        won = mine in gspec.teams[gspec.winner(state)]
    return {
        "replays": [
            {"n": n, "url": reverse("game:replay", args=[table.pk, n])}
            for n in range(1, hands + 1)
        ],
        "won": won,
    }


def _row(table: Table, seats: list[Seat], owner: access.Owner) -> dict[str, Any] | None:
    gspec = registry.find(table.game)
    if gspec is None:  # a game this server no longer registers
        return None
    rows = frames.seat_rows(seats)
    held = access.seat_of(seats, owner)
    left = access.left_seat_of(seats, owner)
    mine = held if held is not None else left  # a seat left is still the player's side
    others = _others(rows, mine)
    row: dict[str, Any] = {
        "id": table.pk,
        "url": page_url(table.pk),
        "title": gspec.pages.title(table.variant),
        "status": table.status,
        "private": table.private,
        "others": others,
        "with": _("with %(names)s") % {"names": pgettext("list separator", ", ").join(others)},
        "replays": [],
        "won": None,
        # Left during play: a bot plays their seat on (or played it to the end).
        "left": left is not None,
        "left_seat": left,
        "score": None,
        "round": None,
        "ago": ago(table.moved_at or table.started_at or table.created_at),
    }
    if table.status == Table.OVER:
        row.update(_finished_part(table, gspec, mine))
    else:
        row.update(_progress(table, gspec, mine))
    return row


def play_now_in_progress(owner: access.Owner, game: str) -> dict[str, Any] | None:
    """The newest table of ``game`` that "Play now" made for ``owner`` and that is still
    being played (private, no move timer, every other seat a bot's, the owner still in
    theirs), as a row of "Your games"; None without one. Play now offers it back first
    (game.tables.pages.play_now) rather than open one more table beside it."""
    if not owner.is_user and not owner.guest_key:
        return None
    tables = held_tables(owner).filter(
        status=Table.PLAYING, game=game, private=True, move_seconds__isnull=True
    ).prefetch_related("seats")[:PAGE_ROWS]
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.number)
        held = access.seat_of(seats, owner)
        if held is not None and all(s.bot for s in seats if s.number != held):
            return _row(table, seats, owner)
    return None


def your_games(owner: access.Owner) -> dict[str, Any]:
    """The pages' "Your games": the PAGE_ROWS newest tables in progress (waiting or being
    played) and the PAGE_ROWS newest finished, each with its page, who else sits there,
    and for a finished one its replays and result. Nothing is read for a visitor with
    neither an account nor a guest key."""
    if not owner.is_user and not owner.guest_key:
        return {"playing": [], "finished": [], "any": False}
    base = held_tables(owner)
    playing = list(base.filter(status__in=[Table.WAITING, Table.PLAYING])[:PAGE_ROWS])
    finished = list(base.filter(status=Table.OVER)[:PAGE_ROWS])
    seats: dict[int, list[Seat]] = {t.pk: [] for t in playing + finished}
    for seat in Seat.objects.filter(table_id__in=list(seats)).order_by("table_id", "number"):
        seats[seat.table_id].append(seat)  # the seats of both lists in one read
    out: dict[str, Any] = {
        name: [r for r in (_row(t, seats[t.pk], owner) for t in tables) if r is not None]
        for name, tables in (("playing", playing), ("finished", finished))
    }
    out["any"] = bool(out["playing"] or out["finished"])
    return out
