"""Learn from your mistakes in a real browser (issue 29): a guest's finished hand with a
clear mistake of theirs; from the lessons page to "Your own hands", the hand, the puzzle;
the card they played is refused with a reason, a better card solves it and the
explanation shows; the replay links "Your mistakes in this hand". At 1280 and 390 px in
three languages; screenshots go to test-artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors

pytestmark = [pytest.mark.browser]

# Run in the site's own database (manage.py shell): the guest at seat 0 plays the worst
# card it can see until it has made a clear mistake (tests/tutorials/own/play.py); the
# puzzles are worked out here once, so the pages open at once; the guest's session.
MADE = """
import json
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from game.tables import access, presence
from tests.tutorials.own.play import finished_badly
from tutorials import mistakes
settings.TABLES_BOT_PAUSE = (0.0, 0.0)
session = SessionStore()
session["guest_key"] = "browser-mistakes-guest"
session.create()
guest = access.Owner(user=None, guest_key="browser-mistakes-guest")
table = finished_badly(guest)
presence.seat_disconnected(table_id=table.pk, seat=0)
m = mistakes.hand_mistakes(table, 1, guest)[0]
print("RESULT:" + json.dumps({"table": table.pk, "session": session.session_key,
      "played": m.judged["card"], "better": m.judged["better"][0]}))
"""


@pytest.fixture(scope="module")
def made(site: Site) -> dict[str, Any]:
    out = site.manage("shell", code=MADE)
    assert out, "no finished hand with a mistake"
    return out


def _serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [v["id"] for v in violations if v.get("impact") in ("serious", "critical")]


def _fits_a_phone(page: Any) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow}px wider than a phone"


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_solve_a_puzzle_made_from_your_own_mistake(
    page: Any, site: Site, made: dict[str, Any], artifacts_dir: Path, lang: str, width: int
) -> None:
    errors = console_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies(
        [{"name": "sessionid", "value": made["session"], "url": site.url}]
    )
    table = made["table"]
    page.goto(f"{site.url}/{lang}/play/{table}/replay/1/")
    page.locator("[data-testid=own-mistakes-link]").click()
    page.wait_for_url(f"**/{lang}/learn/mine/{table}/1/")
    page.goto(f"{site.url}/{lang}/learn/")
    page.locator("[data-testid=own-hands-link]").click()
    page.wait_for_url(f"**/{lang}/learn/mine/")
    page.screenshot(path=str(artifacts_dir / f"own-hands-{lang}-{width}.png"), full_page=True)
    page.locator(f'a[href="/{lang}/learn/mine/{table}/1/"]').click()
    page.screenshot(path=str(artifacts_dir / f"own-hand-{lang}-{width}.png"), full_page=True)
    page.locator("[data-testid=own-mistake-link]").first.click()
    page.wait_for_selector("[data-testid=own-mistake]")
    shot = artifacts_dir / f"own-mistake-{lang}-{width}"
    page.screenshot(path=f"{shot}-ask.png", full_page=True)
    assert not _serious(page)
    page.locator(f'button[name=answer][value="{made["played"]}"]').click()
    page.wait_for_selector("[data-testid=own-feedback][data-state=worse]")
    page.locator(f'button[name=answer][value="{made["better"]}"]').click()
    page.wait_for_selector("[data-testid=own-feedback][data-state=right]")
    assert page.locator("[data-testid=own-why]").inner_text().strip()
    assert page.locator("#step-ask fieldset[disabled]").count() == 1
    if width == 390:
        _fits_a_phone(page)
    page.screenshot(path=f"{shot}-solved.png", full_page=True)
    assert page.locator("html").get_attribute("lang") == lang
    assert not errors, errors


# A backgammon game of the guest's (random plays, the bot's own), its analysis by GNU
# Backgammon in the site's worker processes, worked out here once.
BG_MADE = """
import json, random
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from game.backgammon import bot
from game.models import Table
from game.tables import access, due, lifecycle, moves, presence, registry
from game.tables.errors import TableError
from game.tables.store import replay
from tutorials import mistakes
settings.TABLES_BOT_PAUSE = (0.0, 0.0)
session = SessionStore()
session["guest_key"] = "browser-bg-mistakes-guest"
session.create()
guest = access.Owner(user=None, guest_key="browser-bg-mistakes-guest")
table = lifecycle.create_table(game="backgammon", owner=guest, bots=[1])
presence.seat_connected(table_id=table.pk, seat=0)
rng = random.Random(7)
for _step in range(3000):
    table.refresh_from_db()
    s = replay.load(table)
    if registry.spec("backgammon").finished(s):
        break
    if table.deadline_kind == Table.BOT:
        due.fire(table.pk, table.version, Table.BOT)
        continue
    legal = [a for a in s.legal_actions() if not a.startswith("resign")]
    legal = [a for a in legal if a not in ("double", "beaver", "drop")] or legal
    try:
        moves.apply_action(table_id=table.pk, owner=guest, action=rng.choice(legal),
                           expected_version=table.version)
    except TableError:
        pass
