"""A waiting table's seats as its host sees them: a friend who sits down shows at once (the
socket's frame rings the seats' doorbell, and the page fetches its list again), and an
empty seat looks empty, never "Away"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.tables import frames, html, lifecycle
from tests.tables.live import frames as received
from tests.tables.live import owner, run, session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)
BELL = re.compile(r'<div id="seats-bell" hx-swap-oob="true" data-seats="([0-9a-f]+)" hidden>')


def test_the_hosts_socket_rings_when_a_friend_sits_down(users: list[Any]) -> None:
    host, friend = users[0], users[1]
    table = lifecycle.create_table(owner=owner(host), game="courtpiece", private=True)
    before = html.seats_signature(frames.state_payload(table.pk, 0)["seats"])
    cookie = session_cookie(host)

    async def body() -> list[str]:
        comm = socket(table.pk, cookie, fmt="html")
        connected, _ = await comm.connect()
        assert connected
        first = await received(comm)
        assert BELL.search(first[-1]).group(1) == before
        await database_sync_to_async(lifecycle.take_seat)(
            table_id=table.pk, owner=owner(friend), seat=2, invite=table.invite
        )
        after = await received(comm)
        await comm.disconnect()
        return [str(f) for f in after]

    after = run(body)
    now = html.seats_signature(frames.state_payload(table.pk, 0)["seats"])
    assert now != before
    assert BELL.search(after[-1]).group(1) == now
    # What the page then fetches: the list with the friend in their seat, for the host.
    client = Client()
    client.force_login(host)
    part = client.get(f"/en/play/{table.pk}/seats/").content.decode()
    assert f'data-seats="{now}"' in part
    north = part.split('data-seat="2"', 1)[1].split("</li>", 1)[0]
    assert "player1" in north and "<form" not in north


def test_no_bell_once_the_table_plays(users: list[Any]) -> None:
    table = lifecycle.play_now(owner=owner(users[0]))
    payload = frames.state_payload(table.pk, 0)
    assert "seats-bell" not in html.table_frame_html(payload, "en")


def test_an_empty_seat_is_not_away_but_a_player_without_the_page_open_is(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", private=True)
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[1]), seat=1, invite=table.invite)
    drawn = html.table_live_html(frames.state_payload(table.pk, 0), "en")
    seats = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r'<section data-seat="(\d)" class="seat [^"]*"(.*?)</section>',
                             drawn, re.S)
    }
    # Nobody at seats 2 and 3: empty, no badge. Player1 has no page open: away. The
    # viewer's own seat is drawn by their own page, before its socket opens: here.
    assert "badge away" not in seats[2] and "badge away" not in seats[3]
    assert "badge away" in seats[1]
    assert "badge away" not in seats[0]
    assert 'seat-empty' in re.search(r'<section data-seat="2" class="([^"]*)"', drawn).group(1)


def test_the_seats_list_of_a_private_table_needs_its_invite(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", private=True)
    assert Client().get(f"/en/play/{table.pk}/seats/").status_code == 404
    part = Client().get(f"/en/play/{table.pk}/seats/?invite={table.invite}")
    assert part.status_code == 200
    assert f'value="{table.invite}"' in part.content.decode()
