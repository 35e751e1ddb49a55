"""English pages and emails in sentence case ("Sign in", not allauth's "Sign In"); emails
greet from Baithak, not from the host name, and end with where to write to us; the confirm
page links to Contact."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.core import mail
from django.test import Client, override_settings

from tests.people import PASSWORD

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
EN_PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
# Two or more capitalised words in a row; the games' own names are names, not headings.
TITLE_CASE = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b")
NAMES = {"Court Piece", "Single Sar", "Double Sar", "Hidden Rung", "Mendi Coat", "Be-Ranga"}


def _visible_title_case(html: str) -> set[str]:
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r'<[^>]*?(?:value|aria-label|placeholder|title)="([^"]*)"[^>]*>', r" \1 ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return set(TITLE_CASE.findall(text)) - NAMES


def test_every_english_respelling_is_sentence_case() -> None:
    for entry in polib.pofile(str(EN_PO)):
        assert entry.msgstr, entry.msgid
        first, *rest = entry.msgstr.split(" ")
        assert first[:1].isupper() and all(word == word.lower() for word in rest), entry.msgstr
        assert entry.msgstr.lower() == entry.msgid.lower()  # only the case changes


def test_guest_pages_are_in_sentence_case(client: Client) -> None:
    for path in ("/en/", "/en/accounts/login/", "/en/accounts/signup/",
                 "/en/accounts/password/reset/", "/en/accounts/confirm-email/bad-key/"):
        assert _visible_title_case(client.get(path).content.decode()) == set(), path


def test_signed_in_pages_are_in_sentence_case(client: Client, make_user: Any) -> None:
    client.force_login(make_user())
    for path in ("/en/accounts/logout/", "/en/accounts/password/change/",
                 "/en/accounts/email/", "/en/accounts/profile/", "/en/players/alice/"):
        assert _visible_title_case(client.get(path).content.decode()) == set(), path


@override_settings(CONTACT_EMAIL="help@baithak.example")
@pytest.mark.parametrize(("lang", "hello"), [("en", "Hello from Baithak!"),
                                             ("ur", "بیٹھک کی طرف سے سلام!"),
                                             ("hi", "बैठक की ओर से")])
def test_emails_greet_from_baithak_and_give_the_contact_address(
    client: Client, lang: str, hello: str
) -> None:
    client.post(f"/{lang}/accounts/signup/", {
        "username": "alice", "email": "alice@example.com",
        "password1": PASSWORD, "password2": PASSWORD})
    message = mail.outbox[0]
    assert hello in message.body.splitlines()[0]
    assert "testserver!" not in message.body  # allauth's default greets from the host name
    assert "help@baithak.example" in message.body
    assert f"http://testserver/{lang}/contact/" in message.body
    if lang == "en":
        assert message.subject == "Baithak: Please confirm your email address"


@pytest.mark.parametrize("lang", ["ur", "hi", "en"])
def test_confirm_pages_link_to_contact(client: Client, lang: str) -> None:
    client.post(f"/{lang}/accounts/signup/", {
        "username": "alice", "email": "alice@example.com",
        "password1": PASSWORD, "password2": PASSWORD})
    sent = client.get(f"/{lang}/accounts/confirm-email/").content.decode()
    assert f'href="/{lang}/contact/"' in sent
    link = re.search(r"https?://testserver(/\S+)", mail.outbox[0].body)
    assert link
    confirm = client.get(link.group(1)).content.decode()
    assert f'href="/{lang}/contact/"' in confirm
