"""The whole site in Urdu and Hindi: the catalogue covers every UI string in the repository
(each app's tests check their own folders too, so a failure there says whose strings are
missing), and the site's own pages show no English.

What counts as English left, and what the catalogue must hold: tests/language.py.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.language import catalogue_gaps, english_left

LANGS = ("ur", "hi")


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_covers_every_ui_string(lang: str) -> None:
    assert catalogue_gaps(lang) == [], f"see locale/{lang}/LC_MESSAGES/django.po"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_no_english_left_on_the_home_page(client: Client, lang: str) -> None:
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'href="/{lang}/rules/"' in html
    assert english_left(html, lang) == []
