"""Every game counts, and the fair deal in the player's hands, in Debian's Chromium against
a real daphne (issue 27): a finished game against bots appears in the player's history
and statistics, with its replays; "Check this deal" recomputes the deal in the browser
(Web Crypto) and shows "matches" beside each hand, and "does not match" once a seed is
tampered with; the browser's recipe equals the Python engine's for several seeds; the
table shows its promise and the player's seed before the first card, and the player
changes their seed. Screenshots in three languages at 1280 and 390 px go to
test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from game.engine import fair
from tests.browser.site import Site, console_errors

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
LANGS = ("en", "ur", "hi")

# A signed-in player ("nani") who has finished one game of Be Ranga against three bots
# (played through the table services, as the socket plays it: the player's moves by
# moves.apply_action, the bots' by their deadlines), and has a table waiting for friends.
SETUP = r"""
import json, random, time
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from game.models import Table
from game.tables import access, due, lifecycle, moves, presence
from game.tables.store import replay
user = get_user_model().objects.create_user("nani", "nani@example.com", "a long quiet pw")
EmailAddress.objects.create(user=user, email="nani@example.com", primary=True, verified=True)
me = access.Owner(user, None)
t = lifecycle.create_table(game="courtpiece", variant="be_ranga", target=1, owner=me,
                           private=True, bots=[1, 2, 3], move_seconds=None)
presence.seat_connected(table_id=t.pk, seat=0)
rng = random.Random(7)

def play_out(t):
    t.refresh_from_db()
    while t.status == Table.PLAYING:
        state = replay.load(t)
        if state.to_move == 0:
            moves.apply_action(table_id=t.pk, owner=me, expected_version=t.version,
                               action=rng.choice(state.legal_actions()))
        elif not due.fire(t.pk, t.version, Table.BOT):
            time.sleep(0.05)
        t.refresh_from_db()

play_out(t)
bg = lifecycle.create_table(game="backgammon", length=1, owner=me, private=True, bots=[1],
                            move_seconds=None)
presence.seat_connected(table_id=bg.pk, seat=0)
play_out(bg)
waiting = lifecycle.create_table(game="courtpiece", owner=me, private=True)
# Four rated backgammon games against another account, for the rating's course.
from datetime import timedelta
from django.utils import timezone
from accounts.services import record_game
dada = get_user_model().objects.create_user("dada", "dada@example.com", "a long quiet pw")
for k, won in enumerate([True, True, False, True]):
    record_game("backgammon", [[user], [dada]], 0 if won else 1, table=1000 + k, hands=1,
                finished_at=timezone.now() - timedelta(days=4 - k), rated=True)
c = Client()
c.force_login(user)
print("RESULT:" + json.dumps({"table": t.pk, "waiting": waiting.pk, "bg": bg.pk,
                              "cookie": c.cookies["sessionid"].value}))
"""


@pytest.fixture(scope="module")
def played(site: Site) -> dict[str, Any]:
    return site.manage("shell", code=SETUP)


def _signed_in(browser: Any, site: Site, played: dict[str, Any], width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 800 else 800})
    context.add_cookies([{"name": "sessionid", "value": played["cookie"], "url": site.url}])
    return context


def _fits(page: Any) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    over = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5
                          || e.getBoundingClientRect().left < -0.5)
             .slice(0, 5).map(e => e.tagName + '.' + e.className)"""
    )
    assert wide <= 0, f"{page.url} is {wide} px wider than the screen at {over}"


