"""Leaving a table keeps the game the player's, in Debian's Chromium against a real daphne:
a guest presses Leave at a Play-now table and finds the game again from the home page's
"Your games", and opens it; a player who left a table with a friend watches it, named
"… (left — a bot took over)", and takes their seat back. Screenshots in three languages
at 1280 and 390 px go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors, fits_the_screen

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
LANGS = ("en", "ur", "hi")
HEIGHT = {1280: 800, 390: 844}


def _in_view(page: Any, selector: str) -> None:
    """``selector`` is on the first screen, without scrolling."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)


def test_a_guest_leaves_play_now_and_finds_the_game_again(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/en/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/en/play/*/")
    page.wait_for_selector("#table-live .felt")
    table_path = page.url.removeprefix(site.url)
    leave = page.locator(".leave-button")
    assert leave.inner_text() == "Leave (the game ends)"  # every other seat is a bot
    leave.click()  # only asks: one tap on a phone ended a game
    assert page.get_by_test_id("leave-yes").is_visible()
    assert page.locator("[data-testid='left-offer']").count() == 0
    assert page.locator("#table-live").get_attribute("data-seat") != ""
    page.get_by_test_id("leave-yes").click()
    page.wait_for_selector("[data-testid='left-offer']")
    assert "You left this game before it ended." in page.locator(
        "[data-testid='left-offer']"
    ).inner_text()
    assert page.locator("#table-live").get_attribute("data-seat") == ""  # a spectator now
    # Away, then home: the way back is the box, under Finished.
    page.goto(f"{site.url}/en/rules/")
    page.goto(f"{site.url}/en/")
    box = page.locator("[data-testid='your-games']")
    box.wait_for()
    row = box.locator(f"li[data-table='{table_path.split('/')[-2]}']")
    assert "You left before the end" in row.inner_text()
    row.locator(f"a[href='{table_path}']").click()
    page.wait_for_url(f"{site.url}{table_path}")
    page.wait_for_selector("#table-live .felt")
    page.wait_for_selector("[data-testid='left-offer']")
    assert page.locator("#table-live").get_attribute("data-seat") == ""
    assert errors == []
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT[width]})
            page.goto(f"{site.url}/{lang}/")
            box = page.locator("[data-testid='your-games']")
            box.scroll_into_view_if_needed()
            assert box.locator(f"a[href='/{lang}{table_path[3:]}']").count() == 1
            fits_the_screen(page)
            box.screenshot(path=str(artifacts_dir / f"leave-home-{lang}-{width}.png"))
            page.goto(f"{site.url}/{lang}{table_path[3:]}")
            page.wait_for_selector("#table-live .felt")
            _in_view(page, "[data-testid='left-offer']")
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"leave-table-{lang}-{width}.png"))
    assert errors == []
    context.close()


SETUP = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
users = get_user_model().objects
host = users.create_user("ammi_jaan", "ammi@example.com", "a long quiet pw")
friend = users.create_user("chhoti", "chhoti@example.com", "a long quiet pw")
t = lifecycle.create_table(
    game="courtpiece", owner=access.Owner(host, None), private=True, bots=[1, 3],
    move_seconds=None,
)
lifecycle.take_seat(table_id=t.pk, owner=access.Owner(friend, None), seat=2, invite=t.invite)
lifecycle.start_table(table_id=t.pk, owner=access.Owner(host, None))
c = Client()
c.force_login(friend)
print("RESULT:" + json.dumps({"table": t.pk, "cookie": c.cookies["sessionid"].value}))
"""


def test_a_player_who_left_watches_and_takes_their_seat_back(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    setup = site.manage("shell", code=SETUP)
    table = setup["table"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": "sessionid", "value": setup["cookie"], "url": site.url}])
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/en/play/{table}/")
    page.wait_for_selector("#table-live .felt")
    assert page.locator("#table-live").get_attribute("data-seat") == "2"
    leave = page.locator(".leave-button")
    assert leave.inner_text() == "Leave (a bot plays on)"  # the host plays on
    leave.click()
    page.get_by_test_id("leave-yes").click()
    page.wait_for_selector("[data-testid='left-offer'] .take-back-button")
    assert page.locator("#table-live").get_attribute("data-seat") == ""
    # The table names them, not "Bot (North)", and says that they left.
    north = page.locator("#table-live section.seat[data-seat='2']")
    assert north.locator(".who").inner_text() == "chhoti"
    assert north.locator(".left-badge").inner_text() == "Left the table"
    assert north.get_attribute("aria-label") == "chhoti (left — a bot took over)"
    names = page.locator("#table-live .seat .who").all_inner_texts()
    assert not any("Bot (North)" in n for n in names), names
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT[width]})
            page.goto(f"{site.url}/{lang}/play/{table}/")
            page.wait_for_selector("[data-testid='left-offer'] .take-back-button")
            _in_view(page, "[data-testid='left-offer'] .take-back-button")
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"leave-take-back-{lang}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site.url}/en/play/{table}/")
    page.locator("[data-testid='left-offer'] .take-back-button").click()
    page.wait_for_selector("#table-live[data-seat='2']")
    assert page.locator("[data-testid='left-offer']").count() == 0
    assert page.locator(".leave-button").count() == 1
    assert errors == []
    context.close()
