"""Cumulative Layout Shift over whole Court Piece hands against bots, as a player sees it.

Starts the browser tests' site (tests/browser/site.py: one daphne on a throw-away SQLite
database, bots that move at once), and for each language and screen size (1280x800,
390x844) a guest plays `hands` whole hands by tapping the last legal card (or the first
choice), while a PerformanceObserver sums every 'layout-shift' entry not right after the
player's own input (as Chrome's CLS does, but over the whole visit rather than its worst
window: the stricter figure). Also counts the moments when a control the player had to act
on was outside the viewport.

Prints the figures and writes bench/results/<date>-layout-shift.json (history.py).

    .venv/bin/python bench/layout_shift.py          # one hand per language and size
    .venv/bin/python bench/layout_shift.py 3        # three hands each, median reported
    .venv/bin/python bench/layout_shift.py 1 /work/main   # another checkout's site (before)
"""

from __future__ import annotations

import contextlib
import importlib.util
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import history

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.site import Site  # noqa: E402
from tests.browser.test_fits import ACT, OUTSIDE, WATCH_SHIFTS  # noqa: E402
from tests.browser.test_tables import MY_TURN, Hand  # noqa: E402

SIZES = ((1280, 800), (390, 844))
LANGS = ("ur", "hi", "en")


def one_hand(browser: Any, site: Site, lang: str, width: int, height: int) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(WATCH_SHIFTS)
    page = context.new_page()
    page.goto(f"{site.url}/{lang}/")
    page.locator("[data-testid='home-play-now']").click()
    page.wait_for_selector("#table-live .felt")
    hand, moves, outside = Hand(page), 0, 0
    while hand.next_move():
        off_screen = bool(page.evaluate(OUTSIDE, ACT))
        outside += off_screen
        before = page.locator("#table-live").get_attribute("data-version")
        cards = page.locator(f"{MY_TURN} .hand-cards button.card")
        target = cards.last if cards.count() else page.locator(f"{MY_TURN} .choices button").first
        if off_screen:  # the player scrolls to it, and back up to watch the table
            target.click()
            page.evaluate("() => scrollTo(0, 0)")
        else:
            box = target.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20))
        hand.played = hand.played or bool(cards.count())
        moves += 1
        page.wait_for_function(
            "v => document.getElementById('table-live').dataset.version !== v",
            arg=before,
            timeout=20_000,
        )
    # The hand's result comes too (fetched while the next hand starts): its arrival counts.
    # (A redeal by bots may take it away again: measured anyway.)
    with contextlib.suppress(Exception):
        page.wait_for_selector("#table-live .hand-summary", timeout=15_000)
    page.wait_for_timeout(500)
    cls = float(page.evaluate("() => window.__cls"))
    context.close()
    return {"cls": cls, "moves": moves, "controls_outside": outside}


def main() -> None:
    from playwright.sync_api import sync_playwright

    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    other = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else None
    run = history.begin("layout-shift")
    site_class: Any = Site
    if other is not None:  # the same measure of another checkout's pages (its own site)
        spec = importlib.util.spec_from_file_location("other_site", other / "tests/browser/site.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        site_class = module.Site
        run["measured_checkout"] = str(other)
    site = site_class(Path(tempfile.mkdtemp()))
    site.start()
    results: dict[str, Any] = {"hands_each": hands, "runs": {}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for lang in LANGS:
                for width, height in SIZES:
                    runs = [one_hand(browser, site, lang, width, height) for _ in range(hands)]
                    key = f"{lang}-{width}x{height}"
                    results["runs"][key] = {
                        "cls_median": statistics.median(r["cls"] for r in runs),
                        "cls_max": max(r["cls"] for r in runs),
                        "controls_outside": sum(r["controls_outside"] for r in runs),
                        "moves": sum(r["moves"] for r in runs),
                    }
                    row = results["runs"][key]
                    print(
                        f"{key:16} CLS median {row['cls_median']:.4f} max {row['cls_max']:.4f}"
                        f"  moves {row['moves']:3}"
                        f"  a control off screen {row['controls_outside']}"
                    )
            browser.close()
    finally:
        site.stop()
    print(history.write(run, results, "other-checkout" if other is not None else ""))


if __name__ == "__main__":
    main()
