"""A newcomer's smaller confusions, gone, in Debian's Chromium against a real daphne, at
1280 and 390 px in English, Urdu and Hindi (screenshots in test-artifacts/):

- a guest's table offers to sign up beside "Guest game: not rated", and signing up from
  there (email confirmed) comes back to the same table, the seat still theirs;
- the Hakim badge is explained in words in the table's bar, visible on a phone (no hover),
  and axe finds nothing serious about it;
- backgammon: the cube in the middle reads 1, as the line beside the board says, and the
  opponent's last move is written whole in notation;
- the create-table form starts on the timer that does not hurry a player against bots;
- the home page counts the visitor among the players online.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors
from tests.browser.test_backgammon import BOARD, LIVE, wait_my_turn
from tests.browser.test_backgammon import play_now as _bg_play_now
from tests.browser.test_way_back import confirmation_link

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
LANGS = ("en", "ur", "hi")
HAKIM = {"en": "Hakim", "ur": "حاکم", "hi": "हाकिम"}


def _size(width: int) -> dict[str, int]:
    return {"width": width, "height": 844 if width < 800 else 800}


def _fits(page: Any) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{page.url} is {wide} px wider than the screen"


def _rung_now(page: Any, site: Site, lang: str) -> None:
    page.goto(f"{site.url}/{lang}/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/{lang}/play/*/")
    page.wait_for_selector("#table-live .felt")


def test_a_guest_signs_up_from_the_table_and_comes_back_to_it(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport=_size(390))
    page = context.new_page()
    errors = console_errors(page)
    _rung_now(page, site, "en")
    table_path = page.url.removeprefix(site.url)
    offer = page.locator(".guest-offer")
    assert "Guest game: not rated." in offer.inner_text()
    link = offer.get_by_role("link", name="Sign up to keep your ratings")
    assert link.is_visible()
    offer.screenshot(path=str(artifacts_dir / "polish-guest-offer-en-390.png"))
    link.click()
    page.wait_for_url(lambda url: url.startswith(f"{site.url}/en/accounts/signup/?next="))
    assert table_path in page.url.replace("%2F", "/")
    page.fill("#id_username", "naya_khiladi")
    page.fill("#id_email", "naya@example.com")
    page.fill("#id_password1", "a long and quiet evening")
    page.fill("#id_password2", "a long and quiet evening")
    logged = len(site.log.read_text(errors="replace"))
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_url(f"{site.url}/en/accounts/confirm-email/")
    page.goto(f"{site.url}{confirmation_link(site, logged)}")
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"{site.url}{table_path}")
    page.wait_for_selector("#table-live .felt")
    assert page.locator("#table-live").get_attribute("data-seat") == "0"  # still theirs
    assert page.locator(".guest-offer").count() == 0  # signed in now
    assert errors == []
    # The line in every language and size: one line's worth, the link in view.
    for lang in LANGS:
        for width in WIDTHS:
            guest = browser.new_context(viewport=_size(width))
            p = guest.new_page()
            _rung_now(p, site, lang)
            line = p.locator(".guest-offer")
            assert line.locator("a[href*='/accounts/signup/?next=']").is_visible()
            _fits(p)
            p.screenshot(path=str(artifacts_dir / f"polish-guest-{lang}-{width}.png"))
            guest.close()
    context.close()


def _bg_move(page: Any) -> None:
    """Make the player's move by clicks, in any language (a checker, where it goes, until
    the play is complete; then confirm)."""
    before = str(page.locator("#table-live").get_attribute("data-version"))
    if page.locator(f"{LIVE} .bg-forced-play").count():
        page.locator(f"{LIVE} .bg-forced-play").click()
    else:
        while not page.locator(f"{BOARD} [data-bg-action='confirm']").count():
            steps = page.locator(BOARD).get_attribute("data-steps") or ""
            page.locator(f"{BOARD} .bg-src").first.click()
            page.locator(f"{BOARD} .bg-dst.bg-on").first.click()
            page.wait_for_function(
                "b => { const el = [...document.querySelectorAll('#bg-board-slot .bg-board')]"
                ".find(e => e.offsetParent !== null); return el && el.dataset.steps !== b; }",
                arg=steps, timeout=15_000,
            )
        page.locator(f"{BOARD} [data-bg-action='confirm']").click()
    page.wait_for_function(
        "v => document.getElementById('table-live').dataset.version !== v",
        arg=before, timeout=20_000,
    )


def _until_trump_is_chosen(page: Any) -> None:
    """Wait (time-bounded) for the bar's Hakim key; when the call is the player's own,
    make it (the first trump offered)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator("#hakim-key").count():
            return
        call = page.locator("#table-live.my-turn .choices .call-row button")
        if call.count():
            call.first.click()
        page.wait_for_timeout(300)
    raise AssertionError("trump was never chosen")


