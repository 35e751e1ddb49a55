"""The list page, the sitemap, the rules pages' links and the nav."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.language import english_left
from tutorials.lessons import LESSONS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_list_page_in_each_language(client: Client, lang: str) -> None:
    r = client.get(f"/{lang}/learn/")
    assert r.status_code == 200
    html = r.content.decode()
    for lesson in LESSONS:
        assert f"/{lang}/learn/{lesson.slug}/" in html
    if lang != "en":
        assert english_left(html, lang) == []
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "ur" else "ltr"}">' in html


def test_sitemap_lists_lessons_with_hreflang(client: Client) -> None:
    xml = client.get("/sitemap.xml").content.decode()
    for lang in ("ur", "hi", "en"):
        assert f"<loc>http://testserver/{lang}/learn/</loc>" in xml  # the lessons list
    assert 'hreflang="hi" href="http://testserver/hi/learn/"' in xml
    for lesson in LESSONS:
        for lang in ("ur", "hi", "en"):
            assert f"/{lang}/learn/{lesson.slug}/</loc>" in xml
    assert 'hreflang="ur" href="http://testserver/ur/learn/follow-suit/"' in xml


def test_rules_page_links_its_lessons_and_nav_links_learn(client: Client) -> None:
    html = client.get("/en/rules/rung/").content.decode()
    assert 'href="/en/learn/follow-suit/"' in html
    assert 'href="/en/learn/"' in html
    bg = client.get("/ur/rules/backgammon/").content.decode()
    assert 'href="/ur/learn/bg-moving/"' in bg


def test_unknown_lesson_is_404(client: Client) -> None:
    assert client.get("/en/learn/no-such-lesson/").status_code == 404


def test_reading_works_without_javascript(client: Client) -> None:
    html = client.get("/en/learn/follow-suit/").content.decode()
    assert 'method="post" action="/en/learn/follow-suit/"' in html
    assert 'aria-live="polite"' in html


def test_played_tricks_say_who_won_each(client: Client) -> None:
    from tutorials.lessons import BY_SLUG

    lesson = BY_SLUG["double-sar"]
    url = "/en/learn/double-sar/"
    for step in lesson.steps[:2]:
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
    html = client.get(url).content.decode()
    assert "won by South (you)" in html
    assert "won by North (your partner)" in html
