"""The create-table pages and the hand summary for a newcomer, through Django's test client:
a guest is told up front that tables with people need an account (and gets a form it can
submit: bots in every other seat), the form's house rules belong to the chosen game only,
and the summary fetched while the next hand starts says its result aloud."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.engine import courtpiece as cp
from game.models import Table
from game.tables import access, due, moves, presence
from game.tables.store import replay
from tests.language import english_left

pytestmark = pytest.mark.django_db


def _signed_in() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("alice", password="pw-alice-1"))
    return client


# --- 2. guests ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_a_guest_is_told_before_the_form_and_gets_links_that_come_back(
    client: Client, lang: str
) -> None:
    html = client.get(f"/{lang}/play/new/").content.decode()
    notice = html.index('data-testid="account-needed"')
    assert notice < html.index('class="account-form create-form"')  # up front
    back = quote(f"/{lang}/play/new/", safe="/")
    assert f'href="/{lang}/accounts/login/?next={back}"' in html
    assert f'href="/{lang}/accounts/signup/?next={back}"' in html
    # Play now stays open; the form is one a guest can submit: every other seat a bot.
    assert f'action="/{lang}/play/now/"' in html
    assert 'type="checkbox" name="bots"' not in html
    assert re.findall(r'<input type="hidden" name="bots" value="(\d)">', html) == ["1", "2", "3"]
    if lang != "en":
        assert english_left(html, lang, allowed={"UTC"}) == []


def test_the_guests_form_creates_a_table_against_three_bots(client: Client) -> None:
    response = client.post(
        "/en/play/new/",
        {"variant": "hidden", "move_seconds": "30", "bots": ["1", "2", "3"]},
    )
    assert response.status_code == 302, response.content
    table = Table.objects.get()
    assert table.variant == "hidden" and table.status == Table.PLAYING
    assert sorted(s.number for s in table.seats.all() if s.bot) == [1, 2, 3]


def test_a_guest_asking_for_people_is_still_sent_to_sign_in_and_nothing_is_made(
    client: Client,
) -> None:
    data = {"variant": "rung", "move_seconds": "30", "bots": ["1"]}
    response = client.post("/en/play/new/", data)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Table.objects.exists()


def test_the_lobby_says_it_to_a_guest_next_to_the_create_link(
    client: Client,
) -> None:
    html = client.get("/ur/play/").content.decode()
    back = quote("/ur/play/new/", safe="/")
    notice = re.search(r'<p class="message account-needed"[^>]*>(.*?)</p>', html, re.S)
    assert notice
    assert f"/ur/accounts/login/?next={back}" in notice.group(1)
    assert f"/ur/accounts/signup/?next={back}" in notice.group(1)
    assert english_left(notice.group(0), "ur") == []
    member = _signed_in()
    assert "account-needed" not in member.get("/en/play/").content.decode()
    page = member.get("/en/play/new/").content.decode()
    assert "account-needed" not in page and 'type="checkbox" name="bots"' in page


def test_a_guests_backgammon_form_plays_the_bot(client: Client) -> None:
    html = client.get("/hi/play/new/backgammon/").content.decode()
    assert 'data-testid="account-needed"' in html
    assert '<input type="hidden" name="bot" value="on">' in html
    assert 'type="checkbox" name="bot" ' not in html
    assert english_left(html, "hi", allowed={"GNU", "Backgammon", "UTC"}) == []


# --- 6. house rules of the chosen game only ------------------------------------------------


def test_the_form_groups_the_rules_per_game_and_hides_the_others_with_javascript(
    client: Client,
) -> None:
    html = _signed_in().get("/en/play/new/").content.decode()
    for variant, spec in cp.VARIANTS.items():
        if spec.options:
            box = re.search(rf'<fieldset data-variant="{variant}">(.*?)</fieldset>', html, re.S)
            assert box, variant
            assert all(f'name="{variant}__{o}"' in box.group(1) for o in spec.options)
    assert "/static/js/new_table.js" in html and "data-variant-form" in html
    assert 'class="helptext no-house-rules" hidden' in html


def test_another_games_rule_set_away_from_its_default_is_refused_and_nothing_is_made(
    client: Client,
) -> None:
    member = _signed_in()
    response = member.post(
        "/en/play/new/",
        {"variant": "rung", "hukum__bidding": "False", "move_seconds": "30", "spectators": "on"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "belong to another game: nothing was created" in html
    assert "This house rule belongs to Hukum, but the game you chose is Rung" in html
    assert not Table.objects.exists()
    data = {"variant": "mendikot", "double_sar__ace_rule": "True", "move_seconds": "30"}
    ur = member.post("/ur/play/new/", data).content.decode()
    assert "یہ گھریلو اصول ڈبل سر کا ہے" in ur
    assert english_left(ur, "ur", allowed={"alice", "UTC"}) == []
    assert not Table.objects.exists()


def test_other_games_rules_left_at_their_defaults_are_ignored(
    client: Client,
) -> None:
    """Without JavaScript the browser sends every game's rules at their defaults."""
    member = _signed_in()
    data: dict[str, Any] = {"variant": "rung", "rung__court": "first7", "move_seconds": "30"}
    for variant, spec in cp.VARIANTS.items():
        for option, opt in spec.options.items():
            data.setdefault(f"{variant}__{option}", str(opt.default))
    response = member.post("/en/play/new/", data)
    assert response.status_code == 302, response.content
    table = Table.objects.get()
    assert table.variant == "rung"
    assert table.options == {
        "redeal": True, "thirteenth": True, "court": "first7", "claim82": True,
        "bot_level": "medium",  # the form always says the bots' level
    }


