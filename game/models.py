"""Live tables: a Table, its Seats and its append-only Action log.

The log is the truth: a table's game state is a replay of its actions from the fields
stored here (each game's registration, game.tables.registry, says how), so a second
server process or a restart sees exactly what the first one did. Every write goes through
the table services (game.tables).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_invite() -> str:
    # 32 random bytes: an invite link nobody can guess or enumerate.
    return secrets.token_urlsafe(32)


class Table(models.Model):
    WAITING, PLAYING, OVER = "waiting", "playing", "over"
    STATUS_CHOICES = ((WAITING, "waiting"), (PLAYING, "playing"), (OVER, "over"))
    # What the stored deadline does when it fires (a clock -> game.tables.due.fire).
    CALL, MOVE, BOT, GRACE = "call", "move", "bot", "grace"
    DEADLINE_CHOICES = ((CALL, "call"), (MOVE, "move"), (BOT, "bot"), (GRACE, "grace"))

    game = models.CharField(max_length=20)  # a registered game's name (game.tables.registry)
    variant = models.CharField(max_length=20, blank=True)
    options = models.JSONField(default=dict, blank=True)  # the engine's keyword options
    target = models.PositiveIntegerField(null=True, blank=True)  # match target; None: default
    private = models.BooleanField(default=False)
    invite = models.CharField(max_length=64, unique=True, default=new_invite)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    host_guest = models.CharField(max_length=64, blank=True)  # a guest's "Play now" table
    status = models.CharField(max_length=8, choices=STATUS_CHOICES, default=WAITING)
    move_seconds = models.PositiveIntegerField(null=True, blank=True)  # None: no move timer
    spectators = models.BooleanField(default=True)
    rated = models.BooleanField(default=False)  # decided at start: four accounts, no bots
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)  # number of actions in the log
    moved_at = models.DateTimeField(null=True, blank=True)  # when `version` was reached
    # Fairness (fair.chain): the secret top never leaves the server; the commitment of the
    # chain's first seed is published at creation, before any client seed is fixed.
    seed_top = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    chain_length = models.PositiveIntegerField()
    client_seeds = models.JSONField(default=list, blank=True)  # fixed at start
    # A deal played again (game.tables.deal_again): the first hand is not dealt from
    # this table's seeds but is this one, copied from a finished hand. Keys: "dealer" and
    # "deal" (as this table seats it), "table" and "hand" (the hand first dealt with these
    # cards), "shift" (seat s here holds that table's seat s + shift), and the revealed
    # seeds that dealt it there: "server_seed", "client_seeds", "counter", "commitment".
    # None: an ordinary table, every hand dealt from its own chain.
    copied_deal = models.JSONField(null=True, blank=True)
    # The one pending deadline, for the seat to move at `deadline_version`. Not indexed
    # (migration 0006): it changes on nearly every move, and an index on it (or one
    # naming it anywhere) kept PostgreSQL from writing a move's update as a heap-only
    # tuple (HOT), so every move wrote a new entry into each of this table's indexes.
    deadline_at = models.DateTimeField(null=True, blank=True)
    deadline_kind = models.CharField(max_length=8, choices=DEADLINE_CHOICES, blank=True)
    deadline_version = models.PositiveIntegerField(null=True, blank=True)
    # Moves forward on every write of this row or of one of its seats, by the database's
    # own triggers (migration 0004), whoever writes: game.tables.fastmoves plays a move from the
    # row and seats it holds in memory only if the revision is still the one it saw.
    # (On SQLite, a migration that rebuilds game_table or game_seat drops their
    # triggers: tests/tables/test_revision.py checks they are there.)
    revision = models.PositiveBigIntegerField(default=0)
    # Whether a deadline is pending: computed by the database from `deadline_at`, and
    # the same from move to move while a table is played, so the clocks' index below
    # does not cost a move its heap-only update. The clocks look for due deadlines
    # only among these rows: a table everyone closed the page on stays `playing`
    # with no deadline, and there may be many such.
    deadline_pending = models.GeneratedField(
        expression=models.Q(deadline_at__isnull=False),
        output_field=models.BooleanField(),
        db_persist=True,
    )

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            models.Index(fields=["status", "private"], name="table_lobby"),
            models.Index(
                fields=["status"], condition=models.Q(deadline_pending=True), name="table_clock"
            ),
        )

    def __str__(self) -> str:
        return f"table {self.pk} ({self.game} {self.variant}, {self.status})"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="table_seats",
    )
    guest_key = models.CharField(max_length=64, blank=True)  # a guest's session key
    bot = models.BooleanField(default=False)
    # A player who left a rated match mid-way: the bot finishes it, they are recorded as
    # having abandoned it (accounts.services.record_result).
    abandoned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="abandoned_seats",
    )
    # Who left the seat during play (leave_seat), while a bot plays it on: their way back to
    # the game ("Your games", its replays, "Take my seat back") and the name the table and
    # its replays show for the seat. An account, or a guest by their session's key. Null
    # rather than "" for a seat nobody left, so that adding the column is an ALTER TABLE
    # on SQLite too (a rebuilt game_seat would lose migration 0004's triggers).
    left_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="left_seats",
    )
    left_guest_key = models.CharField(max_length=64, null=True, blank=True)
    client_seed = models.CharField(max_length=64, blank=True)
    first_game = models.BooleanField(default=False)  # CP-SS-4: 10 s calling timer
    # Open sockets for this seat over every server process; 0 with `disconnected_at` set
    # starts the grace period, after which `away` lets the bot play the seat.
    connections = models.PositiveIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    away = models.BooleanField(default=False)

    class Meta:
        ordering = ("table_id", "number")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),
        )
        # A guest's games (game.tables.mine) and their hand-over to a new account
        # (game.tables.signin) look seats up by the session's key; only guests' seats are
        # in it, and a move never changes the column.
        indexes = (
            models.Index(
                fields=["guest_key"], condition=~models.Q(guest_key=""), name="seat_guest"
            ),
            models.Index(
                fields=["left_guest_key"], condition=models.Q(left_guest_key__isnull=False),
                name="seat_left_guest",
            ),
        )

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}"

    @property
    def empty(self) -> bool:
        return not (self.bot or self.user_id or self.guest_key)


class Action(models.Model):
    PLAYER, BOT, CLOCK = "player", "bot", "clock"
    SOURCE_CHOICES = ((PLAYER, "player"), (BOT, "bot"), (CLOCK, "clock"))

    # No index of its own: the unique (table, number) below serves every lookup by table,
    # and one index fewer is less written on every move.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="actions", db_index=False
    )
    number = models.PositiveIntegerField()  # 1-based: the table's version once applied
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=64)
    source = models.CharField(max_length=8, choices=SOURCE_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("table_id", "number")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="one_action_per_number"),
        )

    def __str__(self) -> str:
        return f"{self.table_id}#{self.number} seat {self.seat} {self.action}"


class HandAnalysis(models.Model):
    """A finished hand's (or backgammon game's) analysis, computed once off the event loop
    and kept: ``GET /api/tables/<id>/analysis?hand=N`` reads it the second time
    (game.tables.analysis). ``data`` holds no words: the reasons are put in the asker's
    language when it is sent."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="analyses", db_index=False
    )
    hand = models.PositiveIntegerField()  # counted from 1, as the protocol's ?hand=N
    # "": the hand's analysis, the same for everyone; "knowable:<seat>": the knowable
    # verdicts on that seat's own cards (asked for with ?knowable=1 by that seat)
    part = models.CharField(max_length=16, default="", blank=True)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["table", "hand", "part"], name="one_analysis_per_hand_part"
            ),
        )

    def __str__(self) -> str:
        return f"analysis of {self.table_id} hand {self.hand} {self.part}".rstrip()


class Connection(models.Model):
    """One open socket of a seated player, held by one server process.

    A seat's ``connections`` is the count of these. A process killed without a clean
    shutdown cannot delete its rows; it stops renewing its ``ServerProcess`` heartbeat,
    and any live process's clock then removes them (``game.tables.presence.reap_dead_processes``),
    so the seat's grace period starts as if the socket had closed."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="open_sockets")
    seat = models.PositiveSmallIntegerField()
    process = models.CharField(max_length=80, db_index=True)
    channel = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id} via {self.process}"


class OpenSocket(models.Model):
    """One open table socket, seated or watching, held by one server process: what the
    caps on sockets count, across every process (``game.tables.limits``). Removed when
    the socket ends; a killed process's rows go when its heartbeat stops, as its
    ``Connection`` rows do (``game.tables.presence.reap_dead_processes``)."""

    channel = models.CharField(max_length=200, primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    client = models.CharField(max_length=80, db_index=True)
    process = models.CharField(max_length=80, db_index=True)

    def __str__(self) -> str:
        return f"{self.client} at table {self.table_id} via {self.process}"


class ServerProcess(models.Model):
    """A server process's heartbeat, renewed by its clock task every few seconds."""

    name = models.CharField(max_length=80, primary_key=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name
