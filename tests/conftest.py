"""Shared fixtures for every browser test (tests/browser, tests/backgammon_ui, …): Debian's
Chromium driven by Playwright, one session for the whole run (Playwright's sync API
refuses a second one while the first runs).

Browser downloads are impossible here, so Playwright launches /usr/bin/chromium (installed
by `make test` via scripts/ensure_system_deps.sh). The Django site is served by
pytest-django's ``live_server``. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# baithak.asgi's tune_collector starts the server's collector thread (baithak.process)
# unless this is 0: a freeze every second would keep the tests' garbage cycles for ten
# minutes. The servers the tests start (daphne for the scale-out tests) inherit it.
os.environ.setdefault("GC_FREEZE_SECONDS", "0")
# baithak.asgi refuses a second server process on one database with the in-memory layer
# (game.tables.transport.oneprocess); the test process imports the application beside
# servers of its own, and the servers it starts each have a database of their own.
# tests/tables/test_oneprocess.py turns it on for the processes it starts.
os.environ.setdefault("TABLES_PROCESS_CHECK", "off")

# No analysis computed ahead in a background thread (game.tables.ahead) unless a test asks
# for it (tests/tables/test_analysis_ahead.py): a thread left computing would hold a
# database connection past its test. The servers the tests start inherit it; the
# settings of this process are already read, so the fixture below turns it off here.
os.environ.setdefault("TABLES_ANALYSIS_AHEAD", "off")


@pytest.fixture(autouse=True)
def _no_analysis_ahead(settings: object) -> None:
    settings.TABLES_ANALYSIS_AHEAD = False  # type: ignore[attr-defined]

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run every browser test after every other test.

    Once started, Playwright's sync API keeps an event loop running in the main thread
    until the session ends; any later test that calls ``async_to_sync`` or
    ``asyncio.run`` (the table services, the socket tests, the scale-out tests) would
    then fail with "cannot be called from a running event loop". The sort is stable, so
    each group keeps its collected order.
    """
    def uses_browser(item: pytest.Item) -> bool:
        fixtures = getattr(item, "fixturenames", ())
        return item.get_closest_marker("browser") is not None or "browser" in fixtures

    items.sort(key=uses_browser)

@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django must allow ORM use
    # from the live_server test thread regardless. Set only once a browser test runs, so
    # the other tests keep Django's async-safety check.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make test` (it installs Debian's chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            # The machine's network is closed: background networking only produces
            # refused connections and console noise.
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
