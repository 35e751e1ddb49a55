"""The board in headless Chromium: screenshots in three languages at 1280 and 390 px
(written to test-artifacts/ and looked at), and the keyboard and mouse paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.backgammon.board_pages import boards

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_screenshots(browser, artifacts_dir: Path, tmp_path: Path, lang: str) -> None:
    for name, html in boards(lang).items():
        path = tmp_path / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            # the board fills its column and keeps its proportions on a phone
            box = page.locator(".bg-svg").bounding_box()
            assert box is not None and box["width"] <= width and box["height"] > box["width"] * 0.6
            page.screenshot(
                path=str(artifacts_dir / f"bgboard-{lang}-{name}-{width}.png"), full_page=True
            )
            context.close()


def test_keyboard_pick_and_move(browser, tmp_path: Path) -> None:
    path = tmp_path / "kb.html"
    path.write_text(boards("en")["complete"].replace("", ""), encoding="utf-8")
    html = boards("en")
    path.write_text(html["opening-pick"], encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(path.as_uri())
    # Tab reaches the first movable checker; arrows go between checkers
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.from") == "24"
    # the focus is visible: the checker's ring turns solid amber
    ring = "getComputedStyle(document.activeElement.querySelector('.bg-ring'))"
    assert page.evaluate(f"{ring}.stroke") == "rgb(216, 155, 0)"
    assert page.evaluate(f"{ring}.strokeDasharray") == "none"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.from") == "13"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    # focus is on the checker's first destination; arrows cycle its destinations only
    assert page.evaluate(
        "[document.activeElement.dataset.from, document.activeElement.dataset.to]"
    ) == ["24", "18"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.to") == "13"
    page.keyboard.press("Enter")
    assert page.evaluate("window.bgEvents") == [
        ["bg:step", {"from": 24, "to": 13, "die": 6, "dice": [6, 5]}]
    ]
    # mouse: a destination wins the click (13 is one for 24), so first drop the pick by
    # clicking the picked checker again, then pick 13: its destinations show, 24's do not
    page.locator('.bg-src[data-from="24"]').click()
    assert page.locator(".bg-dst.bg-on").count() == 0
    page.locator('.bg-src[data-from="13"]').click()
    assert page.locator('.bg-dst.bg-on[data-from="13"]').count() == 3
    assert page.locator('.bg-dst.bg-on[data-from="24"]').count() == 0
    page.locator('.bg-dst.bg-on[data-to="8"]').click()
    assert page.evaluate("window.bgEvents[1]") == [
        "bg:step",
        {"from": 13, "to": 8, "die": 5, "dice": [5]},
    ]
    context.close()


def test_confirm_and_undo_buttons_raise_events(browser, tmp_path: Path) -> None:
    path = tmp_path / "done.html"
    path.write_text(boards("en")["complete"], encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(path.as_uri())
    page.get_by_role("button", name="Undo").click()
    page.get_by_role("button", name="Confirm move").click()
    assert page.evaluate("window.bgEvents") == [["bg:undo", {}], ["bg:confirm", {"play": "24/13"}]]
    # the checker's whole way this turn, every hop (a 6-5 taking one checker 24 to 13)
    assert page.locator(".bg-live").inner_text() == "24 to 18; 18 to 13"
    context.close()
