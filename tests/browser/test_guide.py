"""Guide pages in a real browser: direction, fonts, console, accessibility, screenshots.

Screenshots of a rules page in each language at a phone width (360 px) and a desktop width
(1280 px) are saved to test-artifacts/ for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.site import show_every_section

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (language, direction, the web font its text must be set in; English uses system fonts)
CASES = [
    ("ur", "rtl", "Noto Nastaliq Urdu"),
    ("hi", "ltr", "Noto Sans Devanagari"),
    ("en", "ltr", None),
]

LOADED_FONTS = """async () => {
  await document.fonts.ready;
  return [...document.fonts]
    .filter(f => f.status === "loaded")
    .map(f => f.family.replace(/"/g, ""));
}"""

@pytest.mark.parametrize(("lang", "direction", "font"), CASES)
def test_rules_page_renders(
    browser: object, live_server: object, artifacts_dir: Path, lang: str, direction: str,
    font: str | None,
) -> None:
    for width in (360, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800})  # type: ignore[attr-defined]
        page = context.new_page()
        errors: list[str] = []
        page.on(
            "console",
            lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None,
        )
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        response = page.goto(f"{live_server.url}/{lang}/rules/hidden-rung/")  # type: ignore[attr-defined]
        assert response is not None and response.status == 200
        assert page.get_attribute("html", "dir") == direction
        assert page.get_attribute("html", "lang") == lang
        loaded = page.evaluate(LOADED_FONTS)
        if font:
            assert font in loaded, loaded
            # The body text is really set in it, not only downloaded.
            family = page.evaluate(
                "getComputedStyle(document.querySelector('article p')).fontFamily"
            )
            assert family.replace('"', "").startswith(font)
        # Nothing is wider than the screen: no sideways scrolling on a phone.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{lang} at {width}px scrolls sideways by {overflow}px"
        # Figures are drawn inline and labelled.
        assert page.locator("article figure svg[role=img] title").count() >= 1
        # Sections off screen are painted only when scrolled near (content-visibility), and
        # a full-page capture does not count as near: paint them all, as a reader scrolling
        # down would see them, for the screenshot.
        show_every_section(page)
        page.screenshot(path=str(artifacts_dir / f"guide-rules-{lang}-{width}.png"), full_page=True)
        assert errors == []
        context.close()


@pytest.mark.parametrize(
    "path", ["rules/hidden-rung/", "faq/court-piece/", "glossary/", "rules/backgammon/", "rules/"]
)
@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_no_serious_accessibility_violations(
    page: object, live_server: object, lang: str, path: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/{path}")  # type: ignore[attr-defined]
    results = Axe().run(page)
    # axe really ran: it reports the rules it passed, not only the violations.
    assert results.response["testEngine"]["name"] == "axe-core"
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []


def test_switcher_keeps_the_page_without_javascript(browser: object, live_server: object) -> None:
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{live_server.url}/en/faq/hukum/")  # type: ignore[attr-defined]
    page.click(".lang-switcher a[hreflang=ur]")
    assert page.url.endswith("/ur/faq/hukum/")
    assert page.get_attribute("html", "dir") == "rtl"
    context.close()


def test_every_page_fits_a_phone(browser: object, live_server: object) -> None:
    """No guide page in any language scrolls sideways at 360 px."""
    from django.urls import reverse
    from django.utils import translation

    from guide.pages import PAGES, url_name_and_kwargs

    context = browser.new_context(viewport={"width": 360, "height": 740})  # type: ignore[attr-defined]
    page = context.new_page()
    too_wide = []
    for lang in ("ur", "hi", "en"):
        for spec in PAGES:
            name, kwargs = url_name_and_kwargs(spec)
            with translation.override(lang):
                path = reverse(name, kwargs=kwargs)
            page.goto(f"{live_server.url}{path}")  # type: ignore[attr-defined]
            # Paint every section so the whole page is measured, not just the first screen.
            show_every_section(page)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                too_wide.append((path, overflow))
    context.close()
    assert too_wide == []
