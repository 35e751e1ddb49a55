"""The Content-Security-Policy and the Permissions-Policy (issue #26): every page carries
both; a page's <script> and <style> elements carry that response's nonce, and no page has
a style="" attribute or an on…="" handler, which the policy would refuse (the browser
test, tests/browser/test_csp.py, watches real pages for refusals)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from game.models import Table
from tests.courtpiece.play import play_out_first_hand

pytestmark = pytest.mark.django_db

PAGES = [
    "/{lang}/",
    "/{lang}/rules/",
    "/{lang}/rules/rung/",
    "/{lang}/rules/backgammon/",
    "/{lang}/faq/",
    "/{lang}/faq/court-piece/",
    "/{lang}/glossary/",
    "/{lang}/learn/",
    "/{lang}/learn/follow-suit/",
    "/{lang}/learn/bg-moving/",
    "/{lang}/play/",
    "/{lang}/play/new/",
    "/{lang}/accounts/login/",
    "/{lang}/accounts/signup/",
    "/{lang}/accounts/password/reset/",
    "/{lang}/no-such-page/",
]
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b([^>]*)>", re.IGNORECASE)
INLINE_ATTRIBUTE = re.compile(r"""<[^>]*\s(style|on[a-z]+)\s*=\s*["']""", re.IGNORECASE)


def _policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        part.split()[0]: part.split()[1:]
        for part in (p.strip() for p in header.split(";"))
        if part
    }


def _check_page(response: Any) -> None:
    html = response.content.decode()
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    for directive in ("script-src", "style-src"):
        assert "'unsafe-inline'" not in policy[directive]
        assert "'unsafe-eval'" not in policy[directive]
    nonces = {v[len("'nonce-") : -1] for v in policy["script-src"] if v.startswith("'nonce-")}
    for tag, attributes in SCRIPT_OR_STYLE.findall(html):
        if tag.lower() == "script" and "src=" in attributes:
            continue  # our own file: 'self'
        if tag.lower() == "script" and 'type="application/json"' in attributes:
            continue  # a data block (Django's json_script): never run, so no policy applies
        found = re.search(r'nonce="([^"]+)"', attributes)
        assert found, f"<{tag}{attributes}> has no nonce"
        assert found.group(1) in nonces
    assert INLINE_ATTRIBUTE.findall(html) == []
    assert "Permissions-Policy" in response
    features = dict(p.strip().split("=", 1) for p in response["Permissions-Policy"].split(","))
    assert features["camera"] == features["microphone"] == features["geolocation"] == "()"


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_every_main_page_carries_both_policies_and_nothing_inline_without_a_nonce(
    client: Client, lang: str
) -> None:
    for path in PAGES:
        response = client.get(path.format(lang=lang))
        assert response.status_code in (200, 404), path
        _check_page(response)


def test_the_tables_pages_and_a_replay_too(client: Client, settings: Any) -> None:
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0
    client.post("/en/play/now/")
    table = Table.objects.latest("created_at")
    play_out_first_hand(table)
    for path in (f"/en/play/{table.pk}/", f"/en/play/{table.pk}/replay/1/"):
        response = client.get(path)
        assert response.status_code == 200, path
        _check_page(response)
    client.post("/en/play/now/", {"game": "backgammon"})
    bg = Table.objects.latest("created_at")
    assert bg.game == "backgammon"
    response = client.get(f"/en/play/{bg.pk}/")
    assert response.status_code == 200
    _check_page(response)
    assert 'direction="ltr"' in response.content.decode()  # the board, without style=""


def test_a_page_with_an_inline_script_gets_a_fresh_nonce_each_time(client: Client) -> None:
    """The FAQ's structured data is an inline <script>: its nonce is the header's, and a new
    one each response (a nonce that repeats is no nonce)."""
    seen = set()
    for _ in range(2):
        response = client.get("/en/faq/court-piece/")
        html = response.content.decode()
        nonce = re.search(r'<script type="application/ld\+json" nonce="([^"]+)"', html)
        assert nonce, "the FAQ's structured data has no nonce"
        assert f"'nonce-{nonce.group(1)}'" in _policy(response)["script-src"]
        seen.add(nonce.group(1))
    assert len(seen) == 2


def test_the_500_page_keeps_its_style_under_the_policy(client: Client, settings: Any) -> None:
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.site.error_urls"
    client.raise_request_exception = False
    response = client.get("/en/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    nonce = re.search(r'<style nonce="([^"]+)">', html)
    assert nonce, "the 500 page's <style> has no nonce"
    assert f"'nonce-{nonce.group(1)}'" in _policy(response)["style-src"]
