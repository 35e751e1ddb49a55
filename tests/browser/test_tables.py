"""Live tables in Debian's Chromium, against a real daphne (HTTP and WebSocket) on a
throw-away SQLite database: a guest plays a whole Rung hand by mouse, then by keyboard
only; two signed-in players share a table with two bots; screenshots in three languages
at 1280 and 390 px; axe finds no serious or critical violation on the table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import ROOT, Site, console_errors

pytestmark = pytest.mark.browser


def _play_now(page: Any, site: Site, lang: str = "en") -> None:
    page.goto(f"{site.url}/{lang}/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/{lang}/play/*/")
    page.wait_for_selector("#table-live .felt")


MY_TURN = "#table-live.my-turn"
# The claim's own button waits inside a closed <details> (its confirmation): not a move yet.
MOVE = f"{MY_TURN} .hand-cards button.card, {MY_TURN} .choices button:visible"


def _version(page: Any) -> str:
    return str(page.locator("#table-live").get_attribute("data-version"))


def _wait_new_frame(page: Any, before: str) -> None:
    page.wait_for_function(
        "v => document.getElementById('table-live').dataset.version !== v",
        arg=before,
        timeout=20_000,
    )


def _hands_ended(page: Any) -> int:
    return int(page.locator("#table-live nav.replays a").count())


class Hand:
    """The first hand in which this page plays a card, followed to its end.

    A hand can end with no card played: a bot calling trump on a weak five asks for a
    redeal (CP-RUNG-5a), and that hand joins the finished ones at once. Taken for the
    hand being played, it ended these tests before the player's first card (one run in
    six or so): so a hand counts only once this page has played a card in it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.ended_before = _hands_ended(page)
        self.played = False  # set by the test when it plays a card

    def over(self) -> bool:
        ended = _hands_ended(self.page)
        if ended > self.ended_before and not self.played:
            self.ended_before = ended  # a redeal, before any card of ours: not our hand
        return self.played and ended > self.ended_before

    def next_move(self) -> bool:
        """Wait until it is this page's move (True) or the hand is over (False)."""
        while True:
            self.page.wait_for_selector(
                f"{MOVE}, #table-live nav.replays a:nth-of-type({self.ended_before + 1})",
                timeout=30_000,
            )
            if self.over():
                return False
            if self.page.locator(MOVE).count():
                return True


def test_guest_plays_a_whole_rung_hand_by_clicking_and_reads_the_result(
    page: Any, site: Site, artifacts_dir: Path
) -> None:
    errors = console_errors(page)
    _play_now(page, site)
    assert "Sign up to keep your ratings" in page.content()
    page.locator("#autoplay-forced").check()  # the player's choice, kept in localStorage
    # Every announcement the live region is given, not only those showing when it is our
    # turn: a trick's winner is said in the frame after its last card, which is our turn
    # only when we won it (a hand in which we win none is a fair deal).
    page.evaluate(
        "() => { window.__announced = []; const el = document.getElementById("
        "'table-announce'); new MutationObserver(() => window.__announced.push("
        "el.innerText)).observe(el, {childList: true, subtree: true, characterData: true}); }"
    )
    announced: set[str] = set()
    moves = autoplayed = 0
    hand = Hand(page)
    for _ in range(200):
        more = hand.next_move()
        announced.add(page.locator("#table-announce").inner_text())
        if not more:
            break
        before = _version(page)
        if page.locator(f"{MY_TURN}[data-forced]").count():
            _wait_new_frame(page, before)  # a forced card plays itself after a pause
            autoplayed += 1
            hand.played = True
            continue
        cards = page.locator(f"{MY_TURN} .hand-cards button.card")
        if cards.count():
            # Only legal cards are buttons; the others are dimmed pictures.
            legal = page.locator(f"{MY_TURN} .hand-cards .card").count()
            assert cards.count() <= legal
            cards.first.click()
            hand.played = True
        else:
            page.locator(f"{MY_TURN} .choices button").first.click()
        moves += 1
        _wait_new_frame(page, before)
    assert hand.over(), "the hand did not end"
    number = _hands_ended(page)  # the hand we played: the last to end
    assert moves + autoplayed >= 5
    assert page.evaluate("() => localStorage.getItem('baithak.autoplayForced')") == "1"
    announced.update(page.evaluate("() => window.__announced"))
    text = " ".join(announced)
    assert "played the" in text and "trick." in text
    # The live table shows the result of the hand that ended (fetched while the next starts).
    page.wait_for_selector("#table-live .hand-summary", timeout=15_000)
    live = page.locator("#table-live .hand-summary").inner_text()
    # The latest hand's: bots may already have ended the next with a redeal.
    assert "is over" in live and ("Winner" in live or "dealt again" in live)
    page.screenshot(path=str(artifacts_dir / "tables-after-hand-en-1280.png"), full_page=True)
    page.locator("#table-live nav.replays a").nth(number - 1).click()
    page.wait_for_selector(".hand-summary")
    result = page.locator(".hand-summary").inner_text()
    assert "Result" in result and "Winner" in result
    assert "✔ The server seed is in the chain" in page.content()
    assert "✔ The deal recomputes from the seeds." in page.content()
    page.screenshot(path=str(artifacts_dir / "tables-replay-en-1280.png"), full_page=True)
    assert errors == []


