"""About, privacy, terms and contact: in every language, in the sitemap, linked from the
footer; the contact address comes from CONTACT_EMAIL; "More from the guide" never lists the
page being read."""

from __future__ import annotations

import re

import pytest
from django.core import checks
from django.test import Client, override_settings

from guide.pages import GUIDE_PAGES, SITE_SLUGS

pytestmark = pytest.mark.django_db
LANGS = ("ur", "hi", "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SITE_SLUGS)
def test_site_page_answers_in_its_language(client: Client, lang: str, slug: str) -> None:
    response = client.get(f"/{lang}/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    # Linked from every page's footer, in the same language.
    assert f'href="/{lang}/{slug}/"' in client.get(f"/{lang}/rules/rung/").content.decode()


def test_unknown_site_page_is_404(client: Client) -> None:
    assert client.get("/en/imprint/").status_code == 404


@override_settings(CONTACT_EMAIL="help@baithak.example")
@pytest.mark.parametrize("lang", LANGS)
def test_contact_page_gives_the_configured_address(client: Client, lang: str) -> None:
    html = client.get(f"/{lang}/contact/").content.decode()
    assert 'href="mailto:help@baithak.example"' in html


def test_privacy_names_what_we_store_and_every_cookie(client: Client) -> None:
    for lang in LANGS:
        html = client.get(f"/{lang}/privacy/").content.decode()
        for cookie in ("sessionid", "csrftoken", "django_language", "messages"):
            assert f">{cookie}</code>" in html, (lang, cookie)


# Numbers as the privacy pages could write them before the word for cookie.
NUMBER_WORDS = {
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight"),
    "hi": ("एक", "दो", "तीन", "चार", "पाँच", "छह", "सात", "आठ"),
    "ur": ("ایک", "دو", "تین", "چار", "پانچ", "چھ", "سات", "آٹھ"),
}
COOKIE_WORD = {"en": "cookie", "hi": "कुकी", "ur": "کوکی"}


def cookie_rows(text: str) -> list[str]:
    """The cookie names in the privacy page's table, one per row (`| `name`… |`)."""
    return re.findall(r"^\| `(\w+)`", text, re.M)


def cookie_counts_written(lang: str, text: str) -> list[int]:
    """Every "<number> cookies" the page's prose (title, description, body) says."""
    words = "|".join(NUMBER_WORDS[lang])
    found = re.findall(rf"(?<!\w)({words})\s+(?:\w+\s+)?{COOKIE_WORD[lang]}", text, re.I)
    return [NUMBER_WORDS[lang].index(w.lower()) + 1 for w in found]


def test_privacy_says_as_many_cookies_as_its_table_lists_in_every_language() -> None:
    from django.conf import settings
    from django.contrib.messages.storage.cookie import CookieStorage

    from guide.content import CONTENT_DIR

    # What the site really sets: the session, CSRF and language cookies and the messages one.
    sets = {
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        CookieStorage.cookie_name,
    }
    for lang in LANGS:
        text = (CONTENT_DIR / lang / "privacy.md").read_text(encoding="utf-8")
        rows = cookie_rows(text)
        assert set(rows) == sets and len(rows) == len(sets), lang
        assert all(n == len(rows) for n in cookie_counts_written(lang, text)), lang
    english = (CONTENT_DIR / "en" / "privacy.md").read_text(encoding="utf-8")
    assert cookie_counts_written("en", english) == [len(sets)]  # the description says it


def test_a_wrong_cookie_count_is_caught() -> None:
    assert cookie_counts_written("en", "and the three cookies the site sets") == [3]
    assert cookie_counts_written("hi", "साइट चार कुकीज़ रखती है") == [4]
    assert cookie_counts_written("ur", "سائٹ تین کوکیز رکھتی ہے") == [3]
    assert cookie_rows("| `a` | x |\n| `b` | y |\n") == ["a", "b"]


def test_about_links_the_house_rules(client: Client) -> None:
    for lang in LANGS:
        assert f'href="/{lang}/house-rules/"' in client.get(f"/{lang}/about/").content.decode()


def test_sitemap_lists_the_site_pages_with_hreflang(client: Client) -> None:
    xml = client.get("/sitemap.xml").content.decode()
    for slug in SITE_SLUGS:
        for lang in LANGS:
            assert f"<loc>http://testserver/{lang}/{slug}/</loc>" in xml
            assert f'hreflang="{lang}" href="http://testserver/{lang}/{slug}/"' in xml


def test_site_pages_stay_out_of_the_guide_index(client: Client) -> None:
    html = client.get("/en/rules/").content.decode()
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    for slug in SITE_SLUGS:
        assert f'href="/en/{slug}/"' not in main


@pytest.mark.parametrize("lang", LANGS)
def test_more_from_the_guide_leaves_out_the_current_page(client: Client, lang: str) -> None:
    from django.urls import reverse
    from django.utils import translation

    from guide.pages import url_name_and_kwargs

    for spec in GUIDE_PAGES:
        name, kwargs = url_name_and_kwargs(spec)
        with translation.override(lang):
            url = reverse(name, kwargs=kwargs)
        html = client.get(url).content.decode()
        more = html.split('class="guide-more"', 1)[1].split("</nav>", 1)[0]
        links = re.findall(r'href="([^"]+)"', more)
        assert url not in links
        assert len(links) == len(GUIDE_PAGES) - 1


@override_settings(DEBUG=False, CONTACT_EMAIL="contact@baithak.localhost")
def test_production_warns_about_a_local_contact_address() -> None:
    ids = [m.id for m in checks.run_checks(tags=["guide"])]
    assert "guide.W001" in ids


@override_settings(DEBUG=False, CONTACT_EMAIL="help@baithak.example")
def test_production_with_a_real_contact_address_is_quiet() -> None:
    assert [m.id for m in checks.run_checks(tags=["guide"])] == []