# --- 1. the summary the live table fetches says the result aloud ---------------------------


def test_the_fetched_summary_announces_the_result_and_the_last_trick(client: Client) -> None:
    client.post("/en/play/now/")
    table = Table.objects.get()
    owners = {s.number: access.Owner(s.user, s.guest_key or None) for s in table.seats.all()}
    presence.seat_connected(table_id=table.pk, seat=0)  # a table runs while someone is there
    rng = random.Random(2)
    for _step in range(300):
        table.refresh_from_db()
        match = replay.load(table)
        if match.hands:
            break
        seat = match.to_move
        legal = [a for a in match.legal_actions() if a not in ("timeout", "redeal", "claim")]
        if table.seats.get(number=seat).bot:
            assert due.fire(table.pk, table.version, Table.BOT)
        else:
            moves.apply_action(
                table_id=table.pk, owner=owners[seat],
                action=rng.choice(legal or list(match.legal_actions())),
                expected_version=table.version,
            )  # fmt: skip
    html = client.get(f"/en/play/{table.pk}/summary/1/").content.decode()
    assert 'class="hand-summary"' in html
    region = re.search(r'<div id="table-announce" hx-swap-oob="innerHTML">(.*?)</div>', html)
    # "Hand 1 is over." or, when a bot asked for a redeal, "Hand 1 is over: Redeal."
    assert region and region.group(1).startswith("Hand 1 is over")
    finished = replay.load(table).hands[0]
    if finished.result is not None and finished.result.kind != "redeal":
        assert "won the trick." in region.group(1)
    # What the result is worth, and the match's target (a Rung table: first to 52).
    worth = re.search(r'<p class="points-explained"[^>]*>(.*?)</p>', html, re.S)
    assert worth and "First to 52 points wins the match." in worth.group(1)
    ur = client.get(f"/ur/play/{table.pk}/summary/1/").content.decode()
    assert english_left(ur, "ur", allowed={"SHA", "Python"}) == []


# --- the auto-play option says what it does --------------------------------------------


def test_the_auto_play_option_says_when_it_plays_in_plain_words(client: Client) -> None:
    page = client.get(client.post("/en/play/now/")["Location"]).content.decode()
    label = re.search(r'<label><input type="checkbox" id="autoplay-forced">([^<]+)</label>', page)
    assert label and label.group(1).strip() == "When only one card can be played, play it for me"
    assert "forced" not in label.group(1)
