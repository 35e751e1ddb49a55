"""A finished hand's (or game's) analysis: ``GET /api/tables/<id>/analysis?hand=N``
(docs/TABLE_PROTOCOL.md, "Analysis"), for any game that brings ``GameSpec.analyse``.

Computed once per hand and kept in ``HandAnalysis``: as soon as the hand ends, in the
background (game.tables.ahead), or else by the first request, in a pool thread (the
solvers it calls release the GIL, so the event loop runs on); every later request, in any
server process, reads the row. Whoever computes first *claims* the hand: it inserts the
row with ``CLAIM`` as its data (the unique constraint lets one insert win, across
processes and databases), computes, then writes the analysis over the claim. Anyone else
finds the claim and waits for the row (a request waits ``WAIT_SECONDS``, then answers
503 ``unavailable``, "try again"). A claim older than ``STALE_SECONDS`` is of a process
that died: the next one takes it over (a guarded update of its time). A failed
computation deletes its claim. The stored data has no words: the game's
``analysis_words`` puts them in the asker's language when it is sent.

``?knowable=1`` asks, for the asker's own seat, the game's ``knowable`` verdicts (what
that seat could know when it played each card): slower, so a part of its own, stored per
seat, and never in the answer everyone gets.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.models import HandAnalysis, Table
from game.tables import access, inbound, registry
from game.tables.errors import TableError
from game.tables.store import replay

# Threads, not processes: DDS keeps one search memory per process and the games' own
# solvers serialise on their own lock; two threads let a stored answer's neighbours in a
# burst wait behind one solve at most.
_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="analysis")

# The data of a row whose analysis is being computed (never an answer: it has no "kind").
CLAIM: dict[str, Any] = {"computing": True}
# A claim this old is of a process that died while computing: the next one takes it over.
# Far above the slowest analysis measured (a long backgammon game at 2-ply, 22 s p95).
STALE_SECONDS = 300.0
# How long a request that finds the hand claimed waits for the row before it answers 503.
WAIT_SECONDS = 3.0
POLL_SECONDS = 0.1


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
    return stored_or_pending(table, hand, seat, part)


def stored_or_pending(
    table: Table, hand: int, seat: int | None = None, part: str = ""
) -> dict[str, Any] | Pending:
    """The stored analysis of ``table``'s hand ``hand`` (or its ``part``), or what
    computing it needs (it may be claimed by someone computing it now). Not found: a
    hand not over. Checks no access: the caller has."""
    row = HandAnalysis.objects.filter(table_id=table.pk, hand=hand, part=part).first()
    if row is not None and not is_claim(row.data):
        return dict(row.data)
    if table.status == Table.WAITING:
        raise TableError("not_found", "the table has not started")
    finished = registry.spec(table.game).finished(replay.load(table))
    if hand > len(finished):
        raise TableError("not_found", f"hand {hand} is not over")
    return Pending(table.pk, hand, table.game, table.variant, list(finished), seat, part)


def is_claim(data: Any) -> bool:
    return isinstance(data, dict) and "kind" not in data and bool(data.get("computing"))


def _rows(pending: Pending) -> Any:
    return HandAnalysis.objects.filter(
        table_id=pending.table_id, hand=pending.hand, part=pending.part
    )


def claim(pending: Pending) -> bool:
    """Whether this caller may compute ``pending`` now: it inserted the claim row, or
    took over a stale one. False: someone else computes it, or it is already stored."""
    try:
        with transaction.atomic():
            HandAnalysis.objects.create(
                table_id=pending.table_id, hand=pending.hand, part=pending.part, data=CLAIM
            )
        return True
    except IntegrityError:
        pass
    row = _rows(pending).first()
    if row is None:  # the claim was released between the insert and this read
        return claim(pending)
    if not is_claim(row.data):
        return False
    now = timezone.now()
    if row.created_at > now - timedelta(seconds=STALE_SECONDS):
        return False
    # Taken over only if nobody else took it meanwhile (the same claim time).
    return bool(
        _rows(pending).filter(pk=row.pk, created_at=row.created_at).update(created_at=now)
    )


def release(pending: Pending) -> None:
    """Give up a claim (the computation failed): the next request may compute it."""
    _rows(pending).filter(data__computing=True).delete()


def stored(pending: Pending) -> dict[str, Any] | None:
    """The analysis if it is stored now (None: still claimed, or no row)."""
    row = _rows(pending).first()
    if row is None or is_claim(row.data):
        return None
    return dict(row.data)


def wait_stored(pending: Pending, seconds: float = WAIT_SECONDS) -> dict[str, Any] | None:
    """The analysis once whoever claimed it has stored it, looked for at most ``seconds``:
    :func:`await_stored`, for a thread of its own (a benchmark's, a test's). One way to
    wait, on an event loop: never a blocking sleep in a server process."""
    return async_to_sync(await_stored)(pending, seconds)


async def await_stored(pending: Pending, seconds: float = WAIT_SECONDS) -> dict[str, Any] | None:
    """The analysis once whoever claimed it has stored it, read every ``POLL_SECONDS``
    for at most ``seconds`` (None if it was not stored by then)."""
    end = time.monotonic() + seconds
    while True:
        found = await sync_to_async(stored)(pending)
        if found is not None or time.monotonic() >= end:
            return found
        await asyncio.sleep(POLL_SECONDS)


class Computing(TableError):
    """Someone else is computing the analysis and it was not stored within the wait."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the analysis is being computed; try again shortly")
        self.http_status = 503


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
    """Write the analysis over this caller's claim (or as a new row if the claim is gone)."""
    if _rows(pending).update(data=data):
        return
    try:
        with transaction.atomic():
            HandAnalysis.objects.create(
                table_id=pending.table_id, hand=pending.hand, part=pending.part, data=data
            )
    except IntegrityError:
        pass  # another one stored the same analysis first


