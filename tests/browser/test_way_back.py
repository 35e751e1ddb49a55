"""A player's way back and a friend's way in, in Debian's Chromium against a real daphne:
a guest leaves a game and finds it again from the home page; a stranger follows an invite
through sign-up and the emailed confirmation and ends seated at the table, seen arriving
by the host without a reload. Screenshots in three languages at 1280 and 390 px go to
test-artifacts/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors, fits_the_screen

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
LANGS = ("en", "ur", "hi")


def test_a_guest_leaves_a_game_and_finds_it_again_from_the_home_page(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/en/")
    assert page.locator("[data-testid='your-games']").count() == 0  # nothing yet
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_url(f"{site.url}/en/play/*/")
    page.wait_for_selector("#table-live .felt")
    table_path = page.url.removeprefix(site.url)
    # Away to the rules, then the home page: Play now would make a new table; the way
    # back is the box.
    page.goto(f"{site.url}/en/rules/")
    page.goto(f"{site.url}/en/")
    box = page.locator("[data-testid='your-games']")
    box.wait_for()
    assert "In progress" in box.inner_text()
    box.locator(f"a[href='{table_path}']").click()
    page.wait_for_url(f"{site.url}{table_path}")
    page.wait_for_selector("#table-live .felt")
    assert page.locator("#table-live").get_attribute("data-seat") == "0"  # their own seat
    assert errors == []
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width < 800 else 800})
            page.goto(f"{site.url}/{lang}/")
            box = page.locator("[data-testid='your-games']")
            box.scroll_into_view_if_needed()
            assert box.locator(f"a[href='/{lang}{table_path[3:]}']").count() == 1
            fits_the_screen(page)
            box.screenshot(path=str(artifacts_dir / f"way-back-home-{lang}-{width}.png"))
            page.goto(f"{site.url}/{lang}/play/")
            assert page.locator("[data-testid='your-games']").count() == 1
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"way-back-lobby-{lang}-{width}.png"))
    context.close()


SETUP_HOST = r"""
import json
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
host = get_user_model().objects.create_user("ammi_jaan", "ammi@example.com", "a long quiet pw")
EmailAddress.objects.create(user=host, email="ammi@example.com", primary=True, verified=True)
c = Client()
c.force_login(host)
t = lifecycle.create_table(
    game="courtpiece", owner=access.Owner(host, None), private=True, move_seconds=60
)
cookie = c.cookies["sessionid"].value
print("RESULT:" + json.dumps({"table": t.pk, "invite": t.invite, "cookie": cookie}))
"""

CONFIRM_LINK = re.compile(r"https?://[\w.:]+(/en/accounts/confirm-email/[^\s]+/)")


def confirmation_link(site: Site, after: int) -> str:
    """The newest confirmation link the console email backend printed to daphne's log."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = CONFIRM_LINK.findall(site.log.read_text(errors="replace")[after:])
        if found:
            return str(found[-1])
        time.sleep(0.2)
    raise AssertionError("no confirmation email in the server's log")


def test_an_invite_followed_through_sign_up_ends_seated_and_seen_live_by_the_host(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    setup = site.manage("shell", code=SETUP_HOST)
    table, invite = setup["table"], setup["invite"]
    invite_path = f"/en/play/{table}/?invite={invite}"

    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    host_context.add_cookies([{"name": "sessionid", "value": setup["cookie"], "url": site.url}])
    host = host_context.new_page()
    host_errors = console_errors(host)
    host.goto(f"{site.url}/en/play/{table}/")
    host.wait_for_selector("#waiting-seats")
    host.evaluate("() => { window.__samePage = true; }")  # gone if the page reloads
    assert host.locator("#waiting-seats li[data-seat='2'] em").inner_text() == "Empty seat"
    assert host.locator(".seat-top .badge.away").count() == 0  # an empty seat is not away

    friend_context = browser.new_context(viewport={"width": 390, "height": 844})
    friend = friend_context.new_page()
    friend_errors = console_errors(friend)
    friend.goto(f"{site.url}{invite_path}")
    intro = friend.locator("#waiting-seats").inner_text()
    assert "ammi_jaan invites you to a table of Rung" in intro
    north = friend.locator("#waiting-seats li[data-seat='2']")
    assert "partner of ammi_jaan" in north.inner_text()
    fits_the_screen(friend)
    friend.screenshot(path=str(artifacts_dir / "invite-guest-en-390.png"), full_page=True)
    north.get_by_role("button", name="Sit at North").click()
    friend.wait_for_url(lambda url: url.startswith(f"{site.url}/en/accounts/login/?next="))
    # From the sign-in page to the sign-up page: `next` goes along.
    friend.locator("main a[href*='/accounts/signup/'][href*='next=']").click()
    friend.wait_for_url(lambda url: url.startswith(f"{site.url}/en/accounts/signup/?next="))
    friend.fill("#id_username", "dost")
    friend.fill("#id_email", "dost@example.com")
    friend.fill("#id_password1", "a long and quiet evening")
    friend.fill("#id_password2", "a long and quiet evening")
    logged = len(site.log.read_text(errors="replace"))
    friend.locator("form.account-form button[type=submit]").click()
    friend.wait_for_url(f"{site.url}/en/accounts/confirm-email/")
    friend.goto(f"{site.url}{confirmation_link(site, logged)}")
    friend.get_by_role("button", name="Confirm").click()
    friend.wait_for_url(f"{site.url}{invite_path}")
    friend.wait_for_selector("#table-live .felt")
    assert friend.locator("#table-live").get_attribute("data-seat") == "2"
    assert friend.locator("#waiting-seats li[data-seat='2']").inner_text().strip().endswith("You")
    friend.screenshot(path=str(artifacts_dir / "invite-seated-en-390.png"), full_page=True)

    # The host saw them arrive, without reloading.
    host.wait_for_function(
        "() => (document.querySelector(\"#waiting-seats li[data-seat='2']\") || {})"
        ".textContent.includes('dost')",
        timeout=10_000,
    )
    host.wait_for_function(
        "() => (document.querySelector('.seat-top .who') || {}).textContent === 'dost'"
    )
    assert host.evaluate("() => window.__samePage === true")
    host.screenshot(path=str(artifacts_dir / "invite-host-sees-friend-en-1280.png"), full_page=True)
    assert host_errors == [] and friend_errors == []
    host_context.close()
    friend_context.close()


def test_the_invite_page_and_the_private_404_in_three_languages(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    setup = site.manage("shell", code=SETUP_HOST.replace('"ammi_jaan"', '"nani"').replace(
        "ammi@example.com", "nani@example.com"))
    table, invite = setup["table"], setup["invite"]
    north = {"en": "North", "ur": "شمال", "hi": "उत्तर"}
    for width in WIDTHS:
        height = 844 if width < 800 else 800
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors = console_errors(page)
        for lang in LANGS:
            page.goto(f"{site.url}/{lang}/play/{table}/?invite={invite}")
            row = page.locator("#waiting-seats li[data-seat='2']")
            assert north[lang] in row.inner_text()
            assert "nani" in row.inner_text()
            fits_the_screen(page)
            page.screenshot(path=str(artifacts_dir / f"invite-{lang}-{width}.png"), full_page=True)
            answer = page.goto(f"{site.url}/{lang}/play/{table}/")
            assert answer is not None and answer.status == 404
            assert page.locator("h1").count() == 1 and page.locator(".site-header, header").count()
            fits_the_screen(page)
            shot = artifacts_dir / f"no-table-{lang}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
        assert [e for e in errors if "404" not in e] == []
        context.close()
