"""A newcomer's Court Piece findings, laid out in a real browser with the site's own CSS
(no live site: the table's own frames drawn from payloads, the templates rendered here):
the dealt hands without list bullets, the hand-over panel read whole with its replay link
at 390 and 1280 px in three languages, Leave asking first, a tapped card not left raised
on a touch screen, and the replay rounding a cost as the mistakes puzzle does. Screenshots
go to test-artifacts/."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from game.courtpiece.cards import card_svg
from game.engine import courtpiece as cp
from game.tables.html import table_frame_html
from tests.browser.site import ROOT
from tests.courtpiece.payloads import payload
from tests.courtpiece.test_newcomer_findings import next_hand_called
from tutorials.mistakes import tenths

pytestmark = pytest.mark.browser

LANGS = ["en", "ur", "hi"]
WIDTHS = {390: 844, 1280: 800}
CSS = [ROOT / "static" / "css" / "site.css", ROOT / "static" / "css" / "table.css"]


def _page(browser: Any, width: int, body: str, lang: str = "en", **extra: Any) -> Any:
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, **extra)
    page = context.new_page()
    rtl = ' dir="rtl"' if lang == "ur" else ""
    page.set_content(f'<!doctype html><html lang="{lang}"{rtl}><body>{body}</body></html>')
    for css in CSS:
        page.add_style_tag(path=str(css))
    return page


def _table(frame: str, lang: str) -> str:
    return (
        '<main><div class="table-page"><div id="table-live" class="table-live cp-live">'
        f"{frame}</div></div></main>"
    )


# The replay's "The four hands as dealt" (courtpiece/replay.html), one hand of two suits.
def _dealt() -> str:
    groups = "".join(
        '<ul class="cards suit-group-static">'
        + "".join(
            f'<li data-code="{c}"><span class="card-static" role="img">{card_svg(c)}</span></li>'
            for c in cards
        )
        + "</ul>"
        for cards in (["AS", "KS", "QS"], ["7H", "5H"])
    )
    return f'<main><div class="replay-hands"><section><h3>You</h3>{groups}</section></div></main>'


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_dealt_hands_show_no_list_bullets(browser: Any, width: int) -> None:
    page = _page(browser, width, _dealt())
    marked = page.evaluate(
        """() => [...document.querySelectorAll('.replay-hands li, .replay-hands ul')]
          .filter(e => getComputedStyle(e).display === 'list-item'
                       && getComputedStyle(e).listStyleType !== 'none').length"""
    )
    assert marked == 0
    # The cards of a suit sit in one row, side by side.
    tops = page.evaluate(
        "() => [...document.querySelectorAll('.replay-hands ul:first-of-type li')]"
        ".map(li => Math.round(li.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1
    page.context.close()


# Every name under the last trick's cards: inside the panel, not cut, not under its Close.
NAMES_SEEN = """() => {
  const slot = document.querySelector('.hand-summary-slot').getBoundingClientRect();
  return [...document.querySelectorAll('.summary-trick li > span[aria-hidden]')].map(s => {
    const r = s.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return { name: s.textContent, inside: r.top >= slot.top - 1 && r.bottom <= slot.bottom + 1
             && r.left >= slot.left - 1 && r.right <= slot.right + 1,
             shown: !!hit && s.closest('li').contains(hit) };
  });
}"""


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_over_panel_is_read_whole_with_its_replay_link(
    browser: Any, artifacts_dir: Path, lang: str, width: int
) -> None:
    frame = table_frame_html(payload(next_hand_called(), 0), lang)
    page = _page(browser, width, _table(frame, lang), lang)
    slot = page.locator(".hand-summary-slot")
    # Not a box scrolling inside the felt, where a phone showed three lines of it.
    inner = page.evaluate(
        "() => { const s = document.querySelector('.hand-summary-slot');"
        " return s.scrollHeight - s.clientHeight; }"
    )
    assert inner <= 1, f"the panel hides {inner}px behind its own scrollbar"
    link = page.get_by_test_id("summary-replay-link")
    assert link.is_visible() and link.get_attribute("href") == "replay/1/"
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    for name in page.evaluate(NAMES_SEEN):
        assert name["inside"] and name["shown"], name
    assert page.locator(".summary-close").is_visible()
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    slot.screenshot(path=str(artifacts_dir / f"newcomer-hand-over-{lang}-{width}.png"))
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_says_what_a_hand_is_worth_on_a_phone_in_hand_one(
    browser: Any, artifacts_dir: Path, lang: str
) -> None:
    """RULES CP-RUNG-3: a hand won scores 7 points; a newcomer read it nowhere in hand 1."""
    first = cp.Match(cp.Rules(variant="rung"), seed="newcomer-first", chain=50)
    page = _page(browser, 390, _table(table_frame_html(payload(first, 0), lang), lang), lang)
    assert page.locator(".table-bar .score-hint").is_visible()
    page.locator(".table-bar").screenshot(path=str(artifacts_dir / f"newcomer-bar-{lang}.png"))
    page.context.close()
    # From hand 2 the summary has said it: the phone's bar keeps the target only.
    later = table_frame_html(payload(next_hand_called(), 0), lang)
    page = _page(browser, 390, _table(later, lang), lang)
    assert not page.locator(".table-bar .score-hint").is_visible()
    page.context.close()


def _tools(lang: str) -> str:
    with translation.override(lang):
        return render_to_string(
            "game/partials/table_tools.html",
            {"seat": 0, "table": SimpleNamespace(pk=7, status="playing"), "leave_ends": True,
             "invite": "", "options": "courtpiece/table_options.html"},
        )


@pytest.mark.parametrize("lang", LANGS)
def test_leave_asks_before_it_leaves(browser: Any, artifacts_dir: Path, lang: str) -> None:
    """One tap on a phone ended the game: the first tap asks, the second POSTs."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    posted: list[str] = []
    rtl = ' dir="rtl"' if lang == "ur" else ""
    html = (
        f'<!doctype html><html lang="{lang}"{rtl}><body><main>{_tools(lang)}</main></body></html>'
    )

    def serve(route: Any) -> None:
        if route.request.method == "POST":
            posted.append(route.request.url)
            route.fulfill(status=200, content_type="text/html", body="<p id=left>left</p>")
        else:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

    page.route("http://baithak.test/**", serve)
    page.goto(f"http://baithak.test/{lang}/play/7/")
    for css in CSS:
        page.add_style_tag(path=str(css))
    yes = page.get_by_test_id("leave-yes")
    assert not yes.is_visible()
    page.locator(".leave-button").tap()
    assert yes.is_visible() and posted == []
    page.locator(".table-tools").screenshot(path=str(artifacts_dir / f"newcomer-leave-{lang}.png"))
    yes.tap()
    page.wait_for_selector("#left")
    assert len(posted) == 1 and posted[0].endswith("/play/7/leave/")
    context.close()