def test_guest_plays_a_whole_rung_hand_with_the_keyboard_only(page: Any, site: Site) -> None:
    _play_now(page, site)
    moved_by_arrow = False
    hand = Hand(page)
    for _ in range(300):
        if not hand.next_move():
            break
        before = _version(page)
        # Until the arrows have been tried, a turn with two legal cards or more is where
        # to try them: Tab on to a card then, not just to the first control (focus kept
        # from the last frame may rest on a choice, such as the claim).
        try_arrows = (
            not moved_by_arrow
            and page.locator(f"{MY_TURN} .hand-cards button.card").count() > 1
        )
        # Tab to the first control of the table if focus is not already on one.
        for _tab in range(40):
            inside = page.evaluate(
                "(card) => { const a = document.activeElement; const r = document"
                ".getElementById('table-live'); const m = (a && a.dataset.action) || '';"
                " return !!a && a !== r && r.contains(a) && a.tagName === 'BUTTON' &&"
                " !a.classList.contains('emote') && m !== '' && (!card ||"
                " m.startsWith('play:')); }",
                try_arrows,
            )
            if inside:
                break
            page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.dataset.action || ''")
        assert focused, "Tab never reached a move"
        if focused.startswith("play:") and try_arrows:
            page.keyboard.press("ArrowRight")
            after = page.evaluate("() => document.activeElement.dataset.action || ''")
            moved_by_arrow = moved_by_arrow or (after != focused and after.startswith("play:"))
            focused = after
        hand.played = hand.played or focused.startswith("play:")
        page.keyboard.press("Enter")
        _wait_new_frame(page, before)
    assert hand.over(), "the hand did not end"
    assert moved_by_arrow, "the arrow keys never moved between legal cards"


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_table_screenshots_and_axe_in_every_language(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        errors = console_errors(page)
        _play_now(page, site, lang)
        # Play on until it is our turn in the middle of play (a trick on the table). Not
        # READY: once a hand is over (a bot's redeal, say) its list of finished hands is
        # no sign that it is our turn.
        for _ in range(60):
            page.wait_for_selector(MOVE, timeout=30_000)
            if page.locator(f"{MY_TURN}.phase-play .trick .played").count():
                break
            before = _version(page)
            cards = page.locator(f"{MY_TURN} .hand-cards button.card")
            (
                cards.first if cards.count() else page.locator(f"{MY_TURN} .choices button").first
            ).click()
            _wait_new_frame(page, before)
        assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ur" else "ltr")
        page.locator(".last-trick summary").first.click() if page.locator(
            ".last-trick"
        ).count() else None
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts_dir / f"tables-{lang}-{width}.png"), full_page=True)
        # Nothing wider than the phone: no sideways scrolling.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        results = Axe().run(page)
        assert results.response["testEngine"]["name"] == "axe-core"
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], bad
        assert errors == []
        context.close()


