"""The change notice a write sends to a table's sockets carries the frames they send, so
the sockets need no database read: each frame must be exactly the seat's own state
frame, only held seats get one, and the notice never carries a guest's key."""

from __future__ import annotations

import json
from typing import Any

from game.models import Table
from game.tables import access, frames, lifecycle, notices
from game.tables.store import rows
from tests.tables.live import four_player_table


def test_the_notice_carries_each_held_seats_own_frame_and_the_spectators(
    users: list[Any],
) -> None:
    table = four_player_table(users)
    row = Table.objects.get(pk=table.pk)
    notice = notices.notice(row, rows.seats_of(row))
    assert notice["version"] == row.version
    assert set(notice["frames"]) == {"-", "0", "1", "2", "3"}
    for key, text in notice["frames"].items():
        seat = None if key == "-" else int(key)
        assert json.loads(text) == frames.state_payload(table.pk, seat)
        # Byte for byte what a socket building its own frame sends (repeats are
        # recognised by the text).
        assert text == frames.frame_json(frames.state_payload(table.pk, seat))
    assert [u for u, _d in notice["owners"]] == [u.pk for u in users]


def test_a_guests_seat_is_named_by_a_digest_and_bots_get_no_frame(db: Any) -> None:
    key = "guest-secret-key-123"
    table = lifecycle.play_now(owner=access.Owner(user=None, guest_key=key))
    row = Table.objects.get(pk=table.pk)
    notice = notices.notice(row, rows.seats_of(row))
    assert set(notice["frames"]) == {"-", "0"}  # three bots: nobody to send theirs to
    assert key not in json.dumps(notice)
    digest = frames.owner_digest(key)
    assert frames.seat_from_owners(notice["owners"], None, digest) == 0
    assert frames.seat_from_owners(notice["owners"], None, frames.owner_digest("x")) is None
    assert frames.seat_from_owners(notice["owners"], None, "") is None
