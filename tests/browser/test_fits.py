"""The table fits the screen (issue 27), in Debian's Chromium against a real daphne: a guest
plays a whole Court Piece hand against bots at 1280x800 and 390x844, in English, Urdu and
Hindi. Whenever it is the player's move, everything they must act on (the trump choice,
the cards they may play) is inside the viewport without scrolling; the hand's result shows
without covering the whole table on a phone; and the page does not move under the
player: the Cumulative Layout Shift over the hand (a PerformanceObserver on
'layout-shift', shifts right after the player's own input excluded as the metric does)
stays under 0.05. Backgammon: the roll, the move, the cube and the result likewise.
Screenshots of each moment go to test-artifacts/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors
from tests.browser.test_tables import MY_TURN, Hand

pytestmark = pytest.mark.browser

# What the player acts on when it is their move (OUTSIDE skips what is not drawn, such as
# the claim's button inside its closed confirmation).
# The claim alone (.choices.minor) is an offer, not a move the player must make: they act
# by playing a card, and it waits below the hand.
ACT = ", ".join(
    f"{MY_TURN} {s}"
    for s in (
        ".hand-cards button.card", ".choices:not(.minor) button", ".choices:not(.minor) summary"
    )
)
SIZES = [(1280, 800), (390, 844)]
LANGS = ["en", "ur", "hi"]

# Every layout shift the page makes, summed as Chrome's CLS does (a shift within 500 ms of
# the player's own input does not count), with what moved, for the message of a failure.
WATCH_SHIFTS = """
window.__cls = 0; window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__cls += e.value;
    window.__shifts.push([Math.round(e.value * 10000) / 10000, (e.sources || []).map(s =>
      (s.node && s.node.nodeType === 1 ? s.node.tagName + '.' + s.node.className : String(s.node))
      + ' ' + JSON.stringify([s.previousRect.y, s.currentRect.y, s.previousRect.height,
      s.currentRect.height]))]);
  }
}).observe({type: 'layout-shift', buffered: true});
window.__scrolls = [];
addEventListener('scroll', () => {
  const a = document.activeElement; const t = document.getElementById('table-live');
  window.__scrolls.push([scrollY, t && t.dataset.version,
    a && (a.tagName + '.' + a.className + ' ' + (a.dataset.action || ''))]); });
"""

# The controls the player must act on now, and how far outside the viewport each is.
OUTSIDE = """(sel) => [...document.querySelectorAll(sel)]
  .filter(el => el.getClientRects().length > 0
                && !el.closest('details:not([open]) > :not(summary)'))
  .map(el => { const r = el.getBoundingClientRect();
    return [el.dataset.action || el.textContent.trim().slice(0, 30),
            Math.max(0, -r.top, r.bottom - innerHeight, -r.left, r.right - innerWidth)]; })
  .filter(([, out]) => out > 0.5)"""


def _version(page: Any) -> str:
    return str(page.locator("#table-live").get_attribute("data-version"))


def _wait_new_frame(page: Any, before: str) -> None:
    page.wait_for_function(
        "v => document.getElementById('table-live').dataset.version !== v",
        arg=before,
        timeout=20_000,
    )


def _tap(page: Any, target: Any) -> None:
    """A tap where the control is drawn: unlike Locator.click, never scrolls the page."""
    box = target.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20))


def _assert_in_view(page: Any, selector: str, moment: str) -> None:
    assert page.evaluate("() => scrollY") == 0, (moment, page.evaluate("() => window.__scrolls"))
    outside = page.evaluate(OUTSIDE, selector)
    assert outside == [], f"{moment}: outside the viewport: {outside}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_whole_hand_fits_the_screen_and_nothing_moves(
    browser: Any, site: Site, artifacts_dir: Path, lang: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(WATCH_SHIFTS)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/{lang}/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/{lang}/play/*/")
    page.wait_for_selector("#table-live .felt")
    name = f"{lang}-{width}"
    hand = Hand(page)
    shot = {"call": False, "play": False}
    for _ in range(200):
        if not hand.next_move():
            break
        phase = "play" if page.locator(f"{MY_TURN}.phase-play").count() else "call"
        if not shot[phase] or page.evaluate(OUTSIDE, ACT):
            page.screenshot(path=str(artifacts_dir / f"fits-{phase}-{name}.png"))
            shot[phase] = True
        _assert_in_view(page, ACT, f"{phase} at version {_version(page)}")
        before = _version(page)
        cards = page.locator(f"{MY_TURN} .hand-cards button.card")
        if cards.count():
            _tap(page, cards.last)
            hand.played = True
        else:
            _tap(page, page.locator(f"{MY_TURN} .choices button:visible").first)
        _wait_new_frame(page, before)
    assert hand.over(), "the hand did not end"
    # The hand's result: on screen, and on a phone not over the whole table.
    page.wait_for_selector("#table-live .hand-summary", timeout=15_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts_dir / f"fits-result-{name}.png"))
    _assert_in_view(
        page, "#table-live .hand-summary h2, #table-live [data-close-summary]", "result"
    )
    cls = page.evaluate("() => window.__cls")
    shifts = page.evaluate("() => window.__shifts")
    (artifacts_dir / f"fits-cls-{name}.json").write_text(
        json.dumps({"lang": lang, "width": width, "height": height, "cls": cls, "shifts": shifts})
    )
    assert cls < 0.05, (cls, shifts)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert errors == []
    context.close()


# A signed-in player at a table against three bots where they choose first: trump to
# call (Rung) or a bid to make (Hukum). Tables are made until the deal gives seat 0 the
# first choice; a long bot pause keeps the moment still while the page is measured.
CHOOSER = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, frames, lifecycle
User = get_user_model()
u = User.objects.create_user("chooser-" + VARIANT, password="pw")
c = Client()
c.force_login(u)
own = access.Owner(u, None)
for _ in range(60):
    t = lifecycle.create_table(game="courtpiece", owner=own, variant=VARIANT, bots=[1, 2, 3],
                               move_seconds=None, private=True)
    p = frames.state_payload(t.pk, 0)
    if p["to_move"] == 0:
        break
print("RESULT:" + json.dumps({"table": t.pk, "cookie": c.cookies["sessionid"].value,
                              "to_move": p["to_move"]}))
"""


