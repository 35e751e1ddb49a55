"""The replay stepped through in a real browser (issue 29): by keyboard (→ ← End Home)
and by its buttons, the four hands shrinking and the trick on the table, a link to a
step, then the analysis opened: each card marked with its double-dummy cost and the
par at the start; at 1280 and 390 px in three languages. Screenshots go to
test-artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site

pytestmark = [pytest.mark.browser]

# Run in the site's own database (manage.py shell): a table whose first hand played out
# is over, the guest at seat 0 playing random legal cards and the bots their own. A Rung
# hand stops once its score is certain (CP-RUNG-5b): after 8 to 13 tricks; the tests
# count on the cards it had.
FINISHED = """
import json, random, time
from game.tables import access, lifecycle
from tests.playing import play_out
guest = access.Owner(user=None, guest_key="browser-replay-guest")
rng = random.Random(7)
table = lifecycle.create_table(game="courtpiece", owner=guest, bots=[1, 2, 3], variant="rung")
match = play_out(
    table, guest,
    done=lambda m: any(h.trick_count >= 8 for h in m.hands),  # not a redeal (CP-RUNG-5a)
    choose=lambda m, legal: rng.choice(legal), seconds=240,
)
if match is not None:
    n, hand = next((n, h) for n, h in enumerate(match.hands, start=1) if h.trick_count >= 8)
    print("RESULT:" + json.dumps({"table": table.pk, "hand": n, "cards": 4 * hand.trick_count}))
"""


@pytest.fixture(scope="module")
def finished(site: Site) -> dict[str, Any]:
    made = site.manage("shell", code=FINISHED)
    assert made, "no hand was played out"
    return made


WIDE = """() => [...document.querySelectorAll('main *')].filter(e =>
  e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
  && !e.closest('.bg-moves-scroll'))
  .map(e => e.tagName + '.' + (e.className.baseVal ?? e.className))"""


def _fits_a_phone(page: Any) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow}px wider than a phone: {page.evaluate(WIDE)[:8]}"


def _cards_in_hands(page: Any) -> int:
    return int(page.evaluate(
        "() => [...document.querySelectorAll('#stepper .suit-row .ranks')]"
        ".map(r => r.textContent === '\\u2014' ? 0 : r.textContent.split(' ').length)"
        ".reduce((a, b) => a + b, 0)"
    ))


def _read_the_legend(page: Any, shot: Path, marks: int) -> None:
    """'How to read this' opens by keyboard and says what each mark means, in words
    visible without hovering anything."""
    legend = page.locator("[data-testid=legend]")
    assert legend.is_visible()
    legend.locator("summary").focus()
    page.keyboard.press("Enter")
    assert legend.get_attribute("open") is not None
    assert legend.locator("dt").count() == marks
    for text in legend.locator("dd").all():
        assert text.is_visible() and len(text.text_content() or "") > 20
    legend.scroll_into_view_if_needed()
    page.screenshot(path=str(shot))


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_step_through_a_replay_by_keyboard_then_open_the_analysis(
    browser: Any, site: Site, finished: dict[str, Any], artifacts_dir: Path, lang: str,
    width: int,
) -> None:
    table, hand, cards = finished["table"], finished["hand"], finished["cards"]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.url}/{lang}/play/{table}/replay/{hand}/")
    stepper = page.locator("[data-testid=stepper]")
    assert stepper.is_visible()
    assert _cards_in_hands(page) == 52  # before the first card
    page.locator("[data-go=next]").focus()
    page.keyboard.press("ArrowRight")
    assert _cards_in_hands(page) == 51
    assert page.locator("#stepper .step-trick .card-static").count() == 1
    live = page.locator("[data-live]").text_content() or ""
    assert live and "1" in live
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert _cards_in_hands(page) == 47
    assert page.locator("#stepper .step-trick .card-static").count() == 1  # a new trick
    assert page.evaluate("location.hash") == "#step-5"
    page.keyboard.press("ArrowLeft")
    assert page.locator("#stepper .step-trick .card-static").count() == 4  # trick 1, whole
    assert page.locator("#stepper .step-trick .card-static.won").count() == 1
    page.keyboard.press("End")
    assert _cards_in_hands(page) == 52 - cards
    page.screenshot(path=str(artifacts_dir / f"replay-steps-end-{lang}-{width}.png"))
    page.keyboard.press("Home")
    assert _cards_in_hands(page) == 52
    assert page.locator("[data-go=prev]").is_disabled()
    # a link to a step opens at that step
    page.goto(f"{site.url}/{lang}/play/{table}/replay/{hand}/#step-9")
    assert _cards_in_hands(page) == 43
    assert page.locator("#stepper .step-trick .card-static").count() == 1
    # the analysis: each card marked, the par at the start
    page.locator("[data-testid=open-analysis]").click()
    page.locator(".replay-tricks .cost").first.wait_for(timeout=30000)
    assert page.locator("[data-testid=par]").text_content()
    assert page.locator(".replay-tricks .cost").count() == cards
    assert page.locator("#stepper .step-trick .cost").count() == 1
    assert page.locator("[data-testid=step-verdict]").is_visible()
    badge = page.locator(".replay-tricks .cost").first
    badge.focus()
    assert page.locator(".replay-tricks .cost .cost-tip").first.is_visible()
    page.locator("[data-testid=stepper]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / f"replay-analysis-{lang}-{width}.png"))
    _read_the_legend(page, artifacts_dir / f"replay-legend-{lang}-{width}.png", marks=5)
    if width == 390:
        _fits_a_phone(page)
    assert errors == []
    context.close()


BG_FINISHED = """
import json, random
from game.tables import access, lifecycle
from game.backgammon import bot
from tests.playing import play_out
guest = access.Owner(user=None, guest_key="browser-bg-guest")
table = lifecycle.create_table(game="backgammon", owner=guest, bots=[1])
rng = random.Random(3)


