"""A table's game state is a replay of its action log; this module does the replaying.

The in-process cache holds the latest state per table with the version it is at. It is
only ever a shortcut: every caller passes the table row it read from the database, and
the cache answers only for exactly that table (its commitment, so a reused primary key in
a fresh database cannot match) at exactly that version. Behind, it replays the missing
actions from the database; ahead or different, it replays from the start.
"""

from __future__ import annotations

import threading
from typing import Any

from game.models import Action, Table
from game.tables.registry import spec

_lock = threading.Lock()
_cache: dict[int, tuple[str, int, Any]] = {}  # table id -> (commitment, version, state)
_MAX_CACHED = 5000  # a bound, so a long-running process never grows without limit
# Finished matches' states apart, and far fewer: a finished Court Piece match holds every
# hand it played, 130-180 KiB, and nothing plays on from it (its summary and records read
# it a few times, then a replay of its log if asked again). Kept among the live ones, a
# process that saw tables come and go for a day would hold 5,000 of them, about 750 MiB
# (issue 26).
_finished: dict[int, tuple[str, int, Any]] = {}
MAX_FINISHED = 100


def initial(table: Table) -> Any:
    """The state before any action: the table's game built from its stored fields (with
    a deal played again, its first hand is the stored ``copied_deal``)."""
    game = spec(table.game)
    args = (
        table.variant, dict(table.options), table.target, table.seed_top,
        list(table.client_seeds), table.chain_length,
    )
    copied = table.copied_deal
    if copied:
        if game.build_with_deal is None:
            raise ValueError(f"{table.game} cannot play a deal again")
        return game.build_with_deal(*args, int(copied["dealer"]), copied["deal"])
    return game.build(*args)


def replay(state: Any, actions: list[tuple[int, str]]) -> Any:
    for seat, action in actions:
        state = state.apply(action, seat)
    return state


def _actions(table: Table, after: int, upto: int) -> list[tuple[int, str]]:
    rows = Action.objects.filter(table=table, number__gt=after, number__lte=upto).order_by(
        "number"
    )
    pairs = list(rows.values_list("number", "seat", "action"))
    if [n for n, _s, _a in pairs] != list(range(after + 1, upto + 1)):
        raise RuntimeError(f"the action log of table {table.pk} has a gap before {upto}")
    return [(s, a) for _n, s, a in pairs]


def load(table: Table) -> Any:
    """The state of a started ``table`` at ``table.version`` (the row as read from the DB)."""
    if not table.client_seeds:
        raise ValueError("the table has not started: its client seeds are not fixed yet")
    with _lock:
        entry = _cache.get(table.pk) or _finished.get(table.pk)
    if entry is not None and entry[0] == table.commitment and entry[1] <= table.version:
        _c, version, state = entry
        if version == table.version:
            return state
        state = replay(state, _actions(table, version, table.version))
    else:
        state = replay(initial(table), _actions(table, 0, table.version))
    remember(table, table.version, state)
    return state


def cached(table: Table) -> Any | None:
    """The state of ``table`` at ``table.version`` if the cache holds exactly it, else
    None (reads nothing: ``game.tables.fastmoves`` asks this on the event loop)."""
    with _lock:
        entry = _cache.get(table.pk) or _finished.get(table.pk)
    if entry is None or entry[:2] != (table.commitment, table.version):
        return None
    return entry[2]


def at_version(table: Table, version: int) -> Any:
    """The state after the first ``version`` actions (for records and tests); not cached."""
    return replay(initial(table), _actions(table, 0, version))


def _put(cache: dict[int, Any], key: int, value: Any, bound: int = _MAX_CACHED) -> None:
    """``cache[key] = value`` within ``bound`` entries (the oldest goes; lock held)."""
    if len(cache) >= bound and key not in cache:
        cache.pop(next(iter(cache)))
    cache[key] = value


def remember(table: Table, version: int, state: Any) -> None:
    entry = (table.commitment, version, state)
    with _lock:
        if getattr(state, "is_over", False):  # the match is over: among the finished
            _cache.pop(table.pk, None)
            _put(_finished, table.pk, entry, MAX_FINISHED)
        else:
            _finished.pop(table.pk, None)
            _put(_cache, table.pk, entry)


def held() -> tuple[int, int]:
    """How many states the cache holds: of live matches, of finished ones."""
    with _lock:
        return len(_cache), len(_finished)


def forget(table_id: int) -> None:
    with _lock:
        _cache.pop(table_id, None)
        _finished.pop(table_id, None)
        _rows.pop(table_id, None)


def clear_cache() -> None:
    """Empty the cache (a fresh process starts like this)."""
    with _lock:
        _cache.clear()
        _finished.clear()
        _rows.clear()


# A table's row and seats as this process last wrote them, the row's ``revision`` as
# that write left it (game.tables.fastmoves). Only ever a guess: a move played from it is
# written only if the database's revision is still this one (Table.revision), and a
# refusal from it is never sent without reading the rows again.
_rows: dict[int, tuple[Table, list[Any]]] = {}  # table id -> (table, seats)


def remember_rows(table: Table, seats: list[Any]) -> None:
    with _lock:
        _put(_rows, table.pk, (table, seats))


def known_rows(table_id: int) -> tuple[Table, list[Any]] | None:
    with _lock:
        return _rows.get(table_id)


def forget_rows(table_id: int) -> None:
    """Someone else wrote the table: the next move reads its rows (a wasted round
    trip saved; the revision would refuse the guess anyway)."""
    with _lock:
        _rows.pop(table_id, None)


def cached_counts() -> dict[str, int]:
    """How many states and rows this process holds (the memory probe of bench/soak.py)."""
    return {"states": len(_cache), "finished": len(_finished), "rows": len(_rows)}
