"""What a table keeps of its games: a finished hand's record (with what is needed to
check its deal), and a finished match's result for every signed-in player at it
(accounts: their history and statistics, and for a rated match their ratings).

Every finished match counts for the accounts that played it, rated or not (against
bots, with guests, Play now); the player's page keeps the unrated ones apart.

Ratings: a match is rated when all its seats were taken by accounts at the start (no
guest, no bot), and it is not a deal played again. A player who leaves a rated match while
it is being played is replaced by a bot and, when the match ends, recorded as having
abandoned it (a loss, counted in ``GameStats.abandoned``). One who leaves an unrated match
finds it in their history all the same, as left (``Seat.left_user``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.services import record_game
from game.engine import fair
from game.models import Seat, Table
from game.tables import registry
from game.tables.errors import TableError
from game.tables.store import replay

log = logging.getLogger(__name__)

# What a deal played again keeps of the hand it copies: where it comes from and the
# seeds (revealed there) that dealt it first.
COPIED_PROVENANCE = (
    "table", "hand", "shift", "server_seed", "client_seeds", "counter", "commitment"
)


def record_match(table: Table, seats: list[Seat], final: Any) -> None:
    """The match is over (its row's fields already set by ``moves.advance``): keep its
    result for every signed-in player at it, and move the ratings if it is rated."""
    game = registry.spec(table.game)
    players: dict[int, Any] = {}
    for s in seats:
        # A player who left during play (a bot finished for them) played it all the same:
        # recorded as having left it (``abandoned``), never as a winner.
        account = s.user or s.abandoned_by or s.left_user
        players[s.number] = account if account is not None else (
            "guest" if s.guest_key else "bot"
        )
    if table.rated and any(isinstance(p, str) for p in players.values()):
        log.warning("rated table %s lost a player account; not recorded", table.pk)
        return
    if all(isinstance(p, str) for p in players.values()):
        return  # no account played it
    sides = [[players[n] for n in team] for team in game.teams]
    abandoned = [
        s.abandoned_by or s.left_user for s in seats
        if s.user_id is None and (s.abandoned_by_id or s.left_user_id)
    ]
    try:
        with transaction.atomic():  # a savepoint: a refused result must not undo the move
            record_game(
                game.rating_game(table.variant), sides, game.winner(final),
                table=table.pk, hands=len(game.finished(final)),
                finished_at=table.finished_at or timezone.now(), rated=table.rated,
                private=table.private, abandoned=abandoned,
            )
    except ValueError:
        log.exception("the result of table %s could not be recorded", table.pk)


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
    game = registry.spec(table.game)
    finished = game.finished(replay.load(table))
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
        out["copied_from"] = {k: table.copied_deal[k] for k in COPIED_PROVENANCE}
    return out


def seed_is_committed(seed: str, commitment: str, counter: int) -> bool:
    """Whether ``seed``, revealed as the table's seed number ``counter`` (from 0), hangs
    from the commitment published before the first deal (the replay pages' check)."""
    return fair.verify_chain(commitment, fair.chain(seed, counter + 1))
