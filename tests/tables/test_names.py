"""The names a table shows are read again before they expire (names.refresh_names,
called by each process's clock), so a move on the loop never finds one expired and goes
to the database thread for it; names nobody shows any more are forgotten."""

from __future__ import annotations

import time
from typing import Any

import pytest

from accounts.models import Profile
from game.models import Table
from game.tables import names, notices
from game.tables.store import rows
from tests.tables.live import four_player_table


@pytest.fixture(autouse=True)
def _no_names_from_other_tests() -> None:
    names.CACHE.clear()  # the cache is the process's: start from empty


def _age(uid: int, seconds: float) -> None:
    with names.CACHE.lock:
        read_at, *both = names.CACHE.entries[uid]
        names.CACHE.entries[uid] = (read_at - seconds, *both)


def test_names_in_use_are_read_again_before_they_expire(users: list[Any]) -> None:
    table = four_player_table(users)
    row = Table.objects.get(pk=table.pk)
    seats = rows.seats_of(row)
    notices.notice(row, seats)  # a frame built: every name cached and shown
    assert names.names_cached(row, seats)
    first, second = users[0].pk, users[1].pk
    _age(first, names.NAME_SECONDS / 2 + 1)  # past half its time: read again
    # A new display name saved by another process (no signal reaches this one).
    Profile.objects.filter(user_id=first).update(display_name="Naya Naam")
    before = names.CACHE.entries[second]
    assert names.refresh_names() == 1
    assert names.CACHE.entries[first][1] == "Naya Naam"
    assert time.monotonic() - names.CACHE.entries[first][0] < 1
    assert names.CACHE.entries[second] == before  # still fresh: not read
    assert names.names_cached(row, seats)
    assert names.refresh_names() == 0  # nothing due now


def test_names_nobody_shows_are_forgotten_and_deleted_accounts_dropped(
    users: list[Any],
) -> None:
    table = four_player_table(users)
    row = Table.objects.get(pk=table.pk)
    notices.notice(row, rows.seats_of(row))
    shown, unshown, deleted = users[0].pk, users[1].pk, users[2].pk
    later = time.monotonic() + names.NAME_SECONDS + 1
    for uid in (shown, unshown, deleted):
        _age(uid, 0)
    with names.CACHE.lock:  # only the first was shown lately
        names.CACHE.shown_at[shown] = later - 1
        names.CACHE.shown_at[deleted] = later - 1
    users[2].delete()
    names.refresh_names(now=later)
    assert unshown not in names.CACHE.entries  # unused for NAME_SECONDS: forgotten
    assert deleted not in names.CACHE.entries  # gone from the database: gone here
    assert shown in names.CACHE.entries and names.CACHE.entries[shown][0] == later


def test_a_name_read_is_the_profiles_name_or_else_the_username(users: list[Any]) -> None:
    """read_people reads plain rows (no model objects) and applies Profile.name's rule."""
    named, blank, bare = users[0], users[1], users[2]
    Profile.objects.update_or_create(user=named, defaults={"display_name": "  Amna Bibi "})
    Profile.objects.update_or_create(user=blank, defaults={"display_name": "   "})
    Profile.objects.filter(user=bare).delete()  # an account with no profile at all
    got = names.read_people({named.pk, blank.pk, bare.pk})
    assert got == {
        named.pk: (Profile.objects.get(user=named).name, named.get_username()),
        blank.pk: (blank.get_username(), blank.get_username()),
        bare.pk: (bare.get_username(), bare.get_username()),
    }
    assert got[named.pk][0] == "Amna Bibi"
