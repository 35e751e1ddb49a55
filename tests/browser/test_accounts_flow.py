"""An account's life in a real browser: sign up, verify by the emailed link, sign out,
sign in again, switch language. Screenshots of the account pages go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from accounts.services import record_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long and quiet evening"


@pytest.fixture(autouse=True)
def _clean_cache() -> None:
    cache.clear()  # allauth's rate-limit counters from other tests


@pytest.mark.parametrize(("lang", "direction"), [("ur", "rtl"), ("hi", "ltr")])
def test_entrance_pages_in_urdu_and_hindi(
    page: Any, live_server: Any, artifacts_dir: Path, lang: str, direction: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for name in ("login", "signup", "password/reset"):
        page.goto(f"{live_server.url}/{lang}/accounts/{name}/")
        assert page.get_attribute("html", "dir") == direction
        violations = axe.run(page).response["violations"]
        assert [v["id"] for v in violations] == []
        slug = name.replace("/", "-")
        page.screenshot(path=str(artifacts_dir / f"accounts-{slug}-{lang}.png"), full_page=True)
    # Errors too: a weak password on the sign-up page.
    page.goto(f"{live_server.url}/{lang}/accounts/signup/")
    page.fill("#id_username", "guest1")
    page.fill("#id_email", "guest1@example.com")
    page.fill("#id_password1", "12345")
    page.fill("#id_password2", "12345")
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator(".field--error").count() >= 1
    assert [v["id"] for v in axe.run(page).response["violations"]] == []
    page.screenshot(path=str(artifacts_dir / f"accounts-signup-errors-{lang}.png"), full_page=True)
    assert errors == []


def test_sign_up_verify_sign_out_sign_in_switch_language(
    page: Any, live_server: Any, artifacts_dir: Path
) -> None:
    base = live_server.url
    mail.outbox.clear()

    # Sign up in Hindi, from the header link.
    page.goto(f"{base}/hi/")
    page.get_by_role("link", name="खाता बनाइए").click()
    page.fill("#id_username", "meera")
    page.fill("#id_email", "meera@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="खाता बनाइए").click()
    page.wait_for_url(f"{base}/hi/accounts/confirm-email/")
    page.screenshot(path=str(artifacts_dir / "flow-1-verification-sent-hi.png"), full_page=True)

    # The emailed link, in Hindi, opens a confirmation page; confirming signs in.
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/hi/accounts/confirm-email/\S+", mail.outbox[0].body)
    assert link is not None, mail.outbox[0].body
    path = link.group(0).split("/hi/", 1)[1]
    page.goto(f"{base}/hi/{path}")
    page.get_by_role("button", name="पुष्टि कीजिए").click()
    page.wait_for_url(f"{base}/hi/")
    assert page.locator(".account-name").inner_text() == "meera"
    page.screenshot(path=str(artifacts_dir / "flow-2-verified-hi.png"), full_page=True)

    # Sign out from the header.
    page.get_by_role("button", name="साइन आउट").click()
    page.wait_for_url(f"{base}/hi/")
    assert page.locator(".account-name").count() == 0
    assert page.get_by_text("आप साइन आउट हो गए।").is_visible()

    # Sign in again, with the email address this time.
    page.get_by_role("link", name="साइन इन").click()
    page.fill("#id_login", "meera@example.com")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="साइन इन").click()
    page.wait_for_url(f"{base}/hi/")
    assert page.locator(".account-name").inner_text() == "meera"

    # Switch the preferred language to Urdu in the profile: the site follows.
    page.locator(".account-name").click()
    page.wait_for_url(f"{base}/hi/accounts/profile/")
    page.fill("#id_display_name", "میرا")
    page.select_option("#id_language", "ur")
    page.get_by_role("button", name="सहेजिए").click()
    page.wait_for_url(f"{base}/ur/accounts/profile/")
    assert page.get_attribute("html", "dir") == "rtl"
    assert page.get_by_text("آپ کی پروفائل محفوظ ہو گئی۔").is_visible()
    assert page.locator(".account-name").inner_text() == "میرا"
    page.screenshot(path=str(artifacts_dir / "flow-3-profile-ur.png"), full_page=True)

    # From now on the bare address opens in Urdu, whatever the browser prefers.
    page.goto(f"{base}/")
    assert page.url == f"{base}/ur/"

    # A finished game (as a live table will record it) shows on the statistics page.
    meera = get_user_model().objects.get(username="meera")
    rival = get_user_model().objects.create_user("rival", "rival@example.com", PASSWORD)
    record_result("backgammon", [[meera], [rival]], winning_team=0)
    page.get_by_role("link", name="میرے اعداد و شمار").first.click()
    page.wait_for_url(f"{base}/ur/players/meera/")
    assert page.get_by_role("heading", level=1).inner_text() == "میرا: اعداد و شمار"
    row = page.locator('tr[data-game="backgammon"] td')
    assert row.all_inner_texts()[:3] == ["1", "1", "0"]
    page.screenshot(path=str(artifacts_dir / "flow-4-statistics-ur.png"), full_page=True)
