"""A newcomer's way back to their game, in Debian's Chromium against a real daphne: Play
now a second time offers the game in progress ("Continue your game") instead of a new
table; the phone menu leads to "Your games", whose rows say the hand, the score and when
it was last played; the lobby names each game's bot menu. Screenshots in three languages
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


def test_play_now_again_offers_the_game_and_the_menu_leads_to_it(
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
    table_id = table_path.split("/")[-2]
    # Play now again, from the lobby: the game in progress is offered first.
    page.goto(f"{site.url}/en/play/")
    page.locator("[data-testid='cp-play-now']").click()
    page.wait_for_selector("[data-testid='play-now-choice']")
    assert "Score: you" in page.locator("[data-testid='play-now-choice']").inner_text()
    page.locator("[data-testid='continue-game']").click()
    page.wait_for_url(f"{site.url}{table_path}")
    page.wait_for_selector("#table-live .felt")
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT[width]})
            page.goto(f"{site.url}/{lang}/play/")
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"way-lobby-{lang}-{width}.png"))
            row = page.locator(f"[data-testid='your-games'] li[data-table='{table_id}']")
            assert row.locator("[data-testid='your-game-score']").count() == 1
            assert row.locator("[data-testid='your-game-ago']").count() == 1
            row.screenshot(path=str(artifacts_dir / f"way-row-{lang}-{width}.png"))
            page.locator("[data-testid='cp-play-now']").click()
            page.wait_for_selector("[data-testid='play-now-choice']")
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"way-choice-{lang}-{width}.png"))
            if width == 390:  # the phone's menu: "Your games" is in it
                page.goto(f"{site.url}/{lang}/")
                page.locator(".site-menu summary").click()
                link = page.locator(".site-menu [data-testid='nav-your-games']")
                link.wait_for()
                page.screenshot(path=str(artifacts_dir / f"way-menu-{lang}-{width}.png"))
                link.click()
                page.wait_for_url(f"{site.url}/{lang}/play/#your-games-h")
                page.locator("[data-testid='your-games']").wait_for()
    assert errors == []
    context.close()
