"""Our own 404 and 500 pages, in the visitor's language, with DEBUG off; HEAD like GET."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

TITLES = {"ur": "صفحہ نہیں ملا", "hi": "पन्ना नहीं मिला", "en": "Page not found"}
FAULT = {"ur": "کچھ گڑبڑ ہو گئی", "hi": "कुछ गड़बड़ हो गई", "en": "Something went wrong"}
DIRECTION = {"ur": "rtl", "hi": "ltr", "en": "ltr"}


@override_settings(DEBUG=False)
@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_unknown_page_is_our_404_in_the_address_language(lang: str) -> None:
    response = Client().get(f"/{lang}/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{lang}" dir="{DIRECTION[lang]}">' in html
    assert f"<h1>{TITLES[lang]}</h1>" in html
    assert 'name="robots" content="noindex"' in html


@override_settings(DEBUG=False)
@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_unknown_rules_page_is_our_404_too(lang: str) -> None:
    response = Client().get(f"/{lang}/rules/poker/")
    assert response.status_code == 404
    assert f"<h1>{TITLES[lang]}</h1>" in response.content.decode()


@override_settings(DEBUG=False)
@pytest.mark.parametrize(("accept", "lang"), [("hi", "hi"), ("ur,en;q=0.5", "ur"), ("", "en")])
def test_address_without_a_language_gets_the_preferred_one(accept: str, lang: str) -> None:
    response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 404
    assert f'<html lang="{lang}"' in response.content.decode()


@override_settings(DEBUG=False)
def test_signed_in_players_404_is_in_their_saved_language() -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("meera", "meera@example.com", "x-long-pass-1")
    user.profile.language = "hi"
    user.profile.save()
    client = Client()
    client.force_login(user)
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="ur")
    assert f"<h1>{TITLES['hi']}</h1>" in response.content.decode()


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.error_urls")
@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_a_fault_is_our_500_in_the_address_language(lang: str) -> None:
    response = Client(raise_request_exception=False).get(f"/{lang}/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    assert f'<html lang="{lang}" dir="{DIRECTION[lang]}">' in html
    assert f"<h1>{FAULT[lang]}</h1>" in html
    assert "contact@" in html  # where to write, from settings.CONTACT_EMAIL


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.error_urls")
def test_500_without_a_language_in_the_address_follows_accept_language() -> None:
    response = Client(raise_request_exception=False).get("/broken/", HTTP_ACCEPT_LANGUAGE="ur")
    assert response.status_code == 500
    assert f"<h1>{FAULT['ur']}</h1>" in response.content.decode()


@override_settings(DEBUG=False)
def test_head_answers_like_get(caplog: pytest.LogCaptureFixture) -> None:
    client = Client()
    for path in ("/", "/robots.txt", "/en/rules/rung/", "/ur/about/", "/hi/glossary/"):
        get, head = client.get(path, HTTP_ACCEPT_LANGUAGE="hi"), client.head(
            path, HTTP_ACCEPT_LANGUAGE="hi"
        )
        assert head.status_code == get.status_code, path
        assert head.get("Location") == get.get("Location"), path
        assert head.content == b""
    assert not [r for r in caplog.records if "Method Not Allowed" in r.getMessage()]


def test_pages_still_refuse_writes(client: Client) -> None:
    assert client.post("/").status_code == 405
    assert client.post("/en/about/").status_code == 405


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.error_urls")
@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_error_pages_leave_no_english(lang: str) -> None:
    from tests.language import english_left

    client = Client(raise_request_exception=False)
    for path, status in ((f"/{lang}/no-such-page/", 404), (f"/{lang}/broken/", 500)):
        response = client.get(path)
        assert response.status_code == status
        # The contact address is an address, not a word (it carries lang="zxx").
        assert english_left(response.content.decode(), lang) == [], path
