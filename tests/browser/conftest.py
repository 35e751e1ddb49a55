"""The live site the table browser tests play on (tests/browser/site.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.site import Site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = Site(tmp_path_factory.mktemp("tables"))
    s.start()
    yield s
    s.stop()
