"""Live backgammon in Debian's Chromium against a real daphne (issue #10): "Play now"
against GNU Backgammon, moves made by clicking checkers, one undone, the play confirmed,
a double offered; screenshots in three languages at 1280 and 390 px; axe finds no
serious or critical violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors

pytestmark = pytest.mark.browser

LIVE = "#table-live[data-game='backgammon']"
BOARD = "#bg-board-slot .bg-board:visible"


def play_now(page: Any, site: Site, lang: str) -> None:
    page.goto(f"{site.url}/{lang}/play/")
    page.locator("[data-testid='bg-play-now']").click()
    page.wait_for_url(f"{site.url}/{lang}/play/*/")
    page.wait_for_selector(LIVE)


def _version(page: Any) -> str:
    return str(page.locator("#table-live").get_attribute("data-version"))


def wait_my_turn(page: Any) -> str:
    """Wait until the player has something to do; which phase it is."""
    page.wait_for_selector(
        f"{LIVE}.my-turn, {LIVE} .hand-summary", timeout=30_000
    )
    if page.locator(f"{LIVE} .hand-summary").count():
        return "over"
    return str(page.locator("#table-live").get_attribute("class")).split("phase-")[1].split()[0]


def _steps(page: Any) -> str:
    return str(page.locator(BOARD).get_attribute("data-steps") or "")


def _click_step(page: Any) -> None:
    before = _steps(page)
    page.locator(f"{BOARD} .bg-src").first.click()
    page.locator(f"{BOARD} .bg-dst.bg-on").first.click()
    page.wait_for_function(
        "b => { const el = [...document.querySelectorAll('#bg-board-slot .bg-board')]"
        ".find(e => e.offsetParent !== null); return el && el.dataset.steps !== b; }",
        arg=before,
        timeout=15_000,
    )
    # The step is said in the page's live region, in words ("13 to 8").
    assert " to " in page.locator("#table-announce").inner_text() or "off" in page.locator(
        "#table-announce").inner_text()


def _move_by_clicks(page: Any, undo: bool) -> None:
    before = _version(page)
    if page.locator(f"{LIVE} .bg-forced-play").count():
        page.locator(f"{LIVE} .bg-forced-play").click()
    else:
        _click_step(page)
        if undo:
            page.locator(f"{BOARD} [data-bg-action='undo']").click()
            page.wait_for_function(
                "() => [...document.querySelectorAll('#bg-board-slot .bg-board')]"
                ".find(e => e.offsetParent !== null).dataset.steps === ''",
                timeout=15_000,
            )
        while not page.locator(f"{BOARD} [data-bg-action='confirm']").count():
            _click_step(page)
        page.locator(f"{BOARD} [data-bg-action='confirm']").click()
    page.wait_for_function(
        "v => document.getElementById('table-live').dataset.version !== v",
        arg=before, timeout=20_000,
    )


def test_bg_play_now_click_moves_undo_confirm_and_double(page: Any, site: Site) -> None:
    errors = console_errors(page)
    play_now(page, site, "en")
    # A guest's home side is a per-browser choice: flipped, drawn there, kept on reload.
    root = page.locator(".table-page")
    assert root.get_attribute("data-bg-home") == "right"
    page.locator("#bg-flip").click()
    assert root.get_attribute("data-bg-home") == "left"
    assert page.locator("#bg-board-slot .bg-home-left .bg-board").is_visible()
    assert not page.locator("#bg-board-slot .bg-home-right .bg-board").is_visible()
    page.reload()
    page.wait_for_selector(LIVE)
    assert page.locator(".table-page").get_attribute("data-bg-home") == "left"
    page.locator("#bg-flip").click()  # back to the right for the rest
    undone = doubled = False
    for _ in range(30):
        phase = wait_my_turn(page)
        if phase == "over":
            break
        before = _version(page)
        if phase == "roll":
            button = "double" if not doubled and page.locator(
                f"{LIVE} button[data-action='double']").count() else "roll"
            doubled = doubled or button == "double"
            page.locator(f"{LIVE} button[data-action='{button}']").click()
            page.wait_for_function(
                "v => document.getElementById('table-live').dataset.version !== v",
                arg=before, timeout=20_000,
            )
        elif phase == "move":
            _move_by_clicks(page, undo=not undone)
            undone = True
        else:
            page.locator(f"{LIVE}.my-turn .bg-choices button").first.click()
            page.wait_for_function(
                "v => document.getElementById('table-live').dataset.version !== v",
                arg=before, timeout=20_000,
            )
        if undone and doubled:
            break
    assert undone, "no move was made by clicking"
    assert doubled or page.locator(f"{LIVE} .hand-summary").count()
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_bg_screenshots_and_axe_in_every_language(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        errors = console_errors(page)
        play_now(page, site, lang)
        for _ in range(10):
            phase = wait_my_turn(page)
            if phase == "move" or phase == "over":
                break
            before = _version(page)
            page.locator(f"{LIVE}.my-turn .choices button[data-action='roll'], "
                         f"{LIVE}.my-turn .bg-choices button").first.click()
            page.wait_for_function(
                "v => document.getElementById('table-live').dataset.version !== v",
                arg=before, timeout=20_000,
            )
        if page.locator(f"{BOARD} .bg-src").count():
            page.locator(f"{BOARD} .bg-src").first.click()  # show where it can go
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts_dir / f"bg-{lang}-{width}.png"), full_page=True)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        if width == 390:
            # a phone: the board spans the screen, so a point (48 of the 780 units) is 24 px
            box = page.locator(f"{BOARD} .bg-svg").bounding_box()
            assert box is not None and box["width"] >= width - 1, box
            assert box["width"] * 48 / 780 >= 23.9
        results = Axe().run(page)
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], bad
        assert errors == []
        context.close()
