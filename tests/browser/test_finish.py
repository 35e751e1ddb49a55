"""The faults a newcomer saw, kept fixed in a real browser: figure labels that collide, the
Urdu heading that ran into the message box, the options table at 390 px, Urdu bold.
Screenshots go to test-artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from guide.pages import PAGES, url_name_and_kwargs
from tests.browser.site import show_every_section

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OVERLAPS = (Path(__file__).with_name("figure_overlaps.js")).read_text(encoding="utf-8")

# Where the ink of an element's first line really starts: the canvas measures the glyphs'
# rise above the baseline in the element's own (web) font, which a box never shows.
INK_TOP = """async (sel) => {
  await document.fonts.ready;
  const el = document.querySelector(sel);
  const cs = getComputedStyle(el);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const m = ctx.measureText(el.textContent.trim());
  const r = el.getBoundingClientRect();
  const content = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
  const baseline = r.top + (parseFloat(cs.lineHeight) - content) / 2 + m.fontBoundingBoxAscent;
  return baseline - m.actualBoundingBoxAscent;
}"""


def _paths(lang: str) -> list[str]:
    paths = []
    for spec in PAGES:
        name, kwargs = url_name_and_kwargs(spec)
        with translation.override(lang):
            paths.append(reverse(name, kwargs=kwargs))
    return paths


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_no_figure_text_overlaps_another_or_a_cards_border(
    browser: object, live_server: object, artifacts_dir: Path, lang: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    found = []
    figures_seen = 0
    for path in _paths(lang):
        page.goto(f"{live_server.url}{path}")  # type: ignore[attr-defined]
        show_every_section(page)
        figures_seen += page.locator("figure svg").count()
        found += [(path, *hit) for hit in page.evaluate(OVERLAPS)]
        if path.endswith(("/rules/hidden-rung/", "/rules/rung/")):
            for i, fig in enumerate(page.query_selector_all("figure.figure")):
                name = path.strip("/").replace("/", "-")
                fig.screenshot(path=str(artifacts_dir / f"figure-{name}-{i}-{width}.png"))
    context.close()
    assert figures_seen >= 10  # the check really looked at the figures (16 or more a language)
    assert found == []


def test_urdu_heading_clears_the_message_box_above_it(
    browser: object, live_server: object, artifacts_dir: Path
) -> None:
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{live_server.url}/ur/accounts/signup/")  # type: ignore[attr-defined]
        page.fill("input[name=username]", f"zainab{width}")
        page.fill("input[name=email]", f"zainab{width}@example.com")
        page.fill("input[name=password1]", "a-long-password-9")
        page.fill("input[name=password2]", "a-long-password-9")
        page.click("main form button[type=submit]")
        page.wait_for_url("**/ur/accounts/confirm-email/")
        box = page.evaluate("document.querySelector('.messages').getBoundingClientRect().bottom")
        ink = page.evaluate(INK_TOP, "main h1")
        page.screenshot(path=str(artifacts_dir / f"confirm-email-ur-{width}.png"), full_page=True)
        context.close()
        assert ink >= box, f"at {width}px the heading reaches {box - ink:.1f}px into the box"


def test_house_rules_options_table_fits_a_phone(
    browser: object, live_server: object, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    for lang in ("en", "hi", "ur"):
        page.goto(f"{live_server.url}/{lang}/house-rules/")  # type: ignore[attr-defined]
        show_every_section(page)
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        # Every table fits its box, and no cell is squeezed to a word a line.
        tables = page.evaluate(
            """() => [...document.querySelectorAll('.table-wrap')].map(w => [
                 w.querySelector('table').scrollWidth - w.clientWidth,
                 Math.min(...[...w.querySelectorAll('td')].map(td => td.clientWidth))])"""
        )
        for overflow, narrowest in tables:
            assert overflow <= 0 and narrowest >= 60, (lang, tables)
        if lang == "en":
            page.screenshot(path=str(artifacts_dir / "house-rules-en-390.png"), full_page=True)
    context.close()


def test_urdu_strong_is_really_bold(
    browser: object, live_server: object, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{live_server.url}/ur/rules/rung/")  # type: ignore[attr-defined]
    show_every_section(page)
    strong = page.locator("article strong").first
    strong.scroll_into_view_if_needed()
    assert strong.evaluate("el => getComputedStyle(el).fontWeight") == "700"
    loaded = page.evaluate(
        """async () => { await document.fonts.ready;
             return [...document.fonts].filter(f => f.status === 'loaded')
               .map(f => f.family.replace(/"/g, '') + ' ' + f.weight); }"""
    )
    assert "Noto Nastaliq Urdu 700" in loaded, loaded
    page.screenshot(path=str(artifacts_dir / "rung-ur-bold-390.png"), full_page=True)
    context.close()
