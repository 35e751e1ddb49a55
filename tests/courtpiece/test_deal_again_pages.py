"""The "Play this deal again" link of a finished hand's replay (issue #9) through Django's
test client: the link, the page it opens (guests: against bots; signed in: seats for
friends), the new table marked as a copy on its page, in the lobby and on its replay,
the refusals, and no English left in Urdu and Hindi."""

from __future__ import annotations

import contextlib
import html as htmllib
import io
import re
from typing import Any

import pytest
from django.test import Client

from game.models import Table
from game.tables import access, lifecycle, records
from game.tables.store import replay
from tests.courtpiece.play import ALLOWED, play_out_first_hand
from tests.language import english_left
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bots_without_pause(settings: Any) -> None:
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0


def _finished_play_now(client: Client) -> Table:
    client.post("/en/play/now/")
    table = Table.objects.latest("created_at")
    play_out_first_hand(table)
    return table


def _deal(table: Table) -> list[list[str]]:
    replay.clear_cache()
    return replay.load(Table.objects.get(pk=table.pk)).hand.deal


def test_the_replay_links_to_playing_the_deal_again_and_a_guest_gets_it_against_bots(
    client: Client,
) -> None:
    source = _finished_play_now(client)
    played = replay.load(source).hands[0]
    replay_page = client.get(f"/en/play/{source.pk}/replay/1/").content.decode()
    again_url = f"/en/play/{source.pk}/replay/1/again/"
    assert f'href="{again_url}"' in replay_page and "Play this deal again" in replay_page
    page = client.get(again_url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Play it against three bots" in text and "Sign in to play it with friends" in text
    assert "You hold the cards you held in that hand" in text  # the guest sat at seat 0
    response = client.post(again_url, {"with": "bots"})
    assert response.status_code == 302
    new = Table.objects.latest("created_at")
    assert response["Location"] == f"/en/play/{new.pk}/"
    assert new.pk != source.pk and new.status == Table.PLAYING and not new.rated
    assert _deal(new) == played.deal
    page = client.get(response["Location"]).content.decode()
    assert "A deal played again" in page and "This table is not rated." in page
    assert f'href="/en/play/{source.pk}/replay/1/"' in page  # the original hand


def test_refusals_are_clear_and_create_nothing(client: Client) -> None:
    client.post("/en/play/now/")
    source = Table.objects.get()
    url = f"/en/play/{source.pk}/replay/1/again/"
    for response in (client.get(url), client.post(url, {"with": "bots"})):
        assert response.status_code == 404  # the hand is being played: its seed is secret
        assert "That hand is not over yet" in response.content.decode()
    play_out_first_hand(source)
    before = Table.objects.count()
    assert client.get(f"/en/play/{source.pk}/replay/2/again/").status_code == 404
    assert client.get(f"/en/play/{source.pk}/replay/0/again/").status_code == 400
    assert client.get(f"/en/play/{source.pk + 99}/replay/1/again/").status_code == 404
    bad = client.post(url, {"with": "everything"})
    assert bad.status_code == 400 and "That request is not valid." in bad.content.decode()
    # Someone else: the private Play-now table is not admitted to exist.
    stranger = Client()
    for response in (stranger.get(url), stranger.post(url, {"with": "bots"})):
        assert response.status_code == 404
        assert "This table does not exist." in response.content.decode()
    assert stranger.get(f"{url}?invite=not-the-invite").status_code == 404
    # A guest asking for people is sent to sign in, and nothing is made.
    login = client.post(url, {"with": "form", "private": "on", "move_seconds": "30"})
    assert login.status_code == 302 and "/accounts/login/" in login["Location"]
    assert Table.objects.count() == before
    # With the invite link the stranger may play it (against bots, privately).
    ok = stranger.post(url, {"with": "bots", "invite": source.invite})
    assert ok.status_code == 302 and Table.objects.count() == before + 1
    assert Table.objects.latest("created_at").private


def test_a_signed_in_player_sets_up_seats_and_invites_a_friend(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    make_user("bob")
    client.login(username="alice", password=PASSWORD)
    alice = access.Owner(user=_user("alice"), guest_key=None)
    source = lifecycle.create_table(game="courtpiece", owner=alice, bots=[1, 2, 3], move_seconds=30)
    play_out_first_hand(source)
    url = f"/en/play/{source.pk}/replay/1/again/"
    page = client.get(url).content.decode()
    assert 'name="with" value="form"' in page and 'name="bots"' in page
    assert 'name="variant"' not in page  # the game and house rules are the copied hand's
    # A public table without a timer is refused by the form, and nothing is made.
    refused = client.post(url, {"with": "form", "move_seconds": ""})
    assert refused.status_code == 400
    assert "Only a private table may play without a timer." in refused.content.decode()
    assert Table.objects.count() == 1
    response = client.post(
        url, {"with": "form", "private": "on", "move_seconds": "", "bots": ["1", "3"]}
    )
    assert response.status_code == 302
    new = Table.objects.latest("created_at")
    assert new.private and new.status == Table.WAITING and new.move_seconds is None
    page = client.get(response["Location"]).content.decode()
    assert f"?invite={new.invite}" in page and "A deal played again" in page
    bob = Client()
    bob.login(username="bob", password=PASSWORD)
    sat = bob.post(f"/en/play/{new.pk}/sit/", {"seat": "2", "invite": new.invite})
    assert sat.status_code == 302
    assert client.post(f"/en/play/{new.pk}/start/").status_code == 302
    new.refresh_from_db()
    assert new.status == Table.PLAYING and not new.rated
    assert _deal(new) == replay.load(source).hands[0].deal


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def test_a_public_copy_is_marked_in_the_lobby(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    client.post("/en/play/new/", {"variant": "rung", "move_seconds": "30", "bots": ["1", "2", "3"]})
    source = Table.objects.get()
    play_out_first_hand(source)
    client.post(
        f"/en/play/{source.pk}/replay/1/again/",
        {"with": "form", "move_seconds": "45", "spectators": "on", "bots": ["2"]},
    )
    new = Table.objects.latest("created_at")
    assert not new.private and new.status == Table.WAITING
    lobby = Client().get("/en/play/").content.decode()
    rows = dict(re.findall(r"<tr>\s*<td>#(\d+)(.*?)</tr>", lobby, re.S))
    assert "Deal played again" in rows[str(new.pk)]
    assert f"Hand 1 of table #{source.pk}, dealt again" in rows[str(new.pk)]
    assert "Deal played again" not in rows[str(source.pk)]  # the original is still playing


def test_the_copied_hands_summary_and_replay_say_it_is_a_copy_and_check_the_original(
    client: Client,
) -> None:
    source = _finished_play_now(client)
    client.post(f"/en/play/{source.pk}/replay/1/again/", {"with": "bots"})
    new = Table.objects.latest("created_at")
    play_out_first_hand(new)
    # The live table shows the finished copy's summary: its fairness is the original's.
    page = client.get(f"/en/play/{new.pk}/").content.decode()
    live = page.split('class="hand-summary"', 1)[1]
    assert "This deal was not shuffled at this table" in live
    fragment = client.get(f"/en/play/{new.pk}/summary/1/").content.decode()
    assert "This deal was not shuffled at this table" in fragment
    assert f'href="/en/play/{source.pk}/replay/1/"' in fragment
    assert "revealed now that it is over" not in fragment
    html = client.get(f"/en/play/{new.pk}/replay/1/").content.decode()
    assert "these cards were not shuffled at this table" in html
    assert "The original server seed is in the chain" in html
    assert "The original deal recomputes from its seeds" in html
    assert "✘" not in html
    assert "The server seed is in the chain the table committed to" not in html
    origin = records.hand_record(new.pk, 1)["copied_from"]
    assert origin["server_seed"] in html and origin["commitment"] in html
    snippet = re.search(r'<pre class="code" lang="zxx"><code>(.*?)</code></pre>', html, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(htmllib.unescape(snippet.group(1)), {})  # the page's own check, run as a reader would
    printed = out.getvalue()
    assert "commitment matches: True" in printed
    for seat, cards in enumerate(replay.load(source).hands[0].deal):
        assert f"seat {seat} " + " ".join(cards) in printed
    # Its next hands are ordinary deals of the new table; the link plays it again too.
    assert f'href="/en/play/{new.pk}/replay/1/again/"' in html


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_no_english_left_on_the_deal_again_pages(client: Client, lang: str) -> None:
    source = _finished_play_now(client)
    client.post(f"/en/play/{source.pk}/replay/1/again/", {"with": "bots"})
    new = Table.objects.latest("created_at")
    play_out_first_hand(new)
    for url in (
        f"/{lang}/play/{source.pk}/replay/1/",
        f"/{lang}/play/{source.pk}/replay/1/again/",
        f"/{lang}/play/{new.pk}/",
        f"/{lang}/play/{new.pk}/summary/1/",
        f"/{lang}/play/{new.pk}/replay/1/",
        f"/{lang}/play/{new.pk}/replay/2/again/",  # not over: the error page
    ):
        html = client.get(url).content.decode()
        assert english_left(html, lang, allowed=ALLOWED) == [], url


def test_a_partner_replays_it_holding_their_own_cards_and_the_check_still_holds(
    client: Client, make_user: Any
) -> None:
    alice = access.Owner(user=make_user("alice"), guest_key=None)
    bob = access.Owner(user=make_user("bob"), guest_key=None)
    source = lifecycle.create_table(game="courtpiece", owner=alice, bots=[1, 3], move_seconds=30)
    lifecycle.take_seat(table_id=source.pk, owner=bob, seat=2)
    lifecycle.start_table(table_id=source.pk, owner=alice)
    play_out_first_hand(source)
    played = replay.load(source).hands[0]
    client.login(username="bob", password=PASSWORD)
    url = f"/en/play/{source.pk}/replay/1/again/"
    assert "You hold the cards you held in that hand" in client.get(url).content.decode()
    client.post(url, {"with": "bots"})
    new = Table.objects.latest("created_at")
    assert access.seat_of(new, bob) == 0 and _deal(new)[0] == played.deal[2]
    play_out_first_hand(new)
    html = client.get(f"/en/play/{new.pk}/replay/1/").content.decode()
    assert "The original deal recomputes from its seeds" in html and "✘" not in html
    assert "Here everyone sits 2 seats round from the original table" in html
