"""After signing in, a player lands in their own language unless a page was asked for."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def urdu_reader(make_user: Any) -> Any:
    user = make_user("alice")
    user.profile.language = "ur"
    user.profile.save()
    return user


def test_login_lands_in_the_players_language(client: Client, urdu_reader: Any) -> None:
    response = client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response["Location"] == "/ur/"
    html = client.get("/ur/").content.decode()
    assert "آپ alice کے نام سے سائن اِن ہو گئے۔" in html  # the message followed the language


def test_an_explicit_next_page_wins(client: Client, urdu_reader: Any) -> None:
    response = client.post(
        "/en/accounts/login/?next=/en/players/alice/", {"login": "alice", "password": PASSWORD}
    )
    assert response["Location"] == "/en/players/alice/"
    assert "Successfully signed in as alice." in client.get("/en/").content.decode()


def test_email_subjects_carry_the_translated_site_name(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.post("/hi/accounts/password/reset/", {"email": "alice@example.com"})
    assert mail.outbox[0].subject.startswith("बैठक: ")


def test_messages_name_the_player_by_display_name(client: Client, urdu_reader: Any) -> None:
    urdu_reader.profile.display_name = "علی"
    urdu_reader.profile.save()
    client.post("/en/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "آپ علی کے نام سے سائن اِن ہو گئے۔" in client.get("/ur/").content.decode()
