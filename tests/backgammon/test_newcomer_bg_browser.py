"""The newcomer's backgammon findings in headless Chromium, in the table's own frame
(site, table and board stylesheets): the status after a taken double, the stakes line
above Take and Drop, and the last move's marks with the hit star's note, in three
languages at 1280 and 390 px (screenshots in test-artifacts/, looked at)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.tables.html import table_frame_html
from tests.backgammon import payloads as P
from tests.backgammon.board_pages import ROOT, STATIC
from tests.backgammon.test_newcomer_bg import after_a_hit, after_double

pytestmark = pytest.mark.browser


def _doubled():
    from game.engine import backgammon as bg

    game = bg.Game(bg.Rules(), dice=[(4, 5), (6, 1), (3, 2)])
    game = game.apply("move:24/20 13/8").apply("roll")
    game = game.apply(game.legal_actions()[0])
    return game.apply("double")


def _page(lang: str, body: str) -> str:
    fonts = (ROOT / "static" / "vendor" / "fonts").as_uri()
    css = "".join(
        (ROOT / "static" / "css" / name).read_text(encoding="utf-8")
        for name in ("site.css", "table.css")
    )
    css = css.replace('url("/static/vendor/fonts', f'url("{fonts}').replace(
        "url(/static/vendor/fonts", f"url({fonts}"
    )
    direction = "rtl" if lang == "ur" else "ltr"
    return (
        f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{css}</style><style>{(STATIC / 'board.css').read_text()}</style></head>"
        f'<body><main class="table-page">{body}</main></body></html>'
    )


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_newcomer_findings_on_screen(
    browser, artifacts_dir: Path, tmp_path: Path, lang: str
) -> None:
    states = {
        "after-take": after_double("take"),
        "doubled": _doubled(),
        "after-hit": after_a_hit(),
    }
    for name, game in states.items():
        path = tmp_path / f"{name}.html"
        path.write_text(_page(lang, table_frame_html(P.payload(game, 0), lang)), encoding="utf-8")
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            if name == "doubled":
                stakes = page.locator('[data-testid="bg-stakes"]')
                assert stakes.is_visible()
                box = stakes.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
                # the stakes stand above the buttons, not squeezed between them
                button = page.locator(".bg-choices button").first.bounding_box()
                assert button is not None and button["y"] >= box["y"] + box["height"] - 1
            if name == "after-hit":
                # the board shown (home right) has the marks; they are painted
                marks = page.locator(".bg-home-right .bg-last-to")
                assert marks.count() >= 1 and marks.first.is_visible()
                assert page.locator('.bg-home-right [data-testid="hit-note"]').is_visible()
            page.screenshot(
                path=str(artifacts_dir / f"newcomer-bg-{lang}-{name}-{width}.png"), full_page=True
            )
            context.close()
