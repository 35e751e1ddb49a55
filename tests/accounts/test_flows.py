"""Every account flow through the test client, bad input included.

Sign-up, verification by the emailed link, login by username or email, logout, password
change, password reset (and an expired reset link), and allauth's rate limits, for real
(the cache is LocMemCache here, as in `make run`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from allauth.account.forms import EmailAwarePasswordResetTokenGenerator, default_token_generator
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils.http import int_to_base36

from tests.people import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def signup(client: Client, lang: str = "en", **overrides: str) -> Any:
    data = {"username": "alice", "email": "alice@example.com",
            "password1": PASSWORD, "password2": PASSWORD}
    data.update(overrides)
    return client.post(f"/{lang}/accounts/signup/", data)


def link_in(body: str) -> str:
    found = re.search(r"https?://testserver(/\S+)", body)
    assert found, body
    return found.group(1)


def signed_in_as(client: Client) -> str | None:
    user = client.get("/en/").wsgi_request.user
    return user.get_username() if user.is_authenticated else None


# --- sign-up and verification ------------------------------------------------------------


def test_signup_sends_a_verification_link_and_does_not_sign_in(client: Client) -> None:
    response = signup(client, lang="hi")
    assert response.status_code == 302
    assert response["Location"] == "/hi/accounts/confirm-email/"
    user = User.objects.get(username="alice")
    assert user.profile.language == "hi"  # the language the player signed up in
    assert EmailAddress.objects.get(user=user).verified is False
    assert signed_in_as(client) is None
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    assert "/hi/accounts/confirm-email/" in mail.outbox[0].body


def test_the_emailed_link_verifies_and_signs_in(client: Client) -> None:
    signup(client, lang="ur")
    link = link_in(mail.outbox[0].body)
    page = client.get(link)
    assert page.status_code == 200
    assert EmailAddress.objects.get(email="alice@example.com").verified is False  # GET only shows
    response = client.post(link)
    assert response.status_code == 302
    assert response["Location"] == "/ur/"
    assert EmailAddress.objects.get(email="alice@example.com").verified is True
    assert signed_in_as(client) == "alice"


def test_the_link_opened_in_another_browser_verifies_but_asks_to_sign_in(
    client: Client,
) -> None:
    # allauth signs in on confirmation only in the session that signed up
    # (ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION): a link that signed anyone in anywhere would make
    # every forwarded or leaked email a password. README ("Accounts") says so.
    signup(client, lang="hi")
    link = link_in(mail.outbox[0].body)
    fresh = Client()
    response = fresh.post(link)
    assert response.status_code == 302
    assert response["Location"] == "/hi/accounts/login/"
    assert EmailAddress.objects.get(email="alice@example.com").verified is True
    assert signed_in_as(fresh) is None
    login = fresh.post("/hi/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert login.status_code == 302
    assert signed_in_as(fresh) == "alice"


def test_a_forged_verification_link_verifies_nothing(client: Client) -> None:
    signup(client)
    response = client.post("/en/accounts/confirm-email/not-a-real-key/")
    assert response.status_code == 404
    assert EmailAddress.objects.get(email="alice@example.com").verified is False
    assert "This email confirmation link expired or is invalid" in client.get(
        "/en/accounts/confirm-email/not-a-real-key/"
    ).content.decode()


def test_login_before_verifying_resends_the_link_instead(client: Client, make_user: Any) -> None:
    make_user("alice", verified=False)
    response = client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/confirm-email/"
    assert signed_in_as(client) is None
    assert len(mail.outbox) == 1


def test_taken_username_is_refused_clearly(client: Client, make_user: Any) -> None:
    make_user("alice", email="first@example.com")
    response = signup(client, email="second@example.com")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username="alice").count() == 1
    assert not EmailAddress.objects.filter(email="second@example.com").exists()
    assert mail.outbox == []


def test_taken_username_differs_only_in_case(client: Client, make_user: Any) -> None:
    make_user("Alice", email="first@example.com")
    response = signup(client, username="alice", email="second@example.com")
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_taken_email_tells_its_owner_not_the_stranger(client: Client, make_user: Any) -> None:
    # allauth's enumeration protection: the page looks like a normal sign-up, and the
    # owner of the address gets a mail saying someone tried.
    make_user("bob", email="alice@example.com")
    response = signup(client)
    assert response.status_code == 302
    assert not User.objects.filter(username="alice").exists()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    assert "Account already exists" in mail.outbox[0].subject


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("kq7!", "This password is too short. It must contain at least 8 characters."),
        ("password", "This password is too common."),
        ("48151623429", "This password is entirely numeric."),
        ("alice1987", "The password is too similar to the username."),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(
    client: Client, password: str, message: str
) -> None:
    response = signup(client, password1=password, password2=password)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()
    assert mail.outbox == []


def test_mismatched_passwords_are_refused(client: Client) -> None:
    response = signup(client, password2=PASSWORD + "!")
    assert "You must type the same password each time." in response.content.decode()
    assert not User.objects.exists()


def test_bad_email_and_username_are_refused(client: Client) -> None:
    response = signup(client, username="a b", email="not-an-email")
    html = response.content.decode()
    assert "Enter a valid email address." in html
    assert "Enter a valid username." in html
    assert not User.objects.exists()


def test_signup_is_rate_limited_per_address(client: Client) -> None:
    # 20 sign-up attempts a minute from one IP address; the next gets a 429 page in the
    # site's layout and its language.
    for _ in range(20):
        assert client.post("/ur/accounts/signup/", {}).status_code == 200
    response = client.post("/ur/accounts/signup/", {
        "username": "alice", "email": "alice@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 429
    assert "بہت زیادہ کوششیں" in response.content.decode()
    assert not User.objects.exists()


# --- login and logout --------------------------------------------------------------------


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_login_by_username_or_email(client: Client, make_user: Any, login: str) -> None:
    make_user("alice")
    response = client.post("/en/accounts/login/", {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert signed_in_as(client) == "alice"


def test_wrong_password_is_refused_clearly(client: Client, make_user: Any) -> None:
    make_user("alice")
    response = client.post("/en/accounts/login/", {"login": "alice", "password": "wrong pass"})
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert signed_in_as(client) is None


def test_repeated_wrong_passwords_lock_the_account_for_a_while(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    for _ in range(5):
        response = client.post("/en/accounts/login/", {"login": "alice", "password": "guess"})
        assert "are not correct" in response.content.decode()
    # Now even the right password is refused: the limit is on the account (5 in 5 minutes).
    response = client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts. Try again later." in response.content.decode()
    assert signed_in_as(client) is None
    # Another account from the same address is not locked by alice's failures.
    make_user("bob")
    response = client.post("/en/accounts/login/", {"login": "bob", "password": PASSWORD})
    assert response.status_code == 302


def test_rate_limit_message_is_translated(client: Client, make_user: Any) -> None:
    make_user("alice")
    for _ in range(6):
        response = client.post("/hi/accounts/login/", {"login": "alice", "password": "guess"})
    assert "ग़लत पासवर्ड की बहुत ज़्यादा कोशिशें" in response.content.decode()


def test_logout_needs_a_post(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert client.get("/en/accounts/logout/").status_code == 200  # a confirmation page
    assert signed_in_as(client) == "alice"
    response = client.post("/en/accounts/logout/")
    assert response.status_code == 302
    assert signed_in_as(client) is None


def test_inactive_account_cannot_sign_in(client: Client, make_user: Any) -> None:
    make_user("alice", is_active=False)
    response = client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/inactive/"
    assert signed_in_as(client) is None


# --- password change and reset -----------------------------------------------------------


def test_password_change(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    wrong = client.post("/en/accounts/password/change/", {
        "oldpassword": "not it", "password1": "a new long phrase", "password2": "a new long phrase",
    })
    assert "Please type your current password." in wrong.content.decode()
    weak = client.post("/en/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": "12345678", "password2": "12345678",
    })
    assert "This password is entirely numeric." in weak.content.decode()
    assert User.objects.get(username="alice").check_password(PASSWORD)
    done = client.post("/en/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": "a new long phrase", "password2": "a new long phrase",
    })
    assert done.status_code == 302
    assert User.objects.get(username="alice").check_password("a new long phrase")


def test_password_reset_by_the_emailed_link(client: Client, make_user: Any) -> None:
    make_user("alice")
    response = client.post("/en/accounts/password/reset/", {"email": "alice@example.com"})
    assert response["Location"] == "/en/accounts/password/reset/done/"
    assert len(mail.outbox) == 1
    link = link_in(mail.outbox[0].body)
    form_page = client.get(link, follow=True)
    form_url = form_page.redirect_chain[-1][0]
    assert "set-password" in form_url
    mismatch = client.post(form_url, {"password1": "fresh long phrase", "password2": "other"})
    assert "You must type the same password each time." in mismatch.content.decode()
    done = client.post(form_url, {"password1": "fresh long phrase",
                                  "password2": "fresh long phrase"})
    assert done.status_code == 302
    user = User.objects.get(username="alice")
    assert user.check_password("fresh long phrase")
    # The link works once.
    again = client.get(link, follow=True)
    assert "The password reset link was invalid" in again.content.decode()


def test_reset_for_an_unknown_address_reveals_nothing_on_the_page(client: Client) -> None:
    response = client.post("/en/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response["Location"] == "/en/accounts/password/reset/done/"
    assert len(mail.outbox) == 1
    assert "Unknown account" in mail.outbox[0].subject


class _TokensFromTwoDaysAgo(EmailAwarePasswordResetTokenGenerator):
    """Mints the token allauth would have mailed two days ago (links last one day)."""

    def _now(self) -> datetime:
        return datetime.now() - timedelta(days=2)


def test_an_expired_reset_link_changes_nothing(client: Client, make_user: Any) -> None:
    user = make_user("alice")
    old_token = _TokensFromTwoDaysAgo().make_token(user)
    assert not default_token_generator.check_token(user, old_token)
    link = f"/en/accounts/password/reset/key/{int_to_base36(user.pk)}-{old_token}/"
    page = client.get(link, follow=True)
    assert "The password reset link was invalid" in page.content.decode()
    client.post(link, {"password1": "fresh long phrase", "password2": "fresh long phrase"})
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)


def test_a_fresh_token_for_comparison_is_accepted(make_user: Any) -> None:
    # The expired-link test above is only meaningful if an up-to-date token passes.
    user = make_user("alice")
    assert default_token_generator.check_token(user, default_token_generator.make_token(user))


def test_password_reset_requests_are_rate_limited_per_address(
    client: Client, make_user: Any
) -> None:
    make_user("alice")
    for _ in range(5):
        client.post("/en/accounts/password/reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 5
    response = client.post("/en/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 429
    assert len(mail.outbox) == 5  # no sixth mail