def compute_claimed(pending: Pending) -> dict[str, Any]:
    """Claim, compute and store ``pending``; or, if someone else holds the claim, wait
    for their row (raises ``Computing`` if it does not come within ``WAIT_SECONDS``)."""
    if not claim(pending):
        found = wait_stored(pending)
        if found is None:
            raise Computing()
        return found
    try:
        data = compute(pending)
    except BaseException:
        release(pending)
        raise
    store(pending, data)
    return data


async def obtained(pending: Pending) -> dict[str, Any]:
    """Claim and compute ``pending`` in the pool, or await whoever holds the claim
    (``await_stored``: no thread sleeps meanwhile); raises ``Computing`` when their row
    does not come within ``WAIT_SECONDS``. For async views (the API, the mistakes)."""
    if not await sync_to_async(claim)(pending):
        data = await await_stored(pending)
        if data is None:
            raise Computing()
        return data
    try:
        data = await asyncio.wrap_future(in_pool(pending))
    except BaseException:
        await sync_to_async(release)(pending)
        raise
    await sync_to_async(store)(pending, data)
    return data


def stored_now(
    table_id: int, hand: int, owner: access.Owner, invite: str, knowable: bool = False
) -> dict[str, Any]:
    """The stored analysis, never computed nor waited for: ``Computing`` when it is not
    stored (yet). For sync code that an async view ran after ``obtained``."""
    found = look_up(table_id, hand, owner, invite, knowable)
    if isinstance(found, Pending):
        raise Computing()
    return found


def analysis(
    table_id: int, hand: int, owner: access.Owner, invite: str, knowable: bool = False
) -> dict[str, Any]:
    """The analysis, computed and stored if it was not yet, without words (blocking: for
    a thread, a benchmark or a test; the API's view computes it in the pool)."""
    found = look_up(table_id, hand, owner, invite, knowable)
    if isinstance(found, Pending):
        return compute_claimed(found)
    return found


def in_pool(pending: Pending) -> concurrent.futures.Future[dict[str, Any]]:
    """``compute`` in the analysis pool."""
    return _pool.submit(compute, pending)


def words(data: dict[str, Any]) -> dict[str, Any]:
    """The protocol's answer for stored ``data``, in the active language."""
    return registry.spec(data["game"]).analysis_words(data)
