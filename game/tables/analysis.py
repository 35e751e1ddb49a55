"""A finished hand's (or game's) analysis: ``GET /api/tables/<id>/analysis?hand=N``
(docs/TABLE_PROTOCOL.md, "Analysis"), for any game that brings ``GameSpec.analyse``.

Computed once per hand and kept in ``HandAnalysis``: the first request computes it in a
pool thread (the solvers it calls release the GIL, so the event loop runs on), every later
one, in any server process, reads the row. Two first requests at once may both compute;
the second's row is simply not written (the unique constraint), and both answer the same.
The stored data has no words: the game's ``analysis_words`` puts them in the asker's
language when it is sent.

``?knowable=1`` asks, for the asker's own seat, the game's ``knowable`` verdicts (what
that seat could know when it played each card): slower, so a part of its own, stored per
seat, and never in the answer everyone gets.
"""

from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from game.models import HandAnalysis, Table
from game.tables import access, inbound, registry
from game.tables.errors import TableError
from game.tables.store import replay

# Threads, not processes: DDS keeps one search memory per process and the games' own
# solvers serialise on their own lock; two threads let a stored answer's neighbours in a
# burst wait behind one solve at most.
_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="analysis")


@dataclass(frozen=True)
class Pending:
    """A finished hand whose analysis is not stored yet: what computing it needs."""

    table_id: int
    hand: int
    game: str
    variant: str
    finished: Any  # the game's finished hands, oldest first
    seat: int | None = None  # the knowable part: the asker's seat
    part: str = ""


def parse_hand(raw: str) -> int:
    hand = inbound.digits(raw)  # ASCII digits only: "²" passes str.isdigit() and int() raises
    if hand is None or hand < 1:
        raise TableError("bad_request", "hand must be a whole number from 1")
    return hand


def look_up(
    table_id: int, hand: int, owner: access.Owner, invite: str, knowable: bool = False
) -> dict[str, Any] | Pending:
    """The stored analysis of hand ``hand`` (a dict), or what computing it needs. Not
    found: no such table, a private one ``owner`` may not see, a hand not over.
    ``knowable``: the knowable part for ``owner``'s seat instead."""
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    if not access.may_see(table, owner, invite):
        raise TableError("not_found", f"no table {table_id}")
    seat = access.seat_of(table, owner) if knowable else None
    part = f"knowable:{seat}" if knowable else ""
    head = {"hand": hand, "game": table.game, "variant": table.variant}
    if knowable and seat is None:  # a spectator holds no cards of their own
        return {**head, "kind": "knowable", "seat": None, "cards": []}
    row = HandAnalysis.objects.filter(table_id=table_id, hand=hand, part=part).first()
    if row is not None:
        return dict(row.data)
    if table.status == Table.WAITING:
        raise TableError("not_found", "the table has not started")
    finished = registry.spec(table.game).finished(replay.load(table))
    if hand > len(finished):
        raise TableError("not_found", f"hand {hand} is not over")
    return Pending(table.pk, hand, table.game, table.variant, list(finished), seat, part)


def compute(pending: Pending) -> dict[str, Any]:
    """The hand's analysis (or its knowable part) without words (slow: a pool thread's
    work)."""
    game = registry.spec(pending.game)
    head = {"hand": pending.hand, "game": pending.game, "variant": pending.variant}
    if pending.part:
        assert pending.seat is not None
        cards = (
            game.knowable(pending.finished, pending.hand - 1, pending.seat)
            if game.knowable is not None
            else []
        )
        return {**head, "kind": "knowable", "seat": pending.seat, "cards": cards}
    if game.analyse is None:
        return {**head, "kind": "unsupported", "why": "no_analysis"}
    return {**head, **game.analyse(pending.finished, pending.hand - 1)}


def store(pending: Pending, data: dict[str, Any]) -> None:
    try:
        with transaction.atomic():
            HandAnalysis.objects.create(
                table_id=pending.table_id, hand=pending.hand, part=pending.part, data=data
            )
    except IntegrityError:
        pass  # another request stored the same analysis first


def analysis(
    table_id: int, hand: int, owner: access.Owner, invite: str, knowable: bool = False
) -> dict[str, Any]:
    """The analysis, computed and stored if it was not yet, without words (blocking: for
    a thread, a benchmark or a test; the API's view computes it in the pool)."""
    found = look_up(table_id, hand, owner, invite, knowable)
    if isinstance(found, Pending):
        data = compute(found)
        store(found, data)
        return data
    return found


def in_pool(pending: Pending) -> concurrent.futures.Future[dict[str, Any]]:
    """``compute`` in the analysis pool."""
    return _pool.submit(compute, pending)


def words(data: dict[str, Any]) -> dict[str, Any]:
    """The protocol's answer for stored ``data``, in the active language."""
    return registry.spec(data["game"]).analysis_words(data)
