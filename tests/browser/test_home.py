"""The home page and the header in a real browser, in each language, on a 390 px phone and
a 1280 px screen: the header is one row (a Menu disclosure on the phone that opens without
JavaScript and shows every link), nothing scrolls sideways, axe finds no serious or
critical violation. Screenshots go to test-artifacts/home-<lang>-<width>.png (and the open
menu to home-<lang>-390-menu.png) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGS = [("ur", "rtl"), ("hi", "ltr"), ("en", "ltr")]
NAV = ("play/", "learn/", "rules/", "faq/")

# The boxes of the header's visible children: one row means they all share a line.
HEADER_ROWS = """() => {
  const header = document.querySelector('.site-header');
  const items = '.brand, summary, .site-nav a, .lang-switcher a, .account-nav a';
  const boxes = [...header.querySelectorAll(items)]
    .filter(e => e.checkVisibility({visibilityProperty: true}))
    .map(e => e.getBoundingClientRect());
  const tops = boxes.map(r => r.top), bottoms = boxes.map(r => r.bottom);
  return {count: boxes.length, spread: Math.max(...tops) - Math.min(...tops),
          overlap: Math.min(...bottoms) - Math.max(...tops),
          height: header.getBoundingClientRect().height};
}"""


def _shown(page: object, selector: str) -> bool:
    """Really drawn: checkVisibility() is false inside a closed <details> (its content is
    content-visibility: hidden, which keeps boxes that Playwright's is_visible counts)."""
    return bool(page.locator(selector).first.evaluate(  # type: ignore[attr-defined]
        "e => e.checkVisibility({visibilityProperty: true})"
    ))


def _visible_nav(page: object, lang: str) -> list[str]:
    return [path for path in NAV if _shown(page, f'.site-nav a[href="/{lang}/{path}"]')]


def _serious(axe: Axe, page: object) -> list[str]:
    violations = axe.run(page).response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']]}"
        for v in violations if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(("lang", "direction"), LANGS)
@pytest.mark.parametrize("width", [390, 1280])
def test_home_header_is_one_row_with_a_working_menu(
    browser: object, live_server: object, artifacts_dir: Path, lang: str, direction: str,
    width: int,
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(f"{live_server.url}/{lang}/")
    assert response is not None and response.status == 200
    assert page.get_attribute("html", "dir") == direction
    page.evaluate("document.fonts.ready")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{lang} at {width}px scrolls sideways by {overflow}px"
    rows = page.evaluate(HEADER_ROWS)
    # Every visible header item overlaps every other vertically: a single row.
    assert rows["overlap"] > 0, rows
    summary = page.locator(".site-menu > summary")
    if width == 390:
        # Closed, only the brand and Menu show; the header stays one short row.
        assert rows["count"] == 2, rows
        assert rows["height"] < 80, rows
        assert _visible_nav(page, lang) == []
        assert page.locator("[data-testid='home-play-now']").is_visible()
        page.screenshot(path=str(artifacts_dir / f"home-{lang}-{width}.png"), full_page=True)
        summary.click()
        assert _visible_nav(page, lang) == list(NAV)
        assert _shown(page, f'.account-nav a[href="/{lang}/accounts/login/"]')
        assert _shown(page, '.lang-switcher a[hreflang="ur"]')
        page.screenshot(path=str(artifacts_dir / f"home-{lang}-{width}-menu.png"))
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert _serious(Axe(), page) == []
        summary.click()
        assert _visible_nav(page, lang) == []
    else:
        # Wide: no Menu button, every link in the one row.
        assert not _shown(page, ".site-menu > summary")
        assert _visible_nav(page, lang) == list(NAV)
        assert _shown(page, f'.account-nav a[href="/{lang}/accounts/signup/"]')
        page.screenshot(path=str(artifacts_dir / f"home-{lang}-{width}.png"), full_page=True)
    assert _serious(Axe(), page) == []
    assert errors == []
    context.close()


def test_menu_opens_without_javascript(browser: object, live_server: object) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{live_server.url}/en/")
    assert _visible_nav(page, "en") == []
    page.locator(".site-menu > summary").click()
    assert _visible_nav(page, "en") == list(NAV)
    context.close()
