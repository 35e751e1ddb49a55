"""The guide in Urdu and Hindi: no English left on any of its pages, and a catalogue entry
for every UI string of guide/ (nav labels, headings, figure words).

What counts as English left, and what the catalogue must hold: tests/language.py.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from guide.pages import PAGES, PageSpec, url_name_and_kwargs
from tests.language import catalogue_gaps, english_left

LANGS = ("ur", "hi")


def _get(client: Client, lang: str, name: str, kwargs: dict[str, str] | None = None) -> str:
    with translation.override(lang):
        url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    return html


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.slug)
def test_no_english_left_on_a_guide_page(client: Client, lang: str, spec: PageSpec) -> None:
    name, kwargs = url_name_and_kwargs(spec)
    assert english_left(_get(client, lang, name, kwargs), lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_left_on_the_guide_index(client: Client, lang: str) -> None:
    assert english_left(_get(client, lang, "guide:index"), lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_covers_the_guide(lang: str) -> None:
    assert catalogue_gaps(lang, ["guide"]) == [], f"see locale/{lang}/LC_MESSAGES/django.po"
