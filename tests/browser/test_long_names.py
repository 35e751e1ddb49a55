"""A 40-character name (the longest a profile takes) is cut with an ellipsis wherever it is
shown, and never widens a page (issue 27: the header went into three rows and the page was
1,547 px wide; the phone table 458 px on a 390 px screen). Checked at 390 and 1280 px, in
the header, the lobby, a waiting table's seats, the live Court Piece and backgammon tables
and the player's statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site, console_errors

pytestmark = pytest.mark.browser

LONG = "Muhammad_Abdurrahman_Siddiqui_Qureshi_40"  # 40 characters, no space to break at
SPACED = "Sahibzada Muhammad Abdurrahman Siddiqui"  # 39, with spaces

SETUP = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle
from accounts.models import Profile
User = get_user_model()
out = {}
for key, shown, uname in (("long", LONG, "longname"), ("spaced", SPACED, "spacedname")):
    u = User.objects.create_user(uname, password="pw")
    Profile.objects.update_or_create(user=u, defaults={"display_name": shown})
    c = Client()
    c.force_login(u)
    out[key] = {"cookie": c.cookies["sessionid"].value, "username": uname}
host = User.objects.get(username="longname")
friend = User.objects.get(username="spacedname")
own, other = access.Owner(host, None), access.Owner(friend, None)
# A public waiting table (the lobby lists its host) and a live Court Piece table with both
# names on the felt, and a backgammon table against the bot.
waiting = lifecycle.create_table(game="courtpiece", owner=own, variant="rung")
live = lifecycle.create_table(game="courtpiece", owner=own, variant="rung", bots=[1, 3],
                              move_seconds=None, private=True)
lifecycle.take_seat(table_id=live.pk, owner=other, seat=2, invite=live.invite)
lifecycle.start_table(table_id=live.pk, owner=own)
bg = lifecycle.create_table(game="backgammon", owner=own, bots=[1])
out["tables"] = {"waiting": waiting.pk, "live": live.pk, "bg": bg.pk}
print("RESULT:" + json.dumps(out))
"""


@pytest.fixture(scope="module")
def made(site: Site) -> dict[str, Any]:
    return site.manage(
        "shell", code=SETUP.replace("LONG", repr(LONG)).replace("SPACED", repr(SPACED))
    )


@pytest.mark.parametrize("width", [390, 1280])
def test_a_forty_character_name_never_widens_a_page(
    browser: Any, site: Site, made: dict[str, Any], artifacts_dir: Path, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844})
    context.add_cookies([{"name": "sessionid", "value": made["long"]["cookie"], "url": site.url}])
    page = context.new_page()
    errors = console_errors(page)
    tables = made["tables"]
    paths = {
        "home": "/{lang}/",
        "lobby": "/{lang}/play/",
        "waiting": f"/{{lang}}/play/{tables['waiting']}/",
        "table": f"/{{lang}}/play/{tables['live']}/",
        "backgammon": f"/{{lang}}/play/{tables['bg']}/",
        "player": "/{lang}/players/longname/",
        "profile": "/{lang}/accounts/profile/",
    }
    for lang in ("en", "ur", "hi"):
        for name, path in paths.items():
            page.goto(site.url + path.format(lang=lang))
            page.wait_for_load_state("load")
            page.wait_for_timeout(150)
            if lang == "en" or name == "table":
                page.screenshot(
                    path=str(artifacts_dir / f"long-name-{name}-{lang}-{width}.png"), full_page=True
                )
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, f"{name} in {lang} is {wide}px wide at {width}px"
            # The header stays one row: brand and menu (phone) or brand, links, account.
            header = page.evaluate(
                "() => document.querySelector('.site-header').getBoundingClientRect().height"
            )
            assert header < 80, f"{name} in {lang}: the header is {header}px tall"
            # Where the name is shown on its own, it is cut with an ellipsis, not wrapped.
            cut = page.evaluate(
                """(long) => [...document.querySelectorAll('body *')]
                  .filter(el => el.children.length === 0 && el.textContent.includes(long)
                          && el.getClientRects().length)
                  .map(el => { const cs = getComputedStyle(el); return [el.tagName + '.' +
                    el.className, el.scrollWidth > el.clientWidth + 1 && cs.textOverflow !==
                    'ellipsis', el.getClientRects().length]; })""",
                LONG,
            )
            assert not [c for c in cut if c[1]], (name, lang, cut)
    assert errors == []
    context.close()