HAND = (
    '<main><div class="table-live cp-live"><div class="my-hand"><div class="hand-cards">'
    '<ul class="suit-group"><li><button type="button" class="card playable" id="one">'
    f'{card_svg("AS")}</button></li><li><button type="button" class="card playable" id="two">'
    f'{card_svg("KS")}</button></li></ul></div></div></div></main>'
)
LIFT = "id => getComputedStyle(document.getElementById(id)).transform"


def test_a_tapped_card_is_not_left_raised_on_a_touch_screen(browser: Any) -> None:
    page = _page(browser, 390, HAND, has_touch=True, is_mobile=True)
    assert not page.evaluate("() => matchMedia('(hover: hover)').matches")
    page.locator("#one").tap()
    assert page.evaluate(LIFT, "one") == "none"
    page.context.close()
    # A mouse still lifts the card it points at.
    page = _page(browser, 1280, HAND)
    page.locator("#one").hover()
    assert page.evaluate(LIFT, "one") != "none"
    assert page.evaluate(LIFT, "two") == "none"
    page.context.close()


def test_the_replay_rounds_a_cost_as_the_mistakes_puzzle_does(browser: Any) -> None:
    """static/js/replay.js's tenths and tutorials/mistakes.py's agree on every worth the
    analysis stores (hundredths, 0 to 13 tricks)."""
    source = (ROOT / "static" / "js" / "replay.js").read_text()
    found = re.search(r"function tenths\(v\) \{.*?\}\n", source)
    assert found, "replay.js has no tenths()"
    page = _page(browser, 1280, "<main></main>")
    values = [n / 100 for n in range(1301)]
    script = f"(vs) => {{ {found.group(0)} return vs.map(tenths); }}"
    shown = page.evaluate(script, values)
    assert [Decimal(str(v)).quantize(Decimal("0.1")) for v in shown] == [tenths(v) for v in values]
    page.context.close()