SETUP_TWO = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
User = get_user_model()
users = [User.objects.create_user(name, password="pw") for name in ("amna", "bilal")]
cookies = []
for u in users:
    c = Client()
    c.force_login(u)
    cookies.append(c.cookies["sessionid"].value)
own = [access.Owner(u, None) for u in users]
t = lifecycle.create_table(
    game="courtpiece", owner=own[0], variant="rung", bots=[1, 3], move_seconds=120
)
lifecycle.take_seat(table_id=t.pk, owner=own[1], seat=2)
lifecycle.start_table(table_id=t.pk, owner=own[0])
print("RESULT:" + json.dumps({"table": t.pk, "cookies": cookies}))
"""


def test_two_signed_in_browsers_and_two_bots_play_a_hand(browser: Any, site: Site) -> None:
    setup = site.manage("shell", code=SETUP_TWO)
    pages = []
    for cookie in setup["cookies"]:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url}])
        page = context.new_page()
        page.goto(f"{site.url}/en/play/{setup['table']}/")
        page.wait_for_selector("#table-live .felt")
        pages.append(page)
    # A move timer: the countdown runs (m:ss), from the deadline the server sent.
    pages[0].wait_for_function(
        "() => /^\\d+:\\d\\d$/.test("
        "(document.querySelector('time.countdown') || {}).textContent || '')"
    )
    # Partners: each sees the other across the table, by name.
    assert "bilal" in pages[0].locator(".seat-top .who").inner_text()
    assert "amna" in pages[1].locator(".seat-top .who").inner_text()
    deadline = time.monotonic() + 240
    hands = [Hand(p) for p in pages]
    while not all(h.over() for h in hands):
        assert time.monotonic() < deadline, "the hand did not end"
        acted = False
        for page, hand in zip(pages, hands, strict=True):
            if hand.over():
                continue
            cards = page.locator(f"{MY_TURN} .hand-cards button.card")
            choices = page.locator(f"{MY_TURN} .choices button")
            if cards.count() or choices.count():
                before = _version(page)
                card = cards.count() > 0
                (cards.first if card else choices.first).click()
                hand.played = hand.played or card
                _wait_new_frame(page, before)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(100)
    # Both saw the same table: the same finished hand, the same match score.
    scores = [p.locator(".teams").inner_text() for p in pages]
    assert scores[0] == scores[1]
    for page in pages:
        page.context.close()


NEW_USER = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
u = get_user_model().objects.create_user("cyra", password="pw")
c = Client()
c.force_login(u)
print("RESULT:" + json.dumps({"cookie": c.cookies["sessionid"].value}))
"""


def test_lobby_updates_live_when_a_table_opens(browser: Any, page: Any, site: Site) -> None:
    errors = console_errors(page)
    page.goto(f"{site.url}/en/play/")
    page.wait_for_timeout(800)  # the lobby socket is open and has sent its first frame
    # Someone else creates a public Mendikot table from the form.
    made = site.manage("shell", code=NEW_USER)
    other = browser.new_context()
    other.add_cookies([{"name": "sessionid", "value": made["cookie"], "url": site.url}])
    host = other.new_page()
    host.goto(f"{site.url}/en/play/new/")
    host.locator("select[name=variant]").select_option("mendikot")
    host.locator("form.create-form button[type=submit]").click()
    host.wait_for_url(f"{site.url}/en/play/*/")
    table_path = host.url.removeprefix(site.url)
    # No reload here: the lobby socket rings and the list is fetched again.
    page.wait_for_selector(f"#lobby-tables a[href='{table_path}']", timeout=10_000)
    assert "Mendikot" in page.locator("#lobby-tables").inner_text()
    assert "cyra" in page.locator("#lobby-tables").inner_text()
    other.close()
    assert errors == []