def test_a_finished_game_against_bots_is_in_the_history_and_statistics(
    browser: Any, site: Site, played: dict[str, Any], artifacts_dir: Path
) -> None:
    context = _signed_in(browser, site, played)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/en/players/nani/")
    unrated = page.locator("#unrated-stats tr[data-game='be_ranga'] td")
    assert unrated.nth(0).inner_text() == "1"  # played
    assert int(unrated.nth(1).inner_text()) + int(unrated.nth(2).inner_text()) == 1
    rated = page.locator("#rated-stats tr[data-game='be_ranga'] td")
    assert rated.nth(0).inner_text() == "0"  # the rating did not move
    summary = page.locator(".played-summary").inner_text()
    assert "6 games played: 4 rated, 2 not rated." in summary
    assert page.locator("#unrated-stats tr[data-game='backgammon'] td").first.inner_text() == "1"
    game = page.locator(f".recent-games li[data-table='{played['table']}']")
    assert "Be-Ranga" in game.inner_text()
    assert "partner: Bot" in game.inner_text() and "against Bot, Bot" in game.inner_text()
    game.locator("a[href$='/replay/1/']").click()
    page.wait_for_url(f"{site.url}/en/play/{played['table']}/replay/1/")
    assert page.locator("#fair-check").count() == 1
    assert errors == []
    page.goto(f"{site.url}/en/players/nani/")
    course = page.locator(".rating-course[data-game='backgammon']")
    assert course.locator("svg[role='img'] title").text_content() == "Rating in Backgammon"
    assert "over 4 rated games" in course.locator("figcaption").inner_text()
    assert course.locator("svg polyline").get_attribute("points").count(",") == 5
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width < 800 else 800})
            page.goto(f"{site.url}/{lang}/players/nani/")
            assert page.locator(f".recent-games li[data-table='{played['table']}']").count() == 1
            _fits(page)
            page.screenshot(
                path=str(artifacts_dir / f"player-history-{lang}-{width}.png"), full_page=True
            )
            page.locator(".rating-course").first.screenshot(
                path=str(artifacts_dir / f"rating-course-{lang}-{width}.png")
            )
    context.close()


def test_a_deal_checked_in_the_browser_matches_and_a_tampered_one_does_not(
    browser: Any, site: Site, played: dict[str, Any], artifacts_dir: Path
) -> None:
    context = _signed_in(browser, site, played)
    page = context.new_page()
    errors = console_errors(page)
    replay = f"/play/{played['table']}/replay/1/"
    # From the table, once the hand is over: its result's "Check this deal" runs the check.
    page.goto(f"{site.url}/en/play/{played['table']}/")
    page.locator(".hand-summary details.fairness summary").click()
    page.get_by_test_id("check-deal-link").click()
    page.wait_for_url(f"{site.url}/en{replay}#fair-check")
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    assert page.locator("#fair-check").get_attribute("data-result") == "matches"
    marks = page.locator(".replay-hands [data-deal-check]")
    assert marks.count() == 4
    assert [marks.nth(i).inner_text() for i in range(4)] == ["✔ matches"] * 4
    assert page.locator("[data-chain-check]").inner_text() == "✔ matches"
    assert "Everything matches" in page.locator("[data-fair-status]").inner_text()
    # A tampered seed: one player's seed changed by a letter deals other cards.
    page.evaluate(
        """() => { const box = document.getElementById('fair-check');
                   const seeds = JSON.parse(box.dataset.clientSeeds);
                   seeds[1] = seeds[1] + 'x';
                   box.dataset.clientSeeds = JSON.stringify(seeds);
                   delete box.dataset.result; }"""
    )
    page.get_by_test_id("check-deal").click()
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    assert page.locator("#fair-check").get_attribute("data-result") == "does-not-match"
    assert "✘ does not match" in [marks.nth(i).inner_text() for i in range(4)]
    assert page.locator("[data-chain-check]").inner_text() == "✔ matches"  # the seed is fine
    # A tampered server seed breaks the promise too.
    page.evaluate(
        """() => { const box = document.getElementById('fair-check');
                   box.dataset.serverSeed = '0' + box.dataset.serverSeed.slice(1);
                   delete box.dataset.result; }"""
    )
    page.get_by_test_id("check-deal").click()
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    assert page.locator("[data-chain-check]").inner_text() == "✘ does not match"
    assert errors == []
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width < 800 else 800})
            page.goto(f"{site.url}/{lang}{replay}")
            page.get_by_test_id("check-deal").click()
            page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
            assert page.locator("#fair-check").get_attribute("data-result") == "matches"
            _fits(page)
            page.locator("#fairness").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts_dir / f"deal-check-{lang}-{width}.png"))
            page.locator(".replay-hands").screenshot(
                path=str(artifacts_dir / f"deal-check-hands-{lang}-{width}.png")
            )
    context.close()