@pytest.mark.parametrize("variant", ["rung", "hukum"])
def test_the_first_choice_is_on_the_first_screen(
    browser: Any, site: Site, artifacts_dir: Path, variant: str
) -> None:
    made = site.manage("shell", code=CHOOSER.replace("VARIANT", repr(variant)))
    assert made["to_move"] == 0
    for lang in LANGS:
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies([{"name": "sessionid", "value": made["cookie"], "url": site.url}])
            page = context.new_page()
            page.goto(f"{site.url}/{lang}/play/{made['table']}/")
            page.wait_for_selector(f"{MY_TURN} .choices button")
            page.wait_for_timeout(200)
            page.screenshot(path=str(artifacts_dir / f"fits-{variant}-choice-{lang}-{width}.png"))
            _assert_in_view(page, ACT, f"{variant} choice, {lang} at {width}")
            context.close()


BG = "#table-live[data-game='backgammon']"
BOARD = "#bg-board-slot .bg-board:visible"
# What a backgammon player acts on: the roll and the cube's buttons, the checkers that may
# move and where they may go, Undo and Confirm, a forced play's button.
BG_ACT = ", ".join(
    f"{BG}.my-turn {s}"
    for s in (".choices button", ".bg-choices button", ".bg-forced button",
              ".bg-board .bg-src", ".bg-board .bg-dst.bg-on", ".bg-board [data-bg-action]")
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_backgammon_fits_the_screen_and_nothing_moves(
    browser: Any, site: Site, artifacts_dir: Path, lang: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(WATCH_SHIFTS)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/{lang}/play/")
    page.locator("[data-testid='bg-play-now']").click()
    page.wait_for_selector(BG)
    name = f"bg-{lang}-{width}"
    seen: set[str] = set()
    for turn in range(24):
        page.wait_for_selector(f"{BG}.my-turn, {BG} .hand-summary", timeout=30_000)
        if page.locator(f"{BG} .hand-summary").count():
            break
        page.wait_for_timeout(100)
        classes = str(page.locator("#table-live").get_attribute("class"))
        phase = classes.split("phase-")[1].split()[0]
        if phase not in seen or page.evaluate(OUTSIDE, BG_ACT):
            page.screenshot(path=str(artifacts_dir / f"fits-{name}-{phase}.png"))
            seen.add(phase)
        _assert_in_view(page, BG_ACT, f"backgammon {phase}, turn {turn}")
        before = _version(page)
        if turn >= 4 and page.locator(f"{BG}.my-turn .bg-resign > summary").count():
            # The result: resign a single game (asked once), which the bot accepts when it
            # is worth more to it than playing on. (Resigning is an offer below the choices:
            # the player scrolls to it if need be; the result then shows on the first screen.)
            page.locator(f"{BG} .bg-resign > summary").click()
            page.locator(f"{BG} .resign-confirm[data-keep-open='resign:1'] > summary").click()
            page.locator(f"{BG} .resign-confirm[open] .bg-resign-button").click()
            _wait_new_frame(page, before)
            page.wait_for_selector(f"{BG}.my-turn, {BG} .hand-summary", timeout=30_000)
            page.evaluate("() => scrollTo(0, 0)")
            continue
        if page.locator(f"{BG} .bg-forced button").count():
            _tap(page, page.locator(f"{BG} .bg-forced button").first)
        elif phase == "move":
            while not page.locator(f"{BOARD} [data-bg-action='confirm']").count():
                steps = page.locator(BOARD).get_attribute("data-steps") or ""
                _tap(page, page.locator(f"{BOARD} .bg-src").first)
                _tap(page, page.locator(f"{BOARD} .bg-dst.bg-on").first)
                page.wait_for_function(
                    "s => { const b = [...document.querySelectorAll('#bg-board-slot .bg-board')]"
                    ".find(e => e.offsetParent !== null); return b && b.dataset.steps !== s; }",
                    arg=steps,
                    timeout=15_000,
                )
                _assert_in_view(page, BG_ACT, f"backgammon step, turn {turn}")
            _tap(page, page.locator(f"{BOARD} [data-bg-action='confirm']"))
        else:
            _tap(page, page.locator(
                f"{BG}.my-turn .choices button[data-action='roll'], {BG}.my-turn .bg-choices button"
            ).first)
        _wait_new_frame(page, before)
    if page.locator(f"{BG} .hand-summary").count():
        page.wait_for_timeout(200)
        page.screenshot(path=str(artifacts_dir / f"fits-{name}-result.png"))
        _assert_in_view(page, f"{BG} .hand-summary h2, {BG} .hand-summary a", "backgammon result")
    cls = page.evaluate("() => window.__cls")
    shifts = page.evaluate("() => window.__shifts")
    (artifacts_dir / f"fits-cls-{name}.json").write_text(
        json.dumps({"lang": lang, "width": width, "height": height, "cls": cls, "shifts": shifts})
    )
    assert cls < 0.05, (cls, shifts)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert errors == []
    context.close()
