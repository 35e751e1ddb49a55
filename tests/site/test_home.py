"""The front door (site/views.home, site/home.py) and the FAQ index, in every language:
Play now, the lessons with the visitor's progress, play with friends, the rules, the
picture and the live figures read from the tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from baithak import home
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from game.models import Seat, Table
from guide.content import get_page
from guide.pages import FAQ_SLUGS
from tests.language import english_left
from tutorials.lessons import LESSONS
from tutorials.models import LessonProgress
from tutorials.progress import SESSION_STARS

LANGS = ("ur", "hi", "en")
TITLES = {
    "ur": "کورٹ پیس اور بیک گیمن، اپنی ہی میز پر",
    "hi": "कोर्ट पीस और बैकगैमन, अपनी ही मेज़ पर",
    "en": "Court Piece and Backgammon, at your own table",
}

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_figures() -> None:
    cache.delete(home.LIVE_CACHE_KEY)


def _table(status: str) -> Table:
    return Table.objects.create(
        game="courtpiece", variant="rung", status=status, seed_top="0" * 64,
        commitment="1" * 64, chain_length=8,
    )


def _live(html: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r'data-live="(\w+)">(\d+)<', html)}


@pytest.mark.parametrize("lang", LANGS)
def test_home_answers_in_its_language_with_every_door(client: Client, lang: str) -> None:
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    assert TITLES[lang] in html
    # Play now: one POST, no account asked for.
    assert f'<form class="play-now" method="post" action="/{lang}/play/now/">' in html
    # Learn (with progress), play with friends (the create page), the rules, the FAQ index.
    for path in ("learn/", "play/new/", "play/", "rules/rung/", "rules/backgammon/", "faq/",
                 "rules/", f"learn/{LESSONS[0].slug}/"):
        assert f'href="/{lang}/{path}"' in html, path
    assert _live(html) == {"tables": 0, "open": 0, "players": 1}  # the visitor is online
    # Play backgammon now: the same play-now view, with game=backgammon.
    bg_form = re.search(
        r'<form class="play-now play-now-bg" method="post" action="([^"]+)">(.*?)</form>',
        html,
        re.S,
    )
    assert bg_form is not None and bg_form[1] == f"/{lang}/play/now/"
    assert '<input type="hidden" name="game" value="backgammon">' in bg_form[2]
    assert 'data-testid="home-bg-play-now"' in bg_form[2]
    assert "csrfmiddlewaretoken" in bg_form[2]
    if lang != "en":
        assert english_left(html, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_home_picture_is_our_svg_with_a_trick_and_a_board(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/").content.decode()
    svg = html.split('<svg class="home-picture"', 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in svg and "<title" in svg
    assert svg.count('class="card"') == 4  # the trick on the table
    assert svg.count("<polygon") == 24  # the board's 24 points
    assert svg.count('r="11"') == 30  # both sides' 15 checkers, starting position


def test_live_figures_count_playing_tables_and_connected_people() -> None:
    User = get_user_model()
    alice = User.objects.create_user("alice", password="x-very-long-pass")
    playing, other, waiting = _table(Table.PLAYING), _table(Table.PLAYING), _table(Table.WAITING)
    _table(Table.OVER)
    Seat.objects.create(table=playing, number=0, user=alice, connections=1)
    Seat.objects.create(table=waiting, number=0, user=alice, connections=2)  # same person
    Seat.objects.create(table=playing, number=1, guest_key="g1", connections=1)
    Seat.objects.create(table=playing, number=2, bot=True, connections=0)
    Seat.objects.create(table=other, number=0, guest_key="g2", connections=0)  # gone away
    # a guest's Play now table is private: a game being played, not an open table
    private = _table(Table.PLAYING)
    private.private = True
    private.save()
    private_bots = _table(Table.PLAYING)  # a guest's game against bots, the guest there
    private_bots.private = True
    private_bots.save()
    Seat.objects.create(table=private_bots, number=0, guest_key="g3", connections=1)
    Seat.objects.create(table=private_bots, number=1, bot=True, connections=0)
    # Being played: `playing` and the guest's; not `other` (its one person has gone) nor
    # the private table nobody sits at.
    assert home.live_figures() == {"tables": 2, "open": 3, "players": 3}


def test_live_figures_on_the_page_come_from_the_tables_and_are_cached(client: Client) -> None:
    table = _table(Table.PLAYING)
    Seat.objects.create(table=table, number=0, guest_key="g1", connections=1)
    # "players": g1 at the table, and the visitor reading the page (tests/site/
    # test_players_online.py)
    assert _live(client.get("/en/").content.decode()) == {"tables": 1, "open": 1, "players": 2}
    _table(Table.PLAYING)
    # Within LIVE_SECONDS every visitor gets the cached figures: no query per page view.
    assert _live(client.get("/hi/").content.decode()) == {"tables": 1, "open": 1, "players": 2}
    cache.delete(home.LIVE_CACHE_KEY)
    # the new table is open, but nobody is at it: not a game being played
    assert _live(client.get("/ur/").content.decode()) == {"tables": 1, "open": 2, "players": 2}


def _progress(html: str) -> tuple[int, int]:
    m = re.search(r'data-done="(\d+)" data-stars="(\d+)"', html)
    assert m, "no progress line"
    return int(m[1]), int(m[2])


def test_home_shows_a_guests_lesson_progress_and_the_next_lesson(client: Client) -> None:
    assert _progress(client.get("/en/").content.decode()) == (0, 0)
    session = client.session
    session[SESSION_STARS] = {LESSONS[0].slug: 3, LESSONS[2].slug: 1}
    session.save()
    html = client.get("/en/").content.decode()
    assert _progress(html) == (2, 4)
    assert f"2 of {len(LESSONS)} lessons done" in html
    assert f"4 of {3 * len(LESSONS)} stars" in html
    # "Continue" opens the first lesson without stars.
    assert re.search(rf'<a class="button" href="/en/learn/{LESSONS[1].slug}/">Continue: ', html)


def test_home_shows_an_accounts_lesson_progress(client: Client) -> None:
    user = get_user_model().objects.create_user("bina", password="x-very-long-pass")
    LessonProgress.objects.create(user=user, lesson=LESSONS[0].slug, stars=2)
    client.force_login(user)
    html = client.get("/ur/").content.decode()
    assert _progress(html) == (1, 2)
    # Every word but the player's own name is Urdu.
    assert english_left(html.replace("bina", ""), "ur") == []


def test_play_now_from_the_home_page_seats_a_guest_at_a_rung_table(client: Client) -> None:
    client.get("/en/")
    response = client.post("/en/play/now/")
    assert response.status_code == 302
    assert re.fullmatch(r"/en/play/\d+/", response["Location"])
    table = Table.objects.get()
    assert table.variant == "rung"


def test_play_backgammon_now_from_the_home_page_seats_a_guest_against_the_bot(
    client: Client,
) -> None:
    html = client.get("/en/").content.decode()
    assert "Play backgammon now" in html
    response = client.post("/en/play/now/", {"game": "backgammon"})
    assert response.status_code == 302
    assert re.fullmatch(r"/en/play/\d+/", response["Location"])
    table = Table.objects.get()
    assert table.game == "backgammon"
    # it is private: a game being played, not one of the lobby's open tables
    cache.delete(home.LIVE_CACHE_KEY)
    figures = _live(client.get("/en/").content.decode())
    assert figures["open"] == 0
    assert figures["tables"] == 0  # the guest has not opened the table's page yet
    Seat.objects.filter(table=table, bot=False).update(connections=1)  # the page's socket
    cache.delete(home.LIVE_CACHE_KEY)
    figures = _live(client.get("/en/").content.decode())
    assert figures["open"] == 0
    assert figures["tables"] == (1 if table.status == Table.PLAYING else 0)


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six")


def test_the_docs_describe_the_home_page_as_it_is(client: Client) -> None:
    """docs/PAGES.md's "The front door" names every Play button, says how many live
    figures there are and how many queries they cost (the docs once said two of each
    after a third figure and a backgammon button came)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pages = (Path(__file__).resolve().parents[2] / "docs" / "PAGES.md").read_text(encoding="utf-8")
    section = pages.split("## The front door", 1)[1].split("\n## ", 1)[0]
    html = client.get("/en/").content.decode()
    cache.delete(home.LIVE_CACHE_KEY)
    with CaptureQueriesContext(connection) as queries:
        home.live_figures()
    figures = len(_live(html))
    buttons = re.findall(r'data-testid="home-[\w-]*play-now">([^<]+)<', html)
    assert figures == 3 and len(buttons) == 2  # what the page shows today
    assert f"{NUMBER_WORDS[len(queries)]} aggregate queries" in section.lower()
    assert f"**live figures**, {NUMBER_WORDS[figures]} of them" in section.lower()
    for label in buttons:
        assert f"**{label}**" in section, label


def test_home_answers_head_and_refuses_post(client: Client) -> None:
    assert client.head("/en/").status_code == 200
    assert client.post("/en/").status_code == 405


@pytest.mark.parametrize("lang", LANGS)
def test_faq_index_lists_every_faq_and_each_question(client: Client, lang: str) -> None:
    response = client.get(f"/{lang}/faq/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    for slug in FAQ_SLUGS:
        page = get_page(lang, slug)
        assert page is not None
        assert f'href="{page.url}"' in html
        for anchor, _question in page.toc:
            assert f'href="{page.url}#{anchor}"' in html
    if lang != "en":
        assert english_left(html, lang) == []
    # The nav's Questions link leads here, marked as the current page.
    assert f'<a href="/{lang}/faq/" aria-current="page">' in html
