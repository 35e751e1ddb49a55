"""Issue 27's small things in a real browser: the Urdu Menu label clear of its icon; a tap
on a card that may not be played says why; resigning asks once, with the keyboard too;
practice from the top of the lessons page and its streak agreeing with itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import ROOT, Site, console_errors

pytestmark = pytest.mark.browser

# The gap between the Menu icon and the ink of its label (not its box: Nastaliq's letters
# may reach past their advance), on the side the icon is in this direction.
INK_GAP = """async () => { await document.fonts.ready;
  const sm = document.querySelector('.site-menu > summary');
  const icon = sm.querySelector('.menu-icon').getBoundingClientRect();
  const r = document.createRange(); r.selectNodeContents(sm.lastChild);
  const t = r.getBoundingClientRect();
  const cs = getComputedStyle(sm); const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const m = ctx.measureText(sm.lastChild.textContent.trim());
  const rtl = cs.direction === 'rtl';
  const box = rtl ? icon.left - t.right : t.left - icon.right;
  const over = rtl ? Math.max(0, m.actualBoundingBoxRight - m.width)
                   : Math.max(0, m.actualBoundingBoxLeft);
  return box - over; }"""


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_the_menu_label_is_clear_of_its_icon(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{site.url}/{lang}/learn/")
    gap = page.evaluate(INK_GAP)
    page.locator(".site-menu > summary").screenshot(path=str(artifacts_dir / f"menu-{lang}.png"))
    assert gap >= (10 if lang == "ur" else 6), gap
    context.close()


MY_TURN = "#table-live.my-turn"


def _version(page: Any) -> str:
    return str(page.locator("#table-live").get_attribute("data-version"))


def _wait_new_frame(page: Any, before: str) -> None:
    page.wait_for_function(
        "v => document.getElementById('table-live').dataset.version !== v",
        arg=before,
        timeout=20_000,
    )


WHY = {"en": "You must follow", "ur": "ہی چلنا ہوگا", "hi": "ही चलना होगा"}


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_a_tap_on_a_card_that_may_not_be_played_says_why(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/{lang}/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_selector("#table-live .felt")
    # Play on (the last legal card each time) until following suit leaves a card dimmed.
    dimmed = f"{MY_TURN}.phase-play .hand-cards .card.dimmed[data-why]"
    for _ in range(80):
        page.wait_for_selector(
            f"{MY_TURN} .hand-cards button.card, {MY_TURN} .choices button", timeout=30_000
        )
        if page.locator(dimmed).count() and page.locator(f"{MY_TURN} .trick .played").count():
            break
        before = _version(page)
        cards = page.locator(f"{MY_TURN} .hand-cards button.card")
        (cards.last if cards.count() else page.locator(f"{MY_TURN} .choices button").first).click()
        _wait_new_frame(page, before)
    else:
        raise AssertionError("never had to follow suit")
    before = _version(page)
    page.locator(dimmed).first.click(force=True)
    box = page.locator("#card-why")
    assert box.is_visible()
    said = box.inner_text()
    assert WHY[lang] in said, said
    assert said == page.locator(dimmed).first.get_attribute("data-why")
    assert box.get_attribute("aria-live") == "polite"
    assert _version(page) == before  # nothing was sent
    page.screenshot(path=str(artifacts_dir / f"card-why-{lang}-390.png"))
    assert errors == []
    context.close()


def test_resigning_asks_once_and_works_with_the_keyboard(page: Any, site: Site) -> None:
    errors = console_errors(page)
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError("a dialog box opened")))
    page.goto(f"{site.url}/en/play/")
    page.locator("[data-testid='bg-play-now']").click()
    live = "#table-live[data-game='backgammon']"
    page.wait_for_selector(f"{live}.my-turn .bg-resign", timeout=30_000)
    before = _version(page)
    # The keyboard: Tab to "Resign…", open it, Tab to a kind, open it; nothing is sent.
    for _ in range(60):
        if page.evaluate("() => document.activeElement.matches('.bg-resign > summary')"):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('.resign-confirm > summary')")
    page.keyboard.press("Enter")
    confirm = page.locator(".resign-confirm[open] .bg-resign-button")
    assert confirm.is_visible()
    assert "Are you sure?" in page.locator(".resign-confirm[open] .resign-warning").inner_text()
    assert _version(page) == before  # opening the question sent nothing
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('.bg-resign-button')")
    page.keyboard.press("Enter")
    _wait_new_frame(page, before)  # now it resigned: the bot answers the offer
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_practice_from_the_top_and_one_streak(page: Any, live_server: Any) -> None:
    """The lessons page offers practice on its first screen; in practice, the streak at the
    top is the one every answer updates (it said 2 while the answer's box said 1)."""
    from django.contrib.sessions.backends.db import SessionStore

    from tutorials import practice

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/en/learn/")
    jump = page.locator("[data-testid='practice-jump']")
    box = jump.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # on the first screen
    jump.click()
    page.locator(".practice-list a[href$='/pip-count/']").click()
    page.wait_for_selector("#practice-streak")

    def answer() -> str:
        key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
        state = SessionStore(session_key=key)["learn_practice"]["pip-count"]
        puzzle = practice.puzzle("pip-count", state["seed"], state["n"])
        return str(sorted(puzzle.step.correct())[0])

    for expected in ("1", "2"):
        page.fill("input[name=answer]", answer())
        page.locator(".number-answer + button, button:has-text('Check')").first.click()
        page.wait_for_selector(".feedback--right")
        assert page.locator("#practice-streak").get_attribute("data-streak") == expected
        assert page.locator(".streak").count() == 1
        page.locator(".feedback-actions a").click()  # the next position (a new page)
        page.wait_for_selector("#practice-streak")
        assert page.locator("#practice-streak").get_attribute("data-streak") == expected
    page.fill("input[name=answer]", "999")
    page.locator("button:has-text('Check')").first.click()
    page.wait_for_selector(".feedback--wrong")
    assert page.locator("#practice-streak").get_attribute("data-streak") == "0"
    assert page.locator(".streak").count() == 1


# A frame of the next hand, its first card down, with the last hand's summary still kept.
FOLDED = """<main><div id="table-live" class="table-live cp-live"><div class="felt" dir="ltr">
<div id="summary-slot-1" class="hand-summary-slot"><section class="hand-summary">
<h2>Hand 1 is over: Kot</h2><p>The hand is decided. Winner: Your team.</p>
<p>A long explanation of the points.</p><p>And more words.</p>
<p class="summary-close-row"><button type="button" class="act summary-close" data-close-summary>
Close</button> <span class="summary-keep">This stays until you play or close it.</span></p>
</section></div>
<section class="seat seat-top"><p class="seat-name"><span class="who">North</span></p></section>
<section class="seat seat-left"><p class="seat-name"><span class="who">West</span></p></section>
<section class="seat seat-right"><p class="seat-name"><span class="who">East</span></p></section>
<div class="trick"><div class="slot slot-top"><span class="card-static played" id="led"
style="display:block;inline-size:68px;block-size:96px;background:#fff"></span></div>
<div class="slot slot-left"></div><div class="slot slot-right"></div><div class="slot slot-bottom">
</div><div class="trump-box"></div></div>
<section class="seat seat-bottom"><p class="seat-name"><span class="who">You</span></p></section>
</div></div></main>"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_kept_summary_folds_clear_of_the_next_hands_first_card(browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_content(FOLDED)
    page.add_style_tag(path=str(ROOT / "static" / "css" / "site.css"))
    page.add_style_tag(path=str(ROOT / "static" / "css" / "table.css"))
    slot = page.locator(".hand-summary-slot").bounding_box()
    assert slot is not None and slot["height"] <= 3.25 * 16 + 1
    # The card led is seen, not under the summary; Close is in reach.
    hit = page.evaluate(
        """() => { const r = document.getElementById('led').getBoundingClientRect();
          return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).id; }"""
    )
    assert hit == "led"
    assert page.locator(".summary-close").is_visible()
    context.close()
