"""A finished hand's deal played again at a new table (the replay page's "play this deal
again"), for any game whose registration says how (``GameSpec.build_with_deal`` and
``GameSpec.deal_of``).

Nothing is shown or stored that was not public to the requester already: the source hand
must be over (its seed revealed) and the requester must be allowed to see the table. The
new table's first hand records where its cards come from, with the seeds that dealt them
first, so its fairness can still be checked.
"""

from __future__ import annotations

from typing import Any

from game.engine import fair
from game.models import Table
from game.tables import access, lifecycle, registry
from game.tables.errors import TableError
from game.tables.records import COPIED_PROVENANCE
from game.tables.store import replay


def deal_to_copy(
    *, table_id: Any, hand: Any, owner: access.Owner, invite: str | None = None
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
    if source is None or not access.may_see(source, owner, invite):
        raise TableError("not_found", f"no table {table_id}")  # a private table: not admitted
    gspec = registry.find(source.game)
    if gspec is None or gspec.build_with_deal is None or gspec.deal_of is None:
        raise TableError("bad_request", f"a {source.game} deal cannot be played again")
    finished = gspec.finished(replay.load(source)) if source.client_seeds else ()
    if hand > len(finished):
        raise TableError("not_over", f"hand {hand} is not over: its seed is still secret")
    counter = hand - 1
    if counter == 0 and source.copied_deal:
        # Itself a copy: point at the hand first dealt with these cards, whose seeds
        # recompute them (a copy's own first seed dealt nothing).
        origin = {k: source.copied_deal[k] for k in COPIED_PROVENANCE}
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
    shift = access.seat_of(source, owner) or 0
    copied = {
        **origin,
        "shift": (origin["shift"] + shift) % seats,
        "dealer": (dealer - shift) % seats,
        "deal": [list(deal[(s + shift) % seats]) for s in range(seats)],
    }
    return source, copied


def play_deal_again(
    *,
    owner: access.Owner,
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
    gspec = registry.spec(source.game)
    return lifecycle.create_table(
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
