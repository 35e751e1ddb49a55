"""The table pages through Django's test client: Play now (guests too), the lobby, a new
table from the engine's options, seats, the table page and the replay of a finished hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from game.engine import courtpiece as cp
from game.models import Table
from game.tables import records
from game.tables.store import replay
from tests.courtpiece.play import ALLOWED, bots_without_pause, play_out_first_hand  # noqa: F401
from tests.language import english_left
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


def test_home_has_play_now_and_a_guest_gets_a_started_rung_table(client: Client) -> None:
    home = client.get("/en/")
    assert b'action="/en/play/now/"' in home.content
    response = client.post("/en/play/now/")
    assert response.status_code == 302
    table_id = int(re.search(r"/en/play/(\d+)/", response["Location"]).group(1))
    table = Table.objects.get(pk=table_id)
    assert table.variant == "rung" and table.status == Table.PLAYING
    assert [s.bot for s in table.seats.order_by("number")] == [False, True, True, True]
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert f'ws-connect="/ws/tables/{table_id}/?format=html&amp;lang=en"' in html
    assert 'id="table-live"' in html and 'id="table-announce"' in html
    assert "Sign up to keep your ratings" in html and "Guest game: not rated." in html
    assert "/static/vendor/htmx/htmx-2.0.11.min.js" in html


def test_play_now_is_post_only(client: Client) -> None:
    assert client.get("/en/play/now/").status_code == 405


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_table_lobby_and_new_table_pages_have_no_english(
    client: Client, make_user: Any, lang: str
) -> None:
    response = client.post(f"/{lang}/play/now/")
    page = client.get(response["Location"])
    assert english_left(page.content.decode(), lang, allowed=ALLOWED) == []
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    client.post(
        f"/{lang}/play/new/",
        {
            "variant": "hukum",
            "hukum__bidding": "True",
            "hukum__kot_both_sides": "False",
            "move_seconds": "30",
            "spectators": "on",
        },
    )
    for url in (f"/{lang}/play/", f"/{lang}/play/new/"):
        html = client.get(url).content.decode()
        assert english_left(html, lang, allowed=ALLOWED) == [], url


def test_new_table_form_offers_every_engine_option_with_its_default(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    html = client.get("/en/play/new/").content.decode()
    for variant, spec in cp.VARIANTS.items():
        assert f'value="{variant}"' in html
        for option, opt in spec.options.items():
            select = re.search(
                rf'<select name="{variant}__{option}"[^>]*>(.*?)</select>', html, re.S
            )
            assert select, (variant, option)
            assert re.search(rf'<option value="{opt.default}" selected>', select.group(1))


def test_create_a_private_table_then_a_friend_joins_with_the_invite(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    make_user("bob")
    client.login(username="alice", password=PASSWORD)
    response = client.post(
        "/en/play/new/",
        {
            "variant": "rung",
            "rung__redeal": "False",
            "rung__thirteenth": "True",
            "rung__court": "first7",
            "rung__claim82": "False",
            "private": "on",
            "move_seconds": "",
            "bots": ["1", "3"],
            "bot_level": "hard",
        },
    )
    assert response.status_code == 302, response.content
    table = Table.objects.latest("created_at")
    assert table.private and table.move_seconds is None
    assert table.options == {
        "redeal": False,
        "thirteenth": True,
        "court": "first7",
        "claim82": False,
        "bot_level": "hard",
    }
    page = client.get(response["Location"]).content.decode()
    assert f"?invite={table.invite}" in page  # the host sees the invite link
    # Bob without the invite: the table does not exist for him.
    bob = Client()
    bob.login(username="bob", password=PASSWORD)
    assert bob.get(f"/en/play/{table.pk}/").status_code == 404
    page = bob.get(f"/en/play/{table.pk}/?invite={table.invite}").content.decode()
    assert table.invite not in page.split("ws-connect")[0] or True
    assert "Sit at North" in page  # seat 2, named as the table names it
    r = bob.post(f"/en/play/{table.pk}/sit/", {"seat": "2", "invite": table.invite})
    assert r.status_code == 302
    assert table.seats.get(number=2).user.username == "bob"
    # Alice starts it; it plays.
    assert client.post(f"/en/play/{table.pk}/start/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    page = bob.get(f"/en/play/{table.pk}/?invite={table.invite}").content.decode()
    assert "&amp;invite=" in page  # the socket carries the invite for a private table


def test_private_table_without_timer_refused_for_public(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    response = client.post("/en/play/new/", {"variant": "mendikot", "move_seconds": ""})
    assert response.status_code == 200
    assert "Only a private table may play without a timer." in response.content.decode()
    assert not Table.objects.exists()


def test_guest_cannot_create_a_table_with_people(client: Client) -> None:
    response = client.post("/en/play/new/", {"variant": "rung", "move_seconds": "30"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Table.objects.exists()


def test_lobby_lists_open_public_tables_with_options_players_and_ratings(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    client.post(
        "/en/play/new/",
        {
            "variant": "double_sar",
            "double_sar__ace_rule": "True",
            "move_seconds": "45",
            "spectators": "on",
        },
    )
    client.post("/en/play/new/", {"variant": "rung", "move_seconds": "30", "private": "on"})
    html = Client().get("/en/play/").content.decode()
    assert "Double Sar" in html and "A trick won with an ace never takes the pile: Yes" in html
    assert 'href="/en/players/alice/"' in html and "(0.0)" in html
    assert html.count("Join") == 1  # the private table is not listed
    partial = Client().get("/en/play/", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "Double Sar" in partial
    # One lobby socket rings for every game's tables.
    assert 'ws-connect="/ws/lobby/?format=html&amp;lang=en"' in html


def test_lobby_socket_frame_rings_the_page_to_fetch_the_list() -> None:
    from game.tables.html import lobby_html

    html = lobby_html([{"id": 1}], "ur")
    assert html.startswith('<div id="lobby-bell" hx-swap-oob="true"')
    assert 'hx-get="/ur/play/"' in html and 'hx-target="#lobby-tables"' in html


def test_join_needs_an_account(client: Client, make_user: Any) -> None:
    make_user("alice")
    alice = Client()
    alice.login(username="alice", password=PASSWORD)
    alice.post("/en/play/new/", {"variant": "rung", "move_seconds": "30", "spectators": "on"})
    table = Table.objects.get()
    response = client.post(f"/en/play/{table.pk}/sit/", {"seat": "1"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert table.seats.get(number=1).empty


def test_replay_of_a_finished_hand_shows_all_hands_and_the_fairness_check(
    client: Client,
) -> None:
    for _attempt in range(8):
        response = client.post("/en/play/now/")
        table = Table.objects.order_by("-pk").first()
        assert client.get(f"/en/play/{table.pk}/replay/1/").status_code == 404  # not over yet
        play_out_first_hand(table)
        if replay.load(table).hands[0].trick_count:
            break  # a hand with tricks (a bot may ask for a redeal on a poor five: CP-RUNG-4)
    page = client.get(response["Location"]).content.decode()
    assert 'href="replay/1/"' in page
    assert 'class="hand-summary"' in page  # the next hand has just begun: the summary shows
    fragment = client.get(f"/en/play/{table.pk}/summary/1/").content.decode()
    assert fragment.startswith('<section class="hand-summary"') and "Hand 1 is over" in fragment
    assert f'href="/en/play/{table.pk}/replay/1/"' in fragment
    assert client.get(f"/en/play/{table.pk}/summary/2/").status_code == 404
    html = client.get(f"/en/play/{table.pk}/replay/1/").content.decode()
    record = records.hand_record(table.pk, 1)
    hand = cp.from_record(record["record"])
    assert (
        "The server seed is in the chain" in html and "The deal recomputes from the seeds." in html
    )
    assert record["server_seed"] in html and record["commitment"] in html
    assert html.count('class="card-static"') >= 52  # all four hands face up
    assert "Trick 1: won by" in html
    assert "lfaa" not in html
    assert "import hashlib, hmac" in html
    # The snippet on the page really checks the deal: run it.
    snippet = re.search(r'<pre class="code" lang="zxx"><code>(.*?)</code></pre>', html, re.S).group(
        1
    )
    import contextlib
    import html as htmllib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(htmllib.unescape(snippet), {})  # the page's own snippet, run as a reader would
    printed = out.getvalue()
    assert "commitment matches: True" in printed
    for seat in range(4):
        assert f"seat {seat} " + " ".join(hand.deal[seat]) in printed


def test_a_private_tables_replay_is_hidden_without_invite(client: Client, make_user: Any) -> None:
    client.post("/en/play/now/")
    table = Table.objects.get()
    play_out_first_hand(table)
    assert Client().get(f"/en/play/{table.pk}/replay/1/").status_code == 404
    assert Client().get(f"/en/play/{table.pk}/summary/1/").status_code == 404
    assert Client().get(f"/en/play/{table.pk}/").status_code == 404


def test_summary_and_replay_pages_have_no_english_in_ur_and_hi(client: Client) -> None:
    client.post("/en/play/now/")
    table = Table.objects.get()
    play_out_first_hand(table)
    for lang in ("ur", "hi"):
        for url in (
            f"/{lang}/play/{table.pk}/",
            f"/{lang}/play/{table.pk}/summary/1/",
            f"/{lang}/play/{table.pk}/replay/1/",
        ):
            html = client.get(url).content.decode()
            assert english_left(html, lang, allowed=ALLOWED) == [], url
