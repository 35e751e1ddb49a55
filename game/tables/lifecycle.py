"""A table's life: made (with its fairness commitment), seats taken and left, client
seeds chosen, started, and closed when nobody is left to play for.

Every write locks the table row first, so two server processes, or the clock and a
player, are serialised on it; broadcasts leave only after the commit.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import GameStats
from game.engine import fair
from game.models import Seat, Table
from game.tables import access, deadlines, moves, notices, registry
from game.tables.config import setting
from game.tables.errors import TableError
from game.tables.store import replay, rows

CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
MOVE_SECONDS_MAX = 600  # the per-move timer a table may choose, in seconds, up to this


def check_settings(
    game: Any, variant: str | None, options: Any, target: Any, length: Any = 0
) -> tuple[registry.GameSpec, str, dict[str, Any], int | None]:
    gspec = registry.find(game)
    if gspec is None:
        known = ", ".join(registry.names())
        raise TableError("bad_request", f"unknown game {game!r}; choose one of {known}")
    try:
        target = gspec.table_target_of(length, target)
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


def check_client_seed(seed: Any) -> str:
    if not isinstance(seed, str) or not CLIENT_SEED.fullmatch(seed):
        raise TableError(
            "bad_request", "a client seed is 1 to 64 letters, digits, '-' or '_'"
        )
    return seed


def create_table(
    *,
    owner: access.Owner,
    game: str,
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
    gspec, variant, options, target = check_settings(game, variant, options, target, length)
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
        or not setting("TABLES_MIN_MOVE_SECONDS", 5) <= move_seconds <= MOVE_SECONDS_MAX
    ):
        low = setting("TABLES_MIN_MOVE_SECONDS", 5)
        raise TableError(
            "bad_request",
            f"move_seconds must be {low} to {MOVE_SECONDS_MAX}, or null (private tables)",
        )
    if not owner.is_user and (not owner.guest_key or len(bot_seats) != gspec.seats - 1):
        raise TableError("needs_account", "sign in to play with people; guests play bots")
    seed = None if client_seed in (None, "") else check_client_seed(client_seed)
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
        # The player's own seed, shown on the table page before the first card; theirs
        # to change until the start (set_client_seed).
        seats[0].client_seed = seed or secrets.token_hex(8)
        Seat.objects.bulk_create(seats)
        if all(not s.empty for s in seats):
            _start(table)
        else:
            notices.broadcast(table, seats, lobby=not private)
    return table


def play_now(
    *,
    owner: access.Owner,
    game: str | None = None,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
) -> Table:
    """A started private table against bots, the owner at seat 0, with no timer; guests
    welcome (never rated). ``game``: the default game if None; ``variant``: the game's
    default variant if None; ``options`` (the bots' level) checked as any table's."""
    gspec = registry.find(registry.default_name() if game is None else game)
    if gspec is None:
        raise TableError("bad_request", f"unknown game {game!r}")
    return create_table(
        owner=owner, game=gspec.name, variant=variant, options=options, private=True,
        bots=list(range(1, gspec.seats)), move_seconds=None, spectators=False,
    )


def _is_first_game(seat: Seat) -> bool:
    if seat.bot:
        return False
    if seat.user_id is None:
        return True  # a guest: we cannot know, so give them a newcomer's time
    return not GameStats.objects.filter(user_id=seat.user_id, played__gt=0).exists()


def _start(table: Table) -> None:
    """Fix the client seeds (server-chosen where missing) and begin play."""
    seats = rows.seats_of(table)
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
    game_state = replay.initial(table)
    deadlines.set_deadline(table, seats, game_state, now)
    moves.save_table(table)
    replay.remember(table, 0, game_state)
    notices.broadcast(
        table, seats, game_state, wake=deadlines.wakes_clock(table), lobby=not table.private
    )


def take_seat(*, table_id: int, owner: access.Owner, seat: int, invite: str | None = None) -> Table:
    """``owner`` sits at ``seat``. A private table without its invite (to anyone but its
    host and its players) is ``not_found``, before anything else is said about it. While
    the table is played, only the player who left ``seat`` may sit there again
    (``_take_back``): "Take my seat back"."""
    with transaction.atomic():
        table = rows.locked(table_id)
        seats = rows.seats_of(table)
        if not access.may_see(table, owner, invite):
            raise TableError("not_found", f"no table {table_id}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise TableError("bad_request", f"seat must be 0 to {len(seats) - 1}")
        if table.status != Table.WAITING and access.left_seat_of(seats, owner) == seat:
            if table.status == Table.OVER:
                raise TableError("conflict", "the match is over")
            _take_back(table, seats, seats[seat])
            return table
        if not owner.is_user:
            raise TableError("needs_account", "sign in or create an account to take a seat")
        if table.status != Table.WAITING:
            raise TableError("conflict", "the table has already started")
        held = access.seat_of(seats, owner)
        if held == seat:
            return table
        if held is not None:
            raise TableError("conflict", f"you already hold seat {held}")
        if not seats[seat].empty:
            raise TableError("conflict", f"seat {seat} is taken")
        seats[seat].user = owner.user
        seats[seat].client_seed = secrets.token_hex(8)  # theirs to change until the start
        seats[seat].save(update_fields=["user", "client_seed"])
        notices.broadcast(table, seats, lobby=not table.private)
    return table


def _take_back(table: Table, seats: list[Seat], seat: Seat) -> None:
    """The player who left ``seat`` during play takes it back from its bot (the table's
    row locked by the caller): the seat is theirs again as it was, and a rated match no
    longer counts them as having abandoned it. A turn the bot had is the player's now,
    with the table's own timer (deadlines.set_deadline)."""
    seat.user = seat.left_user
    seat.guest_key = seat.left_guest_key or ""
    seat.left_user, seat.left_guest_key = None, None
    seat.bot = False
    seat.away = False
    seat.abandoned_by = None
    seat.save(
        update_fields=[
            "user", "guest_key", "left_user", "left_guest_key", "bot", "away", "abandoned_by"
        ]
    )
    deadlines.set_deadline(table, seats, replay.load(table), timezone.now())
    moves.save_table(table)
    notices.broadcast(table, seats, wake=deadlines.wakes_clock(table), lobby=not table.private)


def _locked_with_seat(table_id: int, owner: access.Owner) -> tuple[Table, list[Seat], int]:
    """The table row (locked until the transaction ends), its seats and the seat
    ``owner`` holds there (``not_seated`` if none)."""
    table = rows.locked(table_id)
    seats = rows.seats_of(table)
    number = access.seat_of(seats, owner)
    if number is None:
        if not access.may_see(table, owner):  # a private table: not admitted to exist
            raise TableError("not_found", f"no table {table_id}")
        raise TableError("not_seated", "you hold no seat at this table")
    return table, seats, number


def set_client_seed(*, table_id: int, owner: access.Owner, seed: str) -> Table:
    """A seated player's own seed for the deals, while the table waits (it is fixed at
    the start, after everyone has seen the commitment)."""
    seed = check_client_seed(seed)
    with transaction.atomic():
        table, seats, number = _locked_with_seat(table_id, owner)
        if table.status != Table.WAITING:
            raise TableError("conflict", "client seeds are fixed once the table starts")
        seats[number].client_seed = seed
        seats[number].save(update_fields=["client_seed"])
    return table


def leave_seat(*, table_id: int, owner: access.Owner) -> Table:
    """Leave: before the start the seat is freed; during play a bot takes it over (and a
    rated match records the leaver as having abandoned it). The seat remembers who left
    it during play (``Seat.left_user``/``left_guest_key``): the game stays theirs to find
    again (game.tables.mine), to watch and replay (access.may_see), to be named at
    (frames.seat_rows) and, while it is played, to come back to (take_seat)."""
    with transaction.atomic():
        table, seats, number = _locked_with_seat(table_id, owner)
        seat = seats[number]
        if table.status == Table.OVER:
            raise TableError("conflict", "the match is over")
        if table.status == Table.PLAYING:
            if table.rated and seat.user_id is not None:
                seat.abandoned_by = seat.user
            seat.bot = True
            seat.away = False
            seat.left_user = seat.user
            seat.left_guest_key = seat.guest_key or None
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
                deadlines.set_deadline(table, seats, replay.load(table), now)
            moves.save_table(table)
        notices.broadcast(table, seats, wake=deadlines.wakes_clock(table), lobby=not table.private)
    return table


def start_table(*, table_id: int, owner: access.Owner) -> Table:
    """Host only: empty seats become bots and play begins."""
    with transaction.atomic():
        table = rows.locked(table_id)
        if not access.may_see(table, owner):  # a private table: not admitted to exist
            raise TableError("not_found", f"no table {table_id}")
        if not access.is_host(table, owner):
            raise TableError("forbidden", "only the host starts the table")
        if table.status != Table.WAITING:
            raise TableError("conflict", "the table has already started")
        _start(table)
    return table
