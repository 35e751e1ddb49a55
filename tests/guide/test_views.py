"""guide.views: every page in every language, in its own language, with the SEO parts.

"No English left on /ur/ and /hi/" is in test_translations.py (tests/language.py says what
counts).
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from guide.content import get_page
from guide.pages import PAGES, PageSpec, url_name_and_kwargs

LANGS = ("ur", "hi", "en")


def _url(lang: str, spec: PageSpec) -> str:
    from django.urls import reverse
    from django.utils import translation

    name, kwargs = url_name_and_kwargs(spec)
    with translation.override(lang):
        return reverse(name, kwargs=kwargs)


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


@pytest.mark.parametrize("lang", LANGS)
def test_index_lists_every_page(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/rules/").content.decode()
    for spec in PAGES:
        assert f'href="{_url(lang, spec)}"' in html, spec.slug


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
    # With the response's CSP nonce (tests/site/test_headers.py checks it is the header's).
    script = r'<script type="application/ld\+json" nonce="[^"]+">(.*?)</script>'
    match = re.search(script, html, re.S)
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



BOLD_NASTALIQ = "noto-nastaliq-urdu-arabic-700-normal"


def test_urdu_pages_with_bold_prose_fetch_the_bold_face_early_and_others_never(
    client: Client,
) -> None:
    # Lighthouse on /ur/rules/rung/: the bold file, found late, held back the largest
    # paint (performance 0.93; 0.95 with the preload).
    checked = 0
    for spec in PAGES:
        for lang in ("ur", "hi", "en"):
            html = client.get(_url(lang, spec)).content.decode()
            article = html[html.index("<article"):html.index("</article>")]
            preloads = f'rel="preload" href="/static/vendor/fonts/{BOLD_NASTALIQ}' in html
            assert preloads == (lang == "ur" and "<strong>" in article), (lang, spec.slug)
            checked += preloads
    assert checked >= 1  # the Urdu Rung page has bold prose
