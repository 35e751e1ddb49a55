"""A signed-in player's stored language applies wherever the URL does not name one."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def hindi_reader(client: Client, make_user: Any) -> Client:
    user = make_user("alice")
    user.profile.language = "hi"
    user.profile.save()
    client.login(username="alice", password=PASSWORD)
    return client


def test_root_opens_in_the_players_language(hindi_reader: Client) -> None:
    response = hindi_reader.get("/", HTTP_ACCEPT_LANGUAGE="ur")
    assert response.status_code == 302
    assert response["Location"] == "/hi/"


def test_unprefixed_pages_open_in_the_players_language(hindi_reader: Client) -> None:
    response = hindi_reader.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Location"] == "/hi/accounts/profile/"


def test_an_explicit_language_in_the_url_wins(hindi_reader: Client) -> None:
    response = hindi_reader.get("/ur/")
    assert response.status_code == 200
    assert '<html lang="ur" dir="rtl">' in response.content.decode()


def test_guests_still_follow_their_browser(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ur")
    assert response["Location"] == "/ur/"


def test_a_user_without_a_profile_falls_back_to_the_browser(
    client: Client, make_user: Any
) -> None:
    user = make_user("alice")
    user.profile.delete()
    client.login(username="alice", password=PASSWORD)
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="hi")["Location"] == "/hi/"