def choose(state, legal):
    plays = [a for a in legal if a.startswith("move:")]
    return rng.choice(plays) if plays else next(
        (a for a in ("roll", "take", "reject") if a in legal), legal[0])


# The site's bot moves after its pause: a whole game takes a while.
if play_out(table, guest, done=lambda s: s.is_over, choose=choose, seconds=240):
    print("RESULT:" + json.dumps({"table": table.pk, "hand": 1}))
bot.shutdown()
"""


@pytest.fixture(scope="module")
def bg_finished(site: Site) -> dict[str, Any]:
    made = site.manage("shell", code=BG_FINISHED)
    assert made, "the backgammon game did not end"
    return made


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_step_through_a_backgammon_game_then_its_equity_analysis(
    browser: Any, site: Site, bg_finished: dict[str, Any], artifacts_dir: Path, lang: str,
    width: int,
) -> None:
    table = bg_finished["table"]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.url}/{lang}/play/{table}/replay/1/")
    boards = page.locator("#bg-stepper .bg-steps > li")
    total = boards.count() - 1
    assert total > 5
    shown = page.locator("#bg-stepper .bg-steps > li:not([hidden])")
    assert shown.get_attribute("data-step") == "0"
    page.locator("[data-go=next]").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shown.get_attribute("data-step") == "2" and shown.locator("svg").is_visible()
    assert page.evaluate("location.hash") == "#step-2"
    assert page.locator("[data-live]").text_content()
    page.keyboard.press("End")
    assert shown.get_attribute("data-step") == str(total)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.locator("[data-testid=open-analysis]").click()
    page.locator("[data-testid=ratings] li").first.wait_for(timeout=120000)
    assert page.locator("[data-testid=ratings] li").count() == 2
    assert page.locator(".bg-moves td.loss:not(:empty)").count() > 0
    assert page.locator("#bg-stepper .bg-steps > li:not([hidden]) .step-verdict").is_visible()
    # the cube decisions judged on their rows: the bot doubled the guest who rolls at
    # random (or the guest missed a double), and the guest always takes
    judged = page.locator(".bg-moves tr[data-cube] td.loss:not(:empty)")
    assert judged.count() > 0
    page.locator("[data-testid=stepper]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / f"replay-bg-{lang}-{width}.png"))
    _read_the_legend(page, artifacts_dir / f"replay-bg-legend-{lang}-{width}.png", marks=4)
    judged.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / f"replay-bg-cube-{lang}-{width}.png"))
    if width == 390:
        _fits_a_phone(page)
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_the_replays_with_their_analysis_pass_axe(
    browser: Any, site: Site, finished: dict[str, Any], bg_finished: dict[str, Any], lang: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for table, hand, done in (
        (finished["table"], finished["hand"], ".replay-tricks .cost"),
        (bg_finished["table"], 1, "[data-testid=ratings] li"),
    ):
        page.goto(f"{site.url}/{lang}/play/{table}/replay/{hand}/#step-3")
        page.locator("[data-testid=open-analysis]").click()
        page.locator(done).first.wait_for(timeout=120000)
        violations = axe.run(page).response["violations"]
        assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations] == []
    context.close()


MY_TURN = "#table-live.my-turn"
MOVE = f"{MY_TURN} .hand-cards button.card, {MY_TURN} .choices button:visible"


def test_a_new_player_plays_a_hand_then_reads_what_each_own_card_was_worth(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    """As a newcomer: Play now, a hand played by clicking the first legal card, then its
    replay: the analysis, and the knowable verdict on the player's own cards."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.url}/en/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/en/play/*/")
    page.wait_for_selector("#table-live .felt")
    replays = "#table-live nav.replays a"
    played = False
    for _ in range(300):
        page.wait_for_selector(f"{MOVE}, {replays}", timeout=30_000)
        if played and page.locator(replays).count():
            break
        if not page.locator(MOVE).count():
            page.wait_for_timeout(200)
            continue
        before = page.locator("#table-live").get_attribute("data-version")
        cards = page.locator(f"{MY_TURN} .hand-cards button.card")
        if cards.count():
            cards.first.click()
            played = True
        else:
            page.locator(f"{MY_TURN} .choices button:visible").first.click()
        page.wait_for_function(
            "v => document.getElementById('table-live').dataset.version !== v",
            arg=before, timeout=20_000,
        )
    assert played and page.locator(replays).count()
    page.locator(replays).last.click()
    page.wait_for_selector("[data-testid=stepper]")
    if not page.locator(".replay-tricks li[data-step]").count():
        pytest.skip("the hand ended with no card played (a redeal)")
    page.locator("[data-testid=open-analysis]").click()
    note = page.locator("[data-testid=knowable-note]")
    note.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => { const t = document.querySelector('[data-testid=knowable-note]').textContent;"
        " return t.startsWith('Your own cards') || t.startsWith('None of your'); }",
        timeout=120_000,
    )
    text = note.text_content() or ""
    if text.startswith("Your own cards"):
        data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
        mine = [i + 1 for i, s in enumerate(data["steps"]) if s["seat"] == 0]
        for step in mine:
            page.goto(page.url.split("#")[0] + f"#step-{step}")
            verdict = page.locator("[data-testid=step-verdict]").text_content() or ""
            if "From what you could know then" in verdict:
                break
        else:
            raise AssertionError("no verdict on the player's own cards")
    page.locator("[data-testid=stepper]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "replay-new-player-knowable-en-1280.png"))
    assert errors == []
    context.close()
