"""Long names are cut with an ellipsis where they are shown (issue #26): a 40-character
display name and a 150-character username, neither with a space to wrap at, at the felt,
in the header and in the lobby, on a 390 px phone and a 1280 px screen, in Urdu and
English: each is cut (its box narrower than its text, ending in an ellipsis), and nothing
reaches past the screen's edge. A username longer than a display name may be is shown
cut to 40 characters with "…" (accounts.models.Profile.shown_name), in every sentence
that names the player too. Screenshots go to test-artifacts/long-names-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors

pytestmark = pytest.mark.browser

DISPLAY = "Shahzadi" * 5  # 40 characters, the most a display name may have
USERNAME = "p" + "q" * 149  # 150 characters, the most a username may have
SHOWN = USERNAME[:39] + "…"  # names are never shown longer than 40 (accounts.models)

SETUP = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
User = get_user_model()
host = User.objects.create_user("nazia", password="pw")
host.profile.display_name = "DISPLAY"
host.profile.save()
other = User.objects.create_user("USERNAME", password="pw")
c = Client()
c.force_login(host)
own = access.Owner(host, None)
t = lifecycle.create_table(game="courtpiece", owner=own, variant="rung", bots=[1, 3])
lifecycle.take_seat(table_id=t.pk, owner=access.Owner(other, None), seat=2)
lifecycle.start_table(table_id=t.pk, owner=own)
print("RESULT:" + json.dumps({"table": t.pk, "cookie": c.cookies["sessionid"].value}))
"""

CUT = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null).map(e => ({
  text: e.textContent.trim(), cut: e.scrollWidth > e.clientWidth + 1,
  ellipsis: getComputedStyle(e).textOverflow === 'ellipsis'}))"""


# What reaches past the screen's edge, to read a failure (the lobby's table scrolls in its box).
WIDE = """w => [...document.querySelectorAll('main *')]
  .filter(e => (e.getBoundingClientRect().right > w || e.getBoundingClientRect().left < 0)
    && !e.closest('.lobby-wrap > *'))
  .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))"""


def _cut(page: Any, selector: str, name: str) -> None:
    found = [e for e in page.evaluate(CUT, selector) if e["text"] == name]
    assert found, (selector, page.evaluate(CUT, selector))
    assert all(e["cut"] and e["ellipsis"] for e in found), found


@pytest.fixture(scope="module")
def setup(site: Site) -> dict[str, Any]:
    return site.manage(
        "shell", code=SETUP.replace("DISPLAY", DISPLAY).replace("USERNAME", USERNAME)
    )


@pytest.mark.parametrize("lang", ["ur", "en"])
def test_long_names_are_cut_with_an_ellipsis(
    browser: Any, site: Site, setup: dict[str, Any], artifacts_dir: Path, lang: str
) -> None:
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies([{"name": "sessionid", "value": setup["cookie"], "url": site.url}])
        page = context.new_page()
        errors = console_errors(page)
        page.goto(f"{site.url}/{lang}/play/{setup['table']}/")
        page.wait_for_selector("#table-live .felt")
        _cut(page, ".seat-name .who", SHOWN)  # the partner, across the table
        _cut(page, ".account-name", DISPLAY)
        wide = page.evaluate(WIDE, width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
        page.screenshot(path=str(artifacts_dir / f"long-names-table-{lang}-{width}.png"),
                        full_page=True)  # fmt: skip
        page.goto(f"{site.url}/{lang}/play/")
        page.wait_for_selector(".lobby-seats a")
        _cut(page, ".lobby-seats a", SHOWN)
        # (The lobby's own table scrolls inside its box, long names or not.)
        assert page.evaluate(WIDE, width) == []
        page.screenshot(path=str(artifacts_dir / f"long-names-lobby-{lang}-{width}.png"),
                        full_page=True)  # fmt: skip
        assert errors == []
        context.close()
