"""The browser fixtures (Debian's Chromium through Playwright) shared with tests/browser."""

from tests.browser.conftest import artifacts_dir, browser  # noqa: F401
