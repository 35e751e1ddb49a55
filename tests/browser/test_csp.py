"""The Content-Security-Policy in a real browser (issue #26): Debian's Chromium walks the
main pages on a real daphne (home, rules, FAQ, lessons answered through htmx, the lobby's
socket, a Court Piece table played from, a backgammon table rolled at, a finished hand's
replay, the account pages signed out and in) and the browser refuses nothing, says no
error in the console, and every page was served under the policy. A deliberate inline
style shows the watch really sees a refusal."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.site import Site, console_errors

pytestmark = pytest.mark.browser

# Every refusal, whatever its kind (script, style, attribute, socket, font, image).
WATCH = """document.addEventListener('securitypolicyviolation', e =>
  window.__cspRefused(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`));"""

SETUP = r"""
import json, random
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
from tests.playing import play_out
user = get_user_model().objects.create_user("saima", password="pw")
client = Client()
client.force_login(user)
owner = access.Owner(user, None)
table = lifecycle.play_now(owner=owner, game="courtpiece")
rng = random.Random(7)
play_out(table, owner, done=lambda m: bool(m.hands), choose=lambda m, legal: rng.choice(legal))
print("RESULT:" + json.dumps({"table": table.pk, "cookie": client.cookies["sessionid"].value}))
"""


class Watch:
    """One page's refusals and console errors, from every document it opens."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.refused: list[str] = []
        self.errors = console_errors(page)
        self.unguarded: list[str] = []
        page.expose_function("__cspRefused", self._refused)
        page.add_init_script(WATCH)
        page.on("response", self._response)
        self.where: list[str] = []  # where each console error came from, to read a failure
        page.on("console", lambda m: self.where.append(f"{m.text} at {m.location} on {page.url}")
                if m.type == "error" else None)

    def _refused(self, what: str) -> None:
        self.refused.append(what)

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.errors.append(f"{response.status} {response.url}")
        document = response.request.resource_type == "document" and response.status < 300
        if document and "content-security-policy" not in response.headers:
            self.unguarded.append(response.url)

    def visit(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_load_state("load")


@pytest.fixture()
def setup(site: Site) -> dict[str, Any]:
    return site.manage("shell", code=SETUP)


def test_the_browser_refuses_nothing_on_the_main_pages(
    browser: Any, site: Site, setup: dict[str, Any]
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = Watch(page)
    base = site.url
    for path in ("/en/", "/ur/", "/hi/rules/", "/en/rules/rung/", "/en/faq/court-piece/",
                 "/en/learn/", "/en/accounts/login/", "/en/accounts/signup/",
                 "/en/accounts/password/reset/"):
        watch.visit(base + path)
    # A lesson answered, wrongly then rightly: htmx swaps the feedback in.
    watch.visit(f"{base}/en/learn/follow-suit/")
    page.locator("button[name=answer]").first.click()
    page.wait_for_selector("#feedback .feedback--wrong, #feedback .feedback--right")
    # The lobby and its socket.
    watch.visit(f"{base}/en/play/")
    page.wait_for_timeout(500)
    # A Court Piece table: the socket's frames swapped in, a move made if one is ours.
    watch.visit(f"{base}/en/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{base}/en/play/*/")
    page.wait_for_selector("#table-live .felt")
    move = page.locator("#table-live.my-turn .hand-cards button.card, "
                        "#table-live.my-turn .choices button:visible")
    # The bots' frames come first; a move of ours unless a redeal ends the hand before.
    with contextlib.suppress(PlaywrightTimeout):
        move.first.wait_for(timeout=15_000)
    if move.count():
        before = page.locator("#table-live").get_attribute("data-version")
        move.first.click()
        page.wait_for_function(
            "v => document.getElementById('table-live').dataset.version !== v",
            arg=before, timeout=20_000,
        )
    # A backgammon table: roll, and its board fetched by htmx.
    watch.visit(f"{base}/en/play/")
    page.locator("[data-testid='bg-play-now']").click()
    page.wait_for_url(f"{base}/en/play/*/")
    page.wait_for_selector("#table-live[data-game='backgammon']")
    page.wait_for_selector("#bg-board-slot .bg-board", state="attached", timeout=20_000)
    # Signed in: the profile, and the finished hand's replay.
    context.add_cookies([{"name": "sessionid", "value": setup["cookie"], "url": base}])
    watch.visit(f"{base}/en/accounts/profile/")
    watch.visit(f"{base}/en/players/saima/")
    watch.visit(f"{base}/en/play/{setup['table']}/replay/1/")
    page.wait_for_selector(".hand-summary")
    assert watch.refused == []
    assert watch.errors == [], watch.where
    assert watch.unguarded == []
    # The watch sees a refusal: a style attribute set by a script is refused.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color:red\">x</p>')")
    page.wait_for_timeout(300)
    assert any(r.startswith("style-src") for r in watch.refused), watch.refused
    context.close()
