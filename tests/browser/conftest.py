"""Shared fixtures for browser tests: Debian's Chromium driven by Playwright.

Browser downloads are impossible here, so Playwright launches /usr/bin/chromium (installed
by `make test` via scripts/ensure_system_deps.sh). The Django site is served by
pytest-django's ``live_server``. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Playwright's sync API runs an event loop; Django must allow ORM use from the live_server
# test thread regardless.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

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