@pytest.mark.parametrize("lang", LANGS)
def test_the_hakim_badge_is_explained_in_words_on_a_phone(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    for width in WIDTHS:
        context = browser.new_context(viewport=_size(width))
        page = context.new_page()
        errors = console_errors(page)
        _rung_now(page, site, lang)
        _until_trump_is_chosen(page)
        # Read in one go: a new frame may replace the table between two looks.
        seen = page.evaluate("""() => {
            const key = document.getElementById('hakim-key');
            const badges = [...document.querySelectorAll('.seat .badge.caller')];
            const r = key.getBoundingClientRect();
            return {badge: key.querySelector('.caller-key').innerText, text: key.innerText,
                    bottom: r.bottom, height: r.height, seats: badges.length,
                    described: badges.map(b => b.getAttribute('aria-describedby'))};
        }""")
        assert seen["badge"] == HAKIM[lang] and seen["height"] > 0  # drawn, not hidden
        assert seen["bottom"] <= _size(width)["height"]  # on the first screen
        assert seen["seats"] == 1 and seen["described"] == ["hakim-key"]
        assert len(seen["text"]) > len(HAKIM[lang]) + 5  # the badge and a sentence beside it
        _fits(page)
        page.screenshot(path=str(artifacts_dir / f"polish-hakim-{lang}-{width}.png"))
        bad = [
            (v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == [], bad
        assert errors == []
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_backgammon_cube_and_last_move_read_as_they_are(
    browser: Any, site: Site, artifacts_dir: Path, lang: str
) -> None:
    for width in WIDTHS:
        context = browser.new_context(viewport=_size(width))
        page = context.new_page()
        errors = console_errors(page)
        _bg_play_now(page, site, lang)
        deadline = time.monotonic() + 90
        while not page.locator(f"{BOARD} [data-testid='last-move']").count():
            assert time.monotonic() < deadline, "the bot never moved"
            phase = wait_my_turn(page)
            before = str(page.locator("#table-live").get_attribute("data-version"))
            if phase == "roll":
                page.locator(f"{LIVE} button[data-action='roll']").click()
            elif phase == "move":
                _bg_move(page)
                continue
            else:
                break
            page.wait_for_function(
                "v => document.getElementById('table-live').dataset.version !== v",
                arg=before, timeout=20_000,
            )
        seen = page.evaluate("""(board) => {
            const b = [...document.querySelectorAll('#bg-board-slot .bg-board')]
                .find(e => e.offsetParent !== null);
            const cube = b.querySelector('.bg-cube');
            return {owner: cube.dataset.owner, face: cube.querySelector('text').textContent,
                    line: document.querySelector('.bg-cube-line').innerText,
                    notation: b.querySelector('[data-testid=last-move] .bg-notation').innerText};
        }""")
        if seen["owner"] == "centre":  # the face and the line say the same stake
            assert seen["face"] == "1" and re.search(r"\b1\b", seen["line"]), seen
        notation = seen["notation"]
        assert re.fullmatch(r"(?:(?:bar|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))? ?)+", notation)
        _fits(page)
        page.screenshot(path=str(artifacts_dir / f"polish-bg-{lang}-{width}.png"))
        assert errors == []
        context.close()


def test_the_new_table_form_and_the_home_figure(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    for lang in LANGS:
        for width in WIDTHS:
            context = browser.new_context(viewport=_size(width))
            page = context.new_page()
            errors = console_errors(page)
            page.goto(f"{site.url}/{lang}/")
            assert page.locator("[data-live='players']").inner_text() != "0"
            page.locator(".live-figures").screenshot(
                path=str(artifacts_dir / f"polish-home-figures-{lang}-{width}.png"))
            for path in ("play/new/", "play/new/backgammon/"):
                page.goto(f"{site.url}/{lang}/{path}")
                timer = page.locator("select[name='move_seconds']")
                assert timer.input_value() == "auto"
                help_line = page.locator(".timer-help")
                assert help_line.is_visible()
                _fits(page)
                timer.scroll_into_view_if_needed()
                name = path.strip("/").replace("/", "-")
                page.screenshot(path=str(artifacts_dir / f"polish-{name}-{lang}-{width}.png"))
            assert errors == []
            context.close()
