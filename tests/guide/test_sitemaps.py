"""guide.sitemaps: sitemap.xml lists every guide page in every language, with alternates."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from guide.pages import PAGES

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


@pytest.mark.django_db
def test_sitemap_lists_every_page_in_every_language(client: Client) -> None:
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    root = ET.fromstring(response.content)
    locs = {u.findtext("s:loc", namespaces=NS) for u in root.findall("s:url", NS)}
    base = "http://testserver"
    for lang in ("ur", "hi", "en"):
        assert f"{base}/{lang}/" in locs
        assert f"{base}/{lang}/rules/" in locs
        assert f"{base}/{lang}/rules/hidden-rung/" in locs
        assert f"{base}/{lang}/faq/court-piece/" in locs
        assert f"{base}/{lang}/faq/" in locs  # the index of every FAQ
        assert f"{base}/{lang}/glossary/" in locs
        assert f"{base}/{lang}/house-rules/" in locs
    # The lessons have their own section (tutorials.sitemaps, tests/tutorials/test_pages.py).
    # Beside the pages: the home page, the rules index and the FAQ index.
    assert len({loc for loc in locs if "/learn/" not in loc}) == 3 * (len(PAGES) + 3)


@pytest.mark.django_db
def test_sitemap_entries_carry_hreflang_alternates(client: Client) -> None:
    root = ET.fromstring(client.get("/sitemap.xml").content)
    for url in root.findall("s:url", NS):
        links = {
            link.get("hreflang"): link.get("href") for link in url.findall("x:link", NS)
        }
        assert set(links) == {"ur", "hi", "en", "x-default"}, url.findtext("s:loc", namespaces=NS)
        assert url.findtext("s:loc", namespaces=NS) in links.values()