def test_the_create_form_shows_only_the_chosen_games_rules(page: Any, site: Site) -> None:
    """With JavaScript the other games' house rules are hidden and not sent (without it
    they are all shown, grouped by game: tests/courtpiece/test_newcomer_pages.py)."""
    errors = console_errors(page)
    page.goto(f"{site.url}/en/play/new/")
    # A guest reads what needs an account before the form, and gets a form it can send.
    assert page.locator("[data-testid=account-needed]").is_visible()
    visible = "form.create-form fieldset[data-variant]:visible"

    def shown() -> list[str]:
        return [str(f.get_attribute("data-variant")) for f in page.locator(visible).all()]

    assert shown() == ["rung"]
    assert page.locator("select[name=hukum__bidding]").is_disabled()  # not sent
    page.locator("select[name=variant]").select_option("hukum")
    assert shown() == ["hukum"]
    assert page.locator("select[name=rung__court]").is_disabled()
    assert not page.locator(".no-house-rules").is_visible()
    page.locator("select[name=variant]").select_option("mendikot")
    assert shown() == [] and page.locator(".no-house-rules").is_visible()
    assert not page.locator(".no-js-note").is_visible()
    # The guest's table: three bots, the game chosen, no other game's rules sent.
    page.locator("form.create-form button[type=submit]").click()
    page.wait_for_url(f"{site.url}/en/play/*/")
    page.wait_for_selector("#table-live .felt")
    assert "Mendikot" in page.locator(".table-bar .variant").inner_text()
    assert errors == []


# --- table.js on its own: frames swapped by hand, as htmx's ws extension swaps them ------

FRAME = """<div id="table-live" class="table-live" data-version="{v}">{slot}<div class="felt">
<div class="trick">{played}</div></div><div class="hand-cards"><form ws-send class="act-form">
<input type="hidden" name="type" value="action"><input type="hidden" name="action" value="play:2C">
<button type="submit" class="card playable" data-action="play:2C">2C</button></form></div>
<form ws-send class="act-form"><input type="hidden" name="type" value="emote">
<button type="submit" class="emote">Hello</button></form></div>"""
SLOT = (
    '<div id="summary-slot-1" class="hand-summary-slot" hx-preserve="true">'
    '<section class="hand-summary"><h2>Hand 1 is over</h2><p class="summary-close-row">'
    '<button type="button" class="act summary-close" data-close-summary>Close</button></p>'
    "</section></div>"
)


def _swap(page: Any, version: int, slot: bool, played: bool) -> None:
    """One frame, as the ws extension does it: wsBeforeMessage, the swap (hx-preserve
    keeps the element with the slot's id), wsAfterMessage."""
    html = FRAME.format(v=version, slot=SLOT if slot else "", played="<i>AS</i>" if played else "")
    page.evaluate(
        """html => {
          document.dispatchEvent(new CustomEvent("htmx:wsBeforeMessage"));
          const old = document.getElementById("table-live");
          const kept = old.querySelector("[hx-preserve]");
          const tmp = document.createElement("div"); tmp.innerHTML = html;
          const fresh = tmp.firstElementChild;
          const twin = kept && fresh.querySelector("#" + kept.id);
          if (twin) { twin.replaceWith(kept); }
          old.replaceWith(fresh);
          document.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
        }""",
        html,
    )
    page.wait_for_timeout(50)


def _summary_shown(page: Any) -> bool:
    return bool(
        page.evaluate(
            "() => { const s = document.querySelector('#table-live .hand-summary-slot');"
            " return !!s && !s.hidden && !!s.querySelector('.hand-summary'); }"
        )
    )


