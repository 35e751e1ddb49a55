"""The list page, the sitemap, the rules pages' links and the nav."""

from __future__ import annotations

from html.parser import HTMLParser

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


def _card(html: str, lang: str, slug: str) -> str:
    """The list item of one lesson on the lessons list."""
    import re

    cards = re.findall(r'<li class="lesson-card[^"]*">.*?</li>', html, flags=re.DOTALL)
    return next(c for c in cards if f'href="/{lang}/learn/{slug}/"' in c)


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_a_lesson_stopped_half_way_shows_its_step_and_continue(client: Client, lang: str) -> None:
    from django.utils import translation
    from django.utils.translation import gettext

    from tutorials.lessons import BY_SLUG

    lesson = BY_SLUG["follow-suit"]
    total = len(lesson.steps)
    assert total >= 4
    with translation.override(lang):
        start, cont, again = gettext("Start"), gettext("Continue"), gettext("Play again")
        at_three = gettext("Step %(n)s of %(total)s") % {"n": 3, "total": total}
        not_started = gettext("Not started")
    card = _card(client.get(f"/{lang}/learn/").content.decode(), lang, lesson.slug)
    assert not_started in card and f">{start}</a>" in card and at_three not in card
    url = f"/{lang}/learn/{lesson.slug}/"
    for step in lesson.steps[:2]:  # two steps right: the run stops at step 3
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
    html = client.get(f"/{lang}/learn/").content.decode()
    card = _card(html, lang, lesson.slug)
    assert at_three in card, card
    assert f">{cont}</a>" in card and not_started not in card
    assert "lesson-card--started" in card
    if lang != "en":
        assert english_left(html, lang) == []
    # A mistake keeps the learner on the step; the list says the same step.
    client.post(url, {"step": lesson.steps[2].id, "answer": lesson.steps[2].a_wrong_answer()})
    assert at_three in _card(client.get(f"/{lang}/learn/").content.decode(), lang, lesson.slug)
    # Finished: stars, and the button plays it again.
    for step in lesson.steps[2:]:
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
    card = _card(client.get(f"/{lang}/learn/").content.decode(), lang, lesson.slug)
    assert f">{again}</a>" in card and 'class="stars"' in card and at_three not in card
    # Started again: Continue once more, beside the stars already won.
    client.post(url, {"step": lesson.steps[0].id, "answer": sorted(lesson.steps[0].correct())[0]})
    card = _card(client.get(f"/{lang}/learn/").content.decode(), lang, lesson.slug)
    with translation.override(lang):
        at_two = gettext("Step %(n)s of %(total)s") % {"n": 2, "total": total}
    assert at_two in card and f">{cont}</a>" in card and 'class="stars"' in card


class _Sections(HTMLParser):
    """The links inside each <section> of a page, by the anchor of its heading."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # open <section>s (the guide never nests them; counted anyway)
        self.anchor: str | None = None
        self.links: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section":
            self.depth += 1
            self.anchor = None
        elif tag == "h2" and self.depth and self.anchor is None and a.get("id"):
            self.anchor = a["id"]
            self.links.setdefault(self.anchor, [])
        elif tag == "a" and self.depth and self.anchor is not None:
            self.links[self.anchor].append(a.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.depth:
            self.depth -= 1
            self.anchor = None


def _section_links(html: str) -> dict[str, list[str]]:
    parser = _Sections()
    parser.feed(html)
    return parser.links


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_each_rules_section_a_lesson_cites_links_to_that_lesson(client: Client, lang: str) -> None:
    from django.utils import translation
    from django.utils.translation import ngettext

    from tutorials.content import get_text
    from tutorials.present import rule_url

    pages: dict[str, dict[str, list[str]]] = {}
    cited: set[tuple[str, str, str]] = set()
    for lesson in LESSONS:
        for step in get_text(lang, lesson.slug).steps:
            cited.add((step.rule_page, step.rule_anchor, lesson.slug))
    assert {page for page, _a, _s in cited} >= {"rung", "backgammon", "house-rules"}
    for page, anchor, slug in sorted(cited):
        if page not in pages:
            with translation.override(lang):
                url = rule_url(page, "")
            r = client.get(url)
            assert r.status_code == 200, url
            pages[page] = _section_links(r.content.decode())
        sections = pages[page]
        assert anchor in sections, (page, anchor)
        assert f"/{lang}/learn/{slug}/" in sections[anchor], (lang, page, anchor, slug)
    # A section no lesson cites carries no lesson link (rung#players, for instance).
    taught = {(p, a) for p, a, _s in cited}
    for page, sections in pages.items():
        for anchor, links in sections.items():
            if (page, anchor) not in taught:
                assert not [h for h in links if f"/{lang}/learn/" in h], (page, anchor)
    # The words around the link are in the page's language.
    with translation.override(lang):
        label = ngettext("Lesson:", "Lessons:", 1)
    html = client.get(f"/{lang}/rules/backgammon/").content.decode()
    assert f'<p class="section-lessons">{label} <a href="/{lang}/learn/bg-hitting/">' in html
    if lang != "en":
        assert english_left(html, lang) == []
        house = client.get(f"/{lang}/house-rules/").content.decode()
        assert english_left(house, lang) == []


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_every_lesson_links_back_to_its_rules_page(client: Client, lang: str) -> None:
    from tutorials.content import get_text

    for lesson in LESSONS:
        url = f"/{lang}/learn/{lesson.slug}/"
        html = client.get(url).content.decode()
        assert f'href="/{lang}/rules/{lesson.rules_page}/"' in html, lesson.slug
        # The first step's feedback links the very section its rule is in.
        step, text = lesson.steps[0], get_text(lang, lesson.slug).steps[0]
        r = client.post(url, {"step": step.id, "answer": step.a_wrong_answer()})
        assert f"#{text.rule_anchor}" in r.content.decode(), lesson.slug


def test_house_rules_page_lists_the_lessons_that_cite_it(client: Client) -> None:
    html = client.get("/en/house-rules/").content.decode()
    box = html[html.index('class="rule-lessons"') :]
    assert 'href="/en/learn/call-trump/"' in box and 'href="/en/learn/redeal/"' in box
