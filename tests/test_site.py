"""The site shell: language prefixes, <html lang dir>, the switcher, the health check."""

import re

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "direction", "brand"),
    [("ur", "rtl", "بیٹھک"), ("hi", "ltr", "बैठक"), ("en", "ltr", "Baithak")],
)
def test_home_in_each_language(client: Client, lang: str, direction: str, brand: str) -> None:
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert brand in html
    # The switcher links to the same page in every language, including this one.
    for other in ("ur", "hi", "en"):
        assert re.search(rf'<a href="/{other}/" hreflang="{other}"', html)


@pytest.mark.django_db
def test_root_redirects_to_a_language(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="hi")
    assert response.status_code == 302
    assert response["Location"] == "/hi/"


@pytest.mark.django_db
def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


def test_urdu_page_has_no_english_ui_strings(client: Client) -> None:
    html = client.get("/ur/").content.decode()
    for english in ("Skip to content", "Learn and play", "sitting room"):
        assert english not in html