def test_the_last_hands_summary_stays_until_the_player_moves_or_closes_it(page: Any) -> None:
    errors = console_errors(page)
    page.set_content("<main>" + FRAME.format(v=1, slot=SLOT, played="") + "</main>")
    page.add_script_tag(path=str(ROOT / "static" / "js" / "table.js"))
    page.evaluate(  # a submit goes nowhere: the ws extension would send it instead
        "() => document.addEventListener('submit', e => e.preventDefault())"
    )
    # Bots play the new hand's first cards: the frames have no slot any more.
    _swap(page, 2, slot=False, played=True)
    _swap(page, 3, slot=False, played=True)
    assert _summary_shown(page)
    # An emote is not a move.
    page.locator("button.emote").click()
    _swap(page, 4, slot=False, played=True)
    assert _summary_shown(page)
    # The player plays a card: it goes, and stays gone.
    page.locator("button.card").click()
    assert not _summary_shown(page)
    _swap(page, 5, slot=False, played=True)
    assert not _summary_shown(page)

    # Closed with the keyboard: it goes, focus stays at the table, and the frames of the
    # young hand (which carry the slot again) keep it closed.
    page.set_content("<main>" + FRAME.format(v=1, slot=SLOT, played="") + "</main>")
    page.add_script_tag(path=str(ROOT / "static" / "js" / "table.js"))
    _swap(page, 2, slot=True, played=False)
    page.locator("button.summary-close").focus()
    page.keyboard.press("Enter")
    assert not _summary_shown(page)
    assert page.evaluate(
        "() => document.getElementById('table-live').contains(document.activeElement)"
    )
    _swap(page, 3, slot=True, played=False)
    _swap(page, 4, slot=False, played=True)
    assert not _summary_shown(page)
    assert errors == []


def test_card_ranks_sit_inside_their_cards_on_a_right_to_left_page(page: Any) -> None:
    """Measured: on a dir="rtl" page (Urdu) every card's rank letter is inside its card."""
    from game.courtpiece.cards import card_svg

    cards = "".join(
        f'<span class="card-static" style="display:inline-block;width:120px">{card_svg(c)}</span>'
        for c in ("KD", "TS", "2H", "AC")
    )
    page.set_content(f'<html lang="ur" dir="rtl"><body><main>{cards}</main></body></html>')
    page.add_style_tag(path=str(ROOT / "static" / "css" / "table.css"))
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll("svg.card-face")).filter(svg => {
          const box = svg.getBoundingClientRect();
          const t = svg.querySelector("text").getBoundingClientRect();
          return t.left < box.left || t.right > box.left + box.width / 2;
        }).length"""
    )
    assert outside == 0


@pytest.mark.parametrize("lang", ["ur", "en", "hi"])
def test_the_hand_is_on_the_first_screen_of_a_phone_and_a_laptop(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    """The guest line is one short line and the options sit below the table, so the cards
    (the five to choose trump from, too) show without scrolling at 390x844 and 1280x900."""
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        _play_now(page, site, lang)
        page.wait_for_selector("#table-live .hand-cards .card")
        # A bot may have redealt the first hand already: its summary comes first, on top,
        # until the player closes it (or plays); closed, the hand moves up.
        page.wait_for_timeout(1000)  # the summary is fetched after the frame that ends it
        close = page.locator("[data-close-summary]")
        if close.count() and close.first.is_visible():
            close.first.click()
            page.wait_for_selector("[data-close-summary]", state="hidden")
        page.evaluate("() => window.scrollTo(0, 0)")
        # The hand's first row of cards is whole on the first screen (with a long call
        # explanation or thirteen cards on a phone, a second row may run below it).
        bottom = page.evaluate(
            "() => Math.min(...Array.from(document.querySelectorAll('#table-live .hand-cards"
            " .card')).map(c => c.getBoundingClientRect().bottom))"
        )
        page.screenshot(path=str(artifacts_dir / f"tables-fold-{lang}-{width}.png"))
        assert bottom <= height, (lang, width, bottom)
        # The options come after the table, not before it.
        order = page.evaluate(
            "() => !!(document.getElementById('table-live').compareDocumentPosition("
            "document.querySelector('.table-tools')) & Node.DOCUMENT_POSITION_FOLLOWING)"
        )
        assert order
        context.close()
