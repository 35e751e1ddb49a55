"""guide.views: every page in every language, in its own language, with the SEO parts.

"No English left on /ur/ and /hi/" is checked by `foreign_text`, which reads a page the way
a person and a screen reader would and reports any Latin letters it finds. Strict: visible
text, <title>, the meta description and every aria-label/title/alt attribute count; only
<script>/<style> (code and JSON-LD) are skipped. Fair: text inside an element that declares
another language with lang="…" is deliberate (the switcher names "English" in English), and
inside an SVG figure the card ranks A, K, Q, J are drawn as on real cards.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from guide.content import get_page
from guide.pages import PAGES, PageSpec, url_name_and_kwargs

LANGS = ("ur", "hi", "en")
LATIN = re.compile(r"[A-Za-z]+")
CARD_RANKS = {"A", "K", "Q", "J"}
SPOKEN_ATTRS = ("aria-label", "title", "alt", "placeholder")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _ForeignText(HTMLParser):
    def __init__(self, page_lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = page_lang
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, inside svg)
        self.found: list[str] = []

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _in_svg(self) -> bool:
        return bool(self.stack) and self.stack[-1][2]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        lang = a.get("lang")
        skipped = self._skipped() or tag in ("script", "style") or (
            lang is not None and lang != self.page_lang and tag != "html"
        )
        in_svg = self._in_svg() or tag == "svg"
        if not skipped:
            for name in SPOKEN_ATTRS:
                self._check(a.get(name) or "", in_svg, f"@{name}")
            if tag == "meta" and a.get("name") == "description":
                self._check(a.get("content") or "", False, "meta description")
        if tag not in VOID:
            self.stack.append((tag, skipped, in_svg))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipped():
            self._check(data, self._in_svg(), "text")

    def _check(self, text: str, in_svg: bool, where: str) -> None:
        for word in LATIN.findall(text):
            if in_svg and word in CARD_RANKS:
                continue
            self.found.append(f"{where}: {word!r} in {text.strip()[:80]!r}")


def foreign_text(html: str, lang: str) -> list[str]:
    parser = _ForeignText(lang)
    parser.feed(html)
    return parser.found


def _url(lang: str, spec: PageSpec) -> str:
    from django.urls import reverse
    from django.utils import translation

    name, kwargs = url_name_and_kwargs(spec)
    with translation.override(lang):
        return reverse(name, kwargs=kwargs)


def test_foreign_text_detector_is_strict_and_fair() -> None:
    ok = (
        '<html lang="ur"><head><title>قاعدے</title><script>var x = "English";</script></head>'
        '<body><a lang="en" href="/en/">English</a><svg aria-label="پتّا"><text>K</text>'
        "<text>10</text></svg><p>ترپ 13</p></body></html>"
    )
    assert foreign_text(ok, "ur") == []
    for bad in (
        '<html lang="ur"><body><p>ترپ is trump</p></body></html>',
        '<html lang="ur"><head><title>Rules</title></head></html>',
        '<html lang="ur"><head><meta name="description" content="Rules"></head></html>',
        '<html lang="ur"><body><nav aria-label="Main"></nav></body></html>',
        '<html lang="ur"><body><p>K</p></body></html>',  # a rank outside a figure
        '<html lang="ur"><body><svg><text>South</text></svg></body></html>',
    ):
        assert foreign_text(bad, "ur"), bad


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.slug)
def test_page_answers_in_its_own_language(client: Client, lang: str, spec: PageSpec) -> None:
    page = get_page(lang, spec.slug)
    if page is None:
        pytest.fail(f"guide/content/{lang}/{spec.slug}.md is missing")
    response = client.get(_url(lang, spec))
    assert response.status_code == 200
    html = response.content.decode()
    direction = "rtl" if lang == "ur" else "ltr"
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert f"<h1>{page.title}</h1>" in html.replace("&#x27;", "'")
    assert f'<meta name="description" content="{page.description}">' in html.replace("&#x27;", "'")
    if lang != "en":
        assert foreign_text(html, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_index_lists_every_page(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/rules/").content.decode()
    for spec in PAGES:
        assert f'href="{_url(lang, spec)}"' in html, spec.slug
    if lang != "en":
        assert foreign_text(html, lang) == []


@pytest.mark.parametrize("lang", ("ur", "hi"))
def test_home_page_has_no_english(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/").content.decode()
    assert f'href="/{lang}/rules/"' in html
    assert foreign_text(html, lang) == []


@pytest.mark.parametrize(
    "path", ["/en/rules/poker/", "/en/faq/poker/", "/en/rules/faq-hukum/", "/en/faq/faq-hukum/"]
)
def test_unknown_pages_are_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_pages_refuse_writes(client: Client) -> None:
    assert client.post("/en/rules/rung/").status_code == 405


def test_hreflang_alternates_and_canonical(client: Client) -> None:
    html = client.get("/hi/rules/hidden-rung/").content.decode()
    assert '<link rel="canonical" href="http://testserver/hi/rules/hidden-rung/">' in html
    for lang in LANGS:
        assert (
            f'<link rel="alternate" hreflang="{lang}" '
            f'href="http://testserver/{lang}/rules/hidden-rung/">' in html
        )
    x_default = "http://testserver/rules/hidden-rung/"
    assert f'<link rel="alternate" hreflang="x-default" href="{x_default}">' in html


def test_canonical_drops_the_query_string(client: Client) -> None:
    html = client.get("/en/rules/rung/?utm_source=x").content.decode()
    assert '<link rel="canonical" href="http://testserver/en/rules/rung/">' in html


@pytest.mark.parametrize("lang", LANGS)
def test_faq_pages_carry_faqpage_structured_data(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/faq/court-piece/").content.decode()
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert match
    data = json.loads(match.group(1))
    page = get_page(lang, "faq-court-piece")
    assert page is not None
    assert data["@type"] == "FAQPage"
    assert [q["name"] for q in data["mainEntity"]] == [e.question for e in page.faq]
    assert all(q["acceptedAnswer"]["text"] for q in data["mainEntity"])


def test_pages_work_without_javascript(client: Client) -> None:
    # The only scripts on guide pages are structured data, never code.
    for path in ("/en/rules/rung/", "/ur/faq/hukum/", "/hi/glossary/", "/en/rules/"):
        html = client.get(path).content.decode()
        for attrs in re.findall(r"<script([^>]*)>", html):
            assert 'type="application/ld+json"' in attrs, path


def test_language_switcher_keeps_the_page(client: Client) -> None:
    html = client.get("/ur/faq/backgammon/").content.decode()
    for lang in LANGS:
        assert f'<a href="/{lang}/faq/backgammon/" hreflang="{lang}" lang="{lang}"' in html

