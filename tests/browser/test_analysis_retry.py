"""The replay's analysis while the server is still computing it (issue 29, the analysis
computed ahead): the page asks, the hand is claimed by someone computing it, so the
server answers 503 with Retry-After; the page says it is loading, asks again after that
many seconds and shows the marks once the analysis is stored. Without the retry it
would say the analysis failed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.site import Site
from tests.browser.test_replay_steps import FINISHED

pytestmark = [pytest.mark.browser]

CLAIM = """
import json
from game.models import Table
from game.tables import analysis
table = Table.objects.get(pk={table})
pending = analysis.stored_or_pending(table, {hand})
print("RESULT:" + json.dumps({{"claimed": analysis.claim(pending)}}))
"""

STORE = """
import json
from game.models import Table
from game.tables import analysis
table = Table.objects.get(pk={table})
pending = analysis.stored_or_pending(table, {hand})
analysis.store(pending, analysis.compute(pending))
print("RESULT:" + json.dumps({{"stored": analysis.stored(pending) is not None}}))
"""


def test_the_replay_waits_for_an_analysis_being_computed(
    browser: Any, site: Site, artifacts_dir: Path
) -> None:
    made = site.manage("shell", code=FINISHED)
    table, hand = made["table"], made["hand"]
    # Someone (the background thread of another process, say) is computing it.
    assert site.manage("shell", code=CLAIM.format(table=table, hand=hand)) == {"claimed": True}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.url}/en/play/{table}/replay/{hand}/")
    with page.expect_response(
        lambda r: "/analysis?" in r.url and r.status == 503, timeout=30000
    ) as busy:
        page.locator("[data-testid=open-analysis]").click()
    assert busy.value.headers.get("retry-after") == "2"
    note = page.locator(".analysis-box .analysis-note").text_content() or ""
    assert "fail" not in note.lower()
    # The computation ends: the page's next ask finds it.
    assert site.manage("shell", code=STORE.format(table=table, hand=hand)) == {"stored": True}
    page.locator(".replay-tricks .cost").first.wait_for(timeout=30000)
    assert page.locator(".replay-tricks .cost").count() == made["cards"]
    assert page.locator("[data-testid=par]").text_content()
    page.screenshot(path=str(artifacts_dir / "replay-analysis-after-retry-en-1280.png"))
    assert errors == []
    context.close()
