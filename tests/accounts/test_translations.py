"""Every account page, in Urdu and in Hindi, shows no English.

allauth ships no Urdu or Hindi catalogue and Django's are incomplete, so ours
(locale/ur, locale/hi) carry every string these pages use. Each page is rendered in the
states a player meets: empty, with each kind of error, after each action (messages), and
the emails they receive. What counts as English left: tests/language.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.http import int_to_base36

from tests.language import catalogue_gaps, english_left
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db
LANGS = ["ur", "hi"]
ALLOWED = {"alice", "bob", "example", "com", "testserver", "fr"}  # our own input


def url(lang: str, name: str, *args: Any) -> str:
    with translation.override(lang):
        return reverse(name, args=args)


def leftovers(response: Any, lang: str) -> list[str]:
    assert response.status_code in {200, 400, 429}, response.status_code
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    return english_left(html, lang, allowed=ALLOWED)


def mail_leftovers(message: Any, lang: str) -> list[str]:
    return english_left(message.subject + "\n" + message.body, lang, allowed=ALLOWED)


def check(pages: dict[str, list[str]]) -> None:
    bad = {page: sorted(set(words)) for page, words in pages.items() if words}
    assert bad == {}


@pytest.mark.parametrize("lang", LANGS)
def test_guest_pages(client: Client, make_user: Any, lang: str) -> None:
    make_user("bob")
    pages: dict[str, list[str]] = {}
    pages["login"] = leftovers(client.get(url(lang, "account_login")), lang)
    pages["login wrong password"] = leftovers(
        client.post(url(lang, "account_login"), {"login": "bob", "password": "nope-nope"}), lang
    )
    pages["login empty"] = leftovers(client.post(url(lang, "account_login"), {}), lang)
    pages["signup"] = leftovers(client.get(url(lang, "account_signup")), lang)
    for label, data in {
        "signup taken username and email": {
            "username": "bob", "email": "bob@example.com",
            "password1": PASSWORD, "password2": PASSWORD,
        },
        "signup weak password": {
            "username": "alice", "email": "alice@example.com",
            "password1": "1234", "password2": "1234",
        },
        "signup common password": {
            "username": "alice", "email": "alice@example.com",
            "password1": "password", "password2": "password",
        },
        "signup password like username": {
            "username": "alicealice", "email": "alice@example.com",
            "password1": "alicealice1", "password2": "alicealice1",
        },
        "signup mismatched passwords": {
            "username": "alice", "email": "alice@example.com",
            "password1": PASSWORD, "password2": PASSWORD + "!",
        },
        "signup bad email and username": {
            "username": "a b", "email": "not-an-email", "password1": "", "password2": "",
        },
        "signup empty": {},
    }.items():
        pages[label] = leftovers(client.post(url(lang, "account_signup"), data), lang)
    pages["reset"] = leftovers(client.get(url(lang, "account_reset_password")), lang)
    pages["reset bad email"] = leftovers(
        client.post(url(lang, "account_reset_password"), {"email": "nope"}), lang
    )
    pages["reset done"] = leftovers(
        client.post(url(lang, "account_reset_password"), {"email": "bob@example.com"},
                    follow=True), lang
    )
    pages["reset bad key"] = leftovers(
        client.get(url(lang, "account_reset_password_from_key", "zz", "bad-key"), follow=True),
        lang,
    )
    pages["reset key done"] = leftovers(
        client.get(url(lang, "account_reset_password_from_key_done")), lang
    )
    pages["verification sent"] = leftovers(
        client.get(url(lang, "account_email_verification_sent")), lang
    )
    pages["confirm bad key"] = leftovers(
        client.get(url(lang, "account_confirm_email", "bad-key")), lang
    )
    pages["inactive"] = leftovers(client.get(url(lang, "account_inactive")), lang)
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_reset_from_key_pages(client: Client, make_user: Any, lang: str) -> None:
    user = make_user("bob")
    key_url = url(
        lang, "account_reset_password_from_key",
        int_to_base36(user.pk), default_token_generator.make_token(user),
    )
    response = client.get(key_url, follow=True)
    pages = {"reset form": leftovers(response, lang)}
    pages["reset form mismatch"] = leftovers(
        client.post(response.redirect_chain[-1][0], {"password1": PASSWORD, "password2": "x"}),
        lang,
    )
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_signup_flow_pages_and_email(client: Client, lang: str) -> None:
    response = client.post(
        url(lang, "account_signup"),
        {"username": "alice", "email": "alice@example.com",
         "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    pages = {"after signup": leftovers(response, lang)}
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    pages["verification email"] = mail_leftovers(message, lang)
    link = re.search(r"https?://testserver(\S+)", message.body)
    assert link is not None
    pages["confirm"] = leftovers(client.get(link.group(1)), lang)
    pages["after confirm"] = leftovers(client.post(link.group(1), follow=True), lang)
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_signed_in_pages(client: Client, make_user: Any, lang: str) -> None:
    user = make_user("alice")
    user.profile.language = lang
    user.profile.save()
    pages: dict[str, list[str]] = {}
    pages["after login"] = leftovers(
        client.post(url(lang, "account_login") + "?next=" + url(lang, "home"),
                    {"login": "alice", "password": PASSWORD}, follow=True),
        lang,
    )
    pages["home"] = leftovers(client.get(url(lang, "home")), lang)
    pages["logout"] = leftovers(client.get(url(lang, "account_logout")), lang)
    pages["password change"] = leftovers(client.get(url(lang, "account_change_password")), lang)
    pages["password change wrong"] = leftovers(
        client.post(url(lang, "account_change_password"),
                    {"oldpassword": "wrong", "password1": "1234", "password2": "12345"}),
        lang,
    )
    pages["email"] = leftovers(client.get(url(lang, "account_email")), lang)
    pages["email add bad"] = leftovers(
        client.post(url(lang, "account_email"), {"action_add": "", "email": "nope"}), lang
    )
    pages["email add"] = leftovers(
        client.post(url(lang, "account_email"),
                    {"action_add": "", "email": "alice2@example.com"}, follow=True),
        lang,
    )
    pages["email remove primary"] = leftovers(
        client.post(url(lang, "account_email"),
                    {"action_remove": "", "email": "alice@example.com"}, follow=True),
        lang,
    )
    pages["email resend"] = leftovers(
        client.post(url(lang, "account_email"),
                    {"action_send": "", "email": "alice2@example.com"}, follow=True),
        lang,
    )
    pages["reauthenticate"] = leftovers(client.get(url(lang, "account_reauthenticate")), lang)
    pages["profile"] = leftovers(client.get(url(lang, "profile")), lang)
    pages["profile bad"] = leftovers(
        client.post(url(lang, "profile"), {"display_name": "x" * 41, "language": "fr"}), lang
    )
    pages["player"] = leftovers(client.get(url(lang, "player", user.username)), lang)
    pages["password changed"] = leftovers(
        client.post(url(lang, "account_change_password"),
                    {"oldpassword": PASSWORD, "password1": PASSWORD + " 2",
                     "password2": PASSWORD + " 2"}, follow=True),
        lang,
    )
    pages["signed out"] = leftovers(client.post(url(lang, "account_logout"), follow=True), lang)
    for message in mail.outbox:
        pages[f"email: {message.subject}"] = mail_leftovers(message, lang)
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_confirm_page_for_other_account_and_reset_emails(
    client: Client, make_user: Any, lang: str
) -> None:
    make_user("bob")
    # Reset emails: for a known address, and for an unknown one (allauth says so by mail,
    # not on the page, so the page cannot be used to probe for accounts).
    client.post(url(lang, "account_reset_password"), {"email": "bob@example.com"})
    client.post(url(lang, "account_reset_password"), {"email": "nobody@example.com"})
    assert len(mail.outbox) == 2
    pages = {
        f"email: {m.subject}": mail_leftovers(m, lang)
        for m in mail.outbox
    }
    alice = make_user("alice", verified=False)
    address = EmailAddress.objects.get(user=alice)
    key = EmailConfirmationHMAC(address).key
    pages["confirm valid key"] = leftovers(
        client.get(url(lang, "account_confirm_email", key)), lang
    )
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_too_many_requests_page(client: Client, lang: str) -> None:
    for _ in range(20):
        client.post(url(lang, "account_signup"), {})
    response = client.post(url(lang, "account_signup"), {})
    assert response.status_code == 429
    check({"429": leftovers(response, lang)})


@pytest.mark.parametrize("lang", LANGS)
def test_set_password_page_and_account_exists_email(
    client: Client, make_user: Any, lang: str
) -> None:
    # A player made by staff without a password sets one; a stranger signing up with a
    # taken address makes allauth mail the owner.
    user = make_user("bob")
    user.set_unusable_password()
    user.save()
    client.force_login(user)
    pages = {"set password": leftovers(client.get(url(lang, "account_set_password")), lang)}
    client.logout()
    client.post(url(lang, "account_signup"), {
        "username": "alice", "email": "bob@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert len(mail.outbox) == 1
    pages["account exists email"] = mail_leftovers(mail.outbox[0], lang)
    check(pages)


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_covers_the_accounts(lang: str) -> None:
    # allauth's own templates are not ours to scan: the page tests above render them.
    folders = ["accounts", "templates/accounts", "templates/allauth"]
    assert catalogue_gaps(lang, folders) == [], f"see locale/{lang}/LC_MESSAGES/django.po"
