"""The home page in a real browser, in each language."""

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("lang", "direction"), [("ur", "rtl"), ("hi", "ltr"), ("en", "ltr")])
def test_home_renders_with_direction(
    page: object, live_server: object, artifacts_dir: Path, lang: str, direction: str
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)  # type: ignore[attr-defined]
    page.goto(f"{live_server.url}/{lang}/")  # type: ignore[attr-defined]
    assert page.get_attribute("html", "dir") == direction  # type: ignore[attr-defined]
    assert page.get_attribute("html", "lang") == lang  # type: ignore[attr-defined]
    page.screenshot(path=str(artifacts_dir / f"home-{lang}.png"), full_page=True)  # type: ignore[attr-defined]
    assert errors == []