presence.seat_disconnected(table_id=table.pk, seat=0)
m = [x for x in mistakes.hand_mistakes(table, 1, guest) if not x.is_cube][0]
bot.shutdown()
print("RESULT:" + json.dumps({"table": table.pk, "session": session.session_key,
      "played": m.judged["played"], "best": m.judged["best"], "number": m.number}))
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_solve_a_backgammon_puzzle_made_from_your_own_mistake(
    page: Any, site: Site, artifacts_dir: Path, width: int
) -> None:
    made = site.manage("shell", code=BG_MADE)
    assert made, "no finished game with a mistake"
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "sessionid", "value": made["session"], "url": site.url}])
    table = made["table"]
    page.goto(f"{site.url}/ur/play/{table}/replay/1/")
    page.locator("[data-testid=own-mistakes-link]").click()
    page.locator(f'[data-testid=own-mistake-link][href$="/{table}/1/{made["number"]}/"]').click()
    page.wait_for_selector("[data-testid=own-mistake]")
    page.locator("[data-testid=own-play]").select_option(made["best"])
    page.locator("#step-ask button[type=submit]").click()
    page.wait_for_selector("[data-testid=own-feedback][data-state=right]")
    assert page.locator("[data-testid=own-why]").inner_text().strip()
    if width == 390:
        _fits_a_phone(page)
    page.screenshot(path=str(artifacts_dir / f"own-mistake-bg-ur-{width}.png"), full_page=True)


# A game where the guest moves its checkers as the bot would but never doubles and takes
# every double: a missed double or a wrong take of its own, a cube puzzle.
CUBE_MADE = """
import json
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from game.backgammon import bot
from game.models import Table
from game.tables import access, due, lifecycle, moves, presence, registry
from game.tables.errors import TableError
from game.tables.store import replay
from tutorials import mistakes
settings.TABLES_BOT_PAUSE = (0.0, 0.0)
session = SessionStore()
session["guest_key"] = "browser-cube-mistakes-guest"
session.create()
guest = access.Owner(user=None, guest_key="browser-cube-mistakes-guest")
found = []
for attempt in range(6):
    table = lifecycle.create_table(game="backgammon", owner=guest, bots=[1])
    presence.seat_connected(table_id=table.pk, seat=0)
    for _step in range(3000):
        table.refresh_from_db()
        s = replay.load(table)
        if registry.spec("backgammon").finished(s):
            break
        if table.deadline_kind == Table.BOT:
            due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = s.legal_actions()
        if any(a.startswith("move:") for a in legal):
            action = bot.decide(s.view(0), "intermediate").action
        else:
            action = "roll" if "roll" in legal else "take"
        try:
            moves.apply_action(table_id=table.pk, owner=guest, action=action,
                               expected_version=table.version)
        except TableError:
            pass
    presence.seat_disconnected(table_id=table.pk, seat=0)
    found = [x for x in mistakes.hand_mistakes(table, 1, guest) if x.is_cube]
    if found:
        break
bot.shutdown()
m = found[0]
print("RESULT:" + json.dumps({"table": table.pk, "session": session.session_key,
      "number": m.number, "action": m.judged["action"], "best": m.judged["best"]}))
"""


@pytest.fixture(scope="module")
def cube_made(site: Site) -> dict[str, Any]:
    out = site.manage("shell", code=CUBE_MADE)
    assert out, "no cube mistake of the guest's in six games"
    return out


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_solve_a_cube_puzzle_made_from_your_own_mistake(
    page: Any, site: Site, cube_made: dict[str, Any], artifacts_dir: Path, lang: str,
    width: int,
) -> None:
    errors = console_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies(
        [{"name": "sessionid", "value": cube_made["session"], "url": site.url}]
    )
    table, number = cube_made["table"], cube_made["number"]
    page.goto(f"{site.url}/{lang}/learn/mine/{table}/1/{number}/")
    page.wait_for_selector("[data-testid=own-mistake]")
    shot = artifacts_dir / f"own-mistake-cube-{lang}-{width}"
    page.screenshot(path=f"{shot}-ask.png", full_page=True)
    assert not _serious(page)
    page.locator(f"[data-testid=own-cube-{cube_made['action']}]").click()
    page.wait_for_selector("[data-testid=own-feedback][data-state=worse]")
    page.locator(f"[data-testid=own-cube-{cube_made['best']}]").click()
    page.wait_for_selector("[data-testid=own-feedback][data-state=right]")
    # The engine named in the page's own script (a name, written as its readers write it).
    engine = {"en": "GNU Backgammon", "ur": "جی این یو بیک گیمن", "hi": "जीएनयू बैकगैमन"}[lang]
    assert engine in page.locator("[data-testid=own-why]").inner_text()
    if width == 390:
        _fits_a_phone(page)
    page.screenshot(path=f"{shot}-solved.png", full_page=True)
    assert page.locator("html").get_attribute("lang") == lang
    assert not errors, errors