def test_backgammon_dice_checked_in_the_browser_match_and_tampered_ones_do_not(
    browser: Any, site: Site, played: dict[str, Any], artifacts_dir: Path
) -> None:
    context = _signed_in(browser, site, played, width=390)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.url}/en/play/{played['bg']}/replay/1/")
    page.get_by_test_id("check-deal").click()
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    assert page.locator("#fair-check").get_attribute("data-result") == "matches"
    assert page.locator("[data-dice-check]").inner_text() == "✔ matches"
    page.evaluate(
        """() => { const box = document.getElementById('fair-check');
                   const t = box.dataset.dice.split(' ');
                   t[t.length - 1] = t[t.length - 1] === '6-6' ? '1-1' : '6-6';
                   box.dataset.dice = t.join(' ');
                   delete box.dataset.result; }"""
    )
    page.get_by_test_id("check-deal").click()
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    assert page.locator("#fair-check").get_attribute("data-result") == "does-not-match"
    assert page.locator("[data-dice-check]").inner_text() == "✘ does not match"
    assert errors == []
    page.goto(f"{site.url}/ur/play/{played['bg']}/replay/1/")
    page.get_by_test_id("check-deal").click()
    page.wait_for_function("() => document.getElementById('fair-check').dataset.result")
    _fits(page)
    page.locator("#fair-check").screenshot(path=str(artifacts_dir / "dice-check-ur-390.png"))
    context.close()


CASES = [
    ("a3f1", [], 0),
    ("e" * 64, ["alpha", "beta-2", "g_3", "d"], 0),
    (fair.chain("top-secret", 5)[2], ["x"], 2),
    ("ٹ-not-ascii-ہ", ["1", "2"], 399),
    ("k", ["a" * 64] * 4, 17),
]


def test_the_browsers_recipe_equals_the_python_engines(
    browser: Any, site: Site, played: dict[str, Any]
) -> None:
    context = _signed_in(browser, site, played)
    page = context.new_page()
    page.goto(f"{site.url}/en/play/{played['table']}/replay/1/")
    for seed, clients, n in CASES:
        got = page.evaluate("([s, c, n]) => BaithakFair.deal(s, c, n)", [seed, clients, n])
        assert got == fair.deal(seed, clients, n), (seed, clients, n)
        dice = page.evaluate("([s, c, n]) => BaithakFair.dice(s, c, n)", [seed, clients, n])
        assert tuple(dice) == fair.dice(seed, clients, n)
        digest = page.evaluate("s => BaithakFair.sha256Hex(s)", seed)
        assert digest == fair.commitment(seed)
    chain = fair.chain("top", 4)
    top_commitment = fair.commitment(chain[0])
    for k, seed in enumerate(chain):
        assert page.evaluate(
            "([s, c, k]) => BaithakFair.chainMatches(s, c, k)", [seed, top_commitment, k]
        )
    assert not page.evaluate(
        "([s, c, k]) => BaithakFair.chainMatches(s, c, k)", [chain[2], top_commitment, 1]
    )
    context.close()


def test_the_table_shows_its_promise_and_the_player_changes_their_seed(
    browser: Any, site: Site, played: dict[str, Any], artifacts_dir: Path
) -> None:
    context = _signed_in(browser, site, played)
    page = context.new_page()
    errors = console_errors(page)
    table = played["waiting"]
    page.goto(f"{site.url}/en/play/{table}/")
    box = page.get_by_test_id("fair-box")
    short = page.get_by_test_id("commitment-short").inner_text()
    assert re.fullmatch(r"[0-9a-f]{12}…", short)
    box.locator("summary").click()
    full = page.get_by_test_id("commitment-full").inner_text()
    assert full.startswith(short[:-1]) and len(full) == 64
    page.fill("#seed-input", "nanis-own-seed")
    page.get_by_test_id("seed-save").click()
    page.wait_for_url(f"{site.url}/en/play/{table}/")
    assert page.get_by_test_id("my-seed").inner_text() == "nanis-own-seed"
    # A seed the recipe does not take is refused by the browser before it is sent.
    page.get_by_test_id("fair-box").locator("summary").click()
    page.fill("#seed-input", "no spaces please")
    assert not page.evaluate("() => document.getElementById('seed-input').checkValidity()")
    assert errors == []
    for lang in LANGS:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width < 800 else 800})
            page.goto(f"{site.url}/{lang}/play/{table}/")
            page.get_by_test_id("fair-box").locator("summary").click()
            _fits(page)
            page.get_by_test_id("fair-box").screenshot(
                path=str(artifacts_dir / f"fair-box-{lang}-{width}.png")
            )
            page.screenshot(
                path=str(artifacts_dir / f"fair-table-{lang}-{width}.png"), full_page=True
            )
    context.close()
