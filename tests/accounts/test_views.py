"""The profile page (display name, language) and the public statistics page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import Profile
from accounts.services import record_result
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client: Client, make_user: Any) -> Client:
    make_user("alice")
    assert client.login(username="alice", password=PASSWORD)
    return client


def test_profile_needs_an_account(client: Client) -> None:
    response = client.get("/ur/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"] == "/ur/accounts/login/?next=/ur/accounts/profile/"


def test_profile_offers_each_language_in_its_own_name(alice_client: Client) -> None:
    html = alice_client.get("/en/accounts/profile/").content.decode()
    assert '<option value="ur" lang="ur">اردو</option>' in html
    assert '<option value="hi" lang="hi">हिंदी</option>' in html
    assert '<option value="en" selected lang="en">English</option>' in html


def test_changing_language_switches_the_site(alice_client: Client) -> None:
    response = alice_client.post(
        "/en/accounts/profile/", {"display_name": "  Ali   Baba ", "language": "ur"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/ur/accounts/profile/"
    profile = Profile.objects.get(user__username="alice")
    assert (profile.display_name, profile.language) == ("Ali Baba", "ur")
    page = alice_client.get(response["Location"])
    html = page.content.decode()
    assert '<html lang="ur" dir="rtl">' in html
    assert "آپ کی پروفائل محفوظ ہو گئی۔" in html  # the message is in the new language
    assert "Ali Baba" in html  # the header shows the display name


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"display_name": "x" * 41, "language": "hi"}, "at most 40 characters"),
        ({"display_name": "Ali", "language": "fr"}, "Select a valid choice."),
        ({"display_name": "Ali"}, "This field is required."),
    ],
)
def test_bad_profile_input_changes_nothing(
    alice_client: Client, data: dict[str, str], error: str
) -> None:
    response = alice_client.post("/en/accounts/profile/", data)
    assert response.status_code == 200
    assert error in response.content.decode()
    profile = Profile.objects.get(user__username="alice")
    assert (profile.display_name, profile.language) == ("", "en")


@pytest.mark.parametrize(
    ("lang", "heading", "won"),
    [("en", "Ali: statistics", "Won"), ("ur", "Ali: اعداد و شمار", "جیتے"),
     ("hi", "Ali: आँकड़े", "जीते")],
)
def test_statistics_page_in_each_language(
    client: Client, make_user: Any, lang: str, heading: str, won: str
) -> None:
    ali, bob = make_user("ali"), make_user("bob")
    ali.profile.display_name = "Ali"
    ali.profile.save()
    record_result("backgammon", [[ali], [bob]], winning_team=0)
    record_result("backgammon", [[ali], [bob]], winning_team=1)
    record_result("backgammon", [[ali], [bob]], winning_team=0)
    html = client.get(f"/{lang}/players/ali/").content.decode()
    assert heading in html
    assert f'<th scope="col">{won}</th>' in html
    rating = ali.game_stats.get(game="backgammon").rating
    assert (
        '<tr data-game="backgammon">' in html
        and f"<td>3</td><td>2</td><td>1</td>\n      <td>{rating:.1f}</td>" in html
    )
    # Games not played yet are listed too, unrated.
    assert '<tr data-game="hukum">' in html


def test_statistics_page_for_unknown_or_inactive_player_is_404(
    client: Client, make_user: Any
) -> None:
    make_user("ghost", is_active=False)
    assert client.get("/en/players/nobody/").status_code == 404
    assert client.get("/en/players/ghost/").status_code == 404


def test_guests_see_sign_in_links_and_players_see_their_name(
    client: Client, make_user: Any
) -> None:
    html = client.get("/hi/").content.decode()
    assert 'href="/hi/accounts/login/"' in html and 'href="/hi/accounts/signup/"' in html
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    html = client.get("/hi/").content.decode()
    assert '<a href="/hi/accounts/profile/" class="account-name">alice</a>' in html
    assert 'action="/hi/accounts/logout/"' in html
