"""The names the tables show for players, cached per process.

A move's frames show every seated player's name and the host's; reading them with the
rows on every move (a join with the users and their profiles) cost a large share of the
database's time, so each process keeps the names it has read for ``NAME_SECONDS``. A
saved profile clears its entry in the process that saved it (``game.apps``); elsewhere a
new name shows within ``NAME_SECONDS``. The clock reads the names in use again before
they expire (:func:`refresh_names`), so a move on the event loop never finds one expired.
"""

from __future__ import annotations

import threading
import time

from django.contrib.auth import get_user_model

from accounts.models import Profile
from game.models import Seat, Table

NAME_SECONDS = 30.0  # how long a process trusts a player's name it has read
REFRESH_BATCH = 500  # ids per query of refresh_names
MAX_KEPT = 20000  # a bound, so a long-running process never grows without limit


def read_people(user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """(name shown, username) by id, from the database: ``Profile.name``'s rule on plain
    rows. No model objects: the clock refreshes a few hundred names at once in the
    database thread, and building users and profiles took several times the Python, all
    of it time the event loop could wait for Python's lock (the GIL)."""
    users = get_user_model()
    found = users.objects.filter(pk__in=user_ids).values_list(
        "pk", users.USERNAME_FIELD, "profile__display_name"
    )
    fresh = {}
    for pk, username, display_name in found:
        username = str(username)
        fresh[pk] = (Profile.shown_name(display_name, username), username)
    return fresh


class NameCache:
    """Names read, by user id, and when a frame last showed each (one per process:
    :data:`CACHE`; its fields are open for tests and diagnostics, under ``lock``)."""

    def __init__(self) -> None:
        # user id -> (read at, name shown, username), monotonic time: one read gives both
        self.entries: dict[int, tuple[float, str, str]] = {}
        self.shown_at: dict[int, float] = {}  # user id -> when a frame last showed it
        self.lock = threading.Lock()

    def people(self, user_ids: set[int]) -> dict[int, tuple[str, str]]:
        """(name shown, username) of these accounts, fresh enough for display."""
        now = time.monotonic()
        known = self.fresh(user_ids, now)
        missing = user_ids - known.keys()
        if missing:
            found = read_people(missing)
            self.store(found, now)
            known.update(found)
        return known

    def store(self, found: dict[int, tuple[str, str]], read_at: float) -> None:
        with self.lock:
            if len(self.entries) > MAX_KEPT:
                self.entries.clear()
                self.shown_at.clear()
            self.entries.update({uid: (read_at, *both) for uid, both in found.items()})

    def fresh(self, user_ids: set[int], now: float) -> dict[int, tuple[str, str]]:
        """The entries still fresh at monotonic time ``now`` (marked as shown then)."""
        with self.lock:
            found = {
                uid: (entry[1], entry[2]) for uid in user_ids
                if (entry := self.entries.get(uid)) is not None and now - entry[0] < NAME_SECONDS
            }
            for uid in found:
                self.shown_at[uid] = now
        return found

    def refresh(self, now: float | None = None) -> int:
        """Read again, a few hundred to a query, the names past half their time that a
        frame showed lately, and forget the ones nobody has shown for NAME_SECONDS.
        Returns how many names were read."""
        now = time.monotonic() if now is None else now
        with self.lock:
            unused = [uid for uid, entry in self.entries.items()
                      if now - entry[0] >= NAME_SECONDS
                      and now - self.shown_at.get(uid, entry[0]) >= NAME_SECONDS]
            for uid in unused:
                del self.entries[uid]
                self.shown_at.pop(uid, None)
            due = sorted(uid for uid, entry in self.entries.items()
                         if now - entry[0] >= NAME_SECONDS / 2
                         and now - self.shown_at.get(uid, entry[0]) < NAME_SECONDS)
        for start in range(0, len(due), REFRESH_BATCH):
            batch = set(due[start:start + REFRESH_BATCH])
            found = read_people(batch)
            self.store(found, now)
            with self.lock:  # accounts deleted since: nothing to show any more
                for uid in batch - found.keys():
                    self.entries.pop(uid, None)
                    self.shown_at.pop(uid, None)
        return len(due)

    def forget(self, user_id: int) -> None:
        with self.lock:
            self.entries.pop(user_id, None)
            self.shown_at.pop(user_id, None)

    def clear(self) -> None:
        """Forget every name (a fresh process starts like this)."""
        with self.lock:
            self.entries.clear()
            self.shown_at.clear()


CACHE = NameCache()


def people(user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """(name shown, username) of these accounts, fresh enough for display (a new display
    name shows within NAME_SECONDS everywhere, at once in the process that saved it:
    accounts' profile saves call forget_name)."""
    return CACHE.people(user_ids)


def refresh_names(now: float | None = None) -> int:
    """:meth:`NameCache.refresh` of this process's cache. The clock calls this every few
    seconds, so the names of a table in play never expire: a move on the loop whose name
    had expired would go to the database thread for it, and such moves were most of the
    slowest ones under load (docs/PERFORMANCE.md)."""
    return CACHE.refresh(now)


def forget_name(user_id: int) -> None:
    CACHE.forget(user_id)


def names_of(user_ids: set[int]) -> dict[int, str]:
    """The names the table shows for these accounts (see :func:`people`)."""
    return {uid: both[0] for uid, both in people(user_ids).items()}


def names_cached(table: Table, seats: list[Seat]) -> bool:
    """Whether every name a frame of this table shows is in the cache and fresh (then
    :func:`game.tables.notices.notice` reads nothing)."""
    wanted = {uid for s in seats for uid in (s.user_id, s.left_user_id) if uid is not None}
    if table.host_id is not None and not Table.host.is_cached(table):
        wanted.add(table.host_id)
    # A second's margin: the caller builds its frames right after asking.
    return len(CACHE.fresh(wanted, time.monotonic() + 1.0)) == len(wanted)


def host_name(table: Table) -> str | None:
    """The host's username, in every frame: from the row the caller joined, else from
    the names' cache (a move reads the table row alone)."""
    if table.host_id is None:
        return None
    if Table.host.is_cached(table):
        return str(table.host.get_username()) if table.host else None
    both = people({table.host_id}).get(table.host_id)
    return both[1] if both else None
