"""The replay cache (game.tables.store.replay) keeps the state of every live table, but
only the latest few finished matches: a finished Court Piece match holds every hand it
played (130-180 KiB), and a process that saw tables come and go kept them among the live
ones up to the cache's 5,000 entries, about 750 MiB (issue 26)."""

from __future__ import annotations

import random
from typing import Any

from game.engine import courtpiece as cp
from game.models import Table
from game.tables.store import replay


def _played(seed: str, to_the_end: bool) -> Any:
    """A Rung match played at random, to its end or for a few moves."""
    rng = random.Random(seed)
    state = cp.Match(cp.Rules("rung"), seed=seed, client_seeds=["a", "b", "c", "d"], chain=64)
    moves = 0
    while not state.is_over and (to_the_end or moves < 10):
        legal = [a for a in state.legal_actions() if a != "timeout"]
        state = state.apply(rng.choice(legal), state.to_move)
        moves += 1
    return state


def _row(pk: int) -> Table:
    return Table(pk=pk, commitment=f"c{pk}", version=0)


def test_finished_matches_are_kept_within_their_own_bound() -> None:
    replay.clear_cache()
    try:
        finished, live = _played("over", True), _played("live", False)
        assert finished.is_over and not live.is_over
        extra = 50
        for pk in range(1, replay.MAX_FINISHED + extra + 1):
            replay.remember(_row(pk), 1, finished)
        replay.remember(_row(10_000), 1, live)
        assert replay.held() == (1, replay.MAX_FINISHED)
        # The latest finished ones and the live one are still answered from memory.
        newest = _row(replay.MAX_FINISHED + extra)
        newest.version = 1
        assert replay.cached(newest) is finished
        oldest = _row(1)
        oldest.version = 1
        assert replay.cached(oldest) is None  # gone: a replay of its log if asked
        table = _row(10_000)
        table.version = 1
        assert replay.cached(table) is live
    finally:
        replay.clear_cache()


def test_a_table_whose_match_ends_leaves_the_live_states() -> None:
    replay.clear_cache()
    try:
        row = _row(7)
        replay.remember(row, 1, _played("live", False))
        assert replay.held() == (1, 0)
        replay.remember(row, 2, _played("over", True))  # its last move
        assert replay.held() == (0, 1)
        row.version = 2
        assert replay.cached(row) is not None
        replay.forget(7)
        assert replay.held() == (0, 0)
    finally:
        replay.clear_cache()
