"""Staff manage players in the Django admin: profile and statistics on the user page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from accounts.services import record_result
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Client, make_user: Any) -> Client:
    make_user("boss", is_staff=True, is_superuser=True)
    client.login(username="boss", password=PASSWORD)
    return client


def test_staff_open_a_players_page_with_profile_and_stats(
    staff_client: Client, make_user: Any
) -> None:
    ali, bob = make_user("ali"), make_user("bob")
    record_result("backgammon", [[ali], [bob]], winning_team=0)
    response = staff_client.get(f"/admin/auth/user/{ali.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="profile-0-display_name"' in html
    assert 'name="game_stats-0-played"' in html


def test_staff_change_a_players_language_from_the_user_page(
    staff_client: Client, make_user: Any
) -> None:
    ali = make_user("ali")
    page = staff_client.get(f"/admin/auth/user/{ali.pk}/change/")
    data = {}
    form = page.context["adminform"].form
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or name == "password":
            continue
        data[name] = [v.pk for v in value] if hasattr(value, "__iter__") and name in {
            "groups", "user_permissions"} else value
    data.update({
        "date_joined_0": ali.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": ali.date_joined.strftime("%H:%M:%S"),
        "profile-TOTAL_FORMS": "1", "profile-INITIAL_FORMS": "1",
        "profile-MIN_NUM_FORMS": "0", "profile-MAX_NUM_FORMS": "1",
        "profile-0-id": str(ali.profile.pk), "profile-0-user": str(ali.pk),
        "profile-0-display_name": "Ali", "profile-0-language": "ur",
        "game_stats-TOTAL_FORMS": "0", "game_stats-INITIAL_FORMS": "0",
        "game_stats-MIN_NUM_FORMS": "0", "game_stats-MAX_NUM_FORMS": "1000",
    })
    data.pop("last_login", None)
    response = staff_client.post(f"/admin/auth/user/{ali.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Profile.objects.get(user=ali).language == "ur"


def test_staff_add_a_user_and_it_gets_exactly_one_profile(staff_client: Client) -> None:
    response = staff_client.post("/admin/auth/user/add/", {
        "username": "newbie", "password1": PASSWORD, "password2": PASSWORD,
        "usable_password": "true",
    })
    assert response.status_code == 302
    assert Profile.objects.filter(user__username="newbie").count() == 1


def test_players_cannot_open_the_admin(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    user = get_user_model().objects.get(username="alice")
    response = client.get(f"/admin/auth/user/{user.pk}/change/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_stats_and_profile_lists_open(staff_client: Client) -> None:
    assert staff_client.get("/admin/accounts/gamestats/").status_code == 200
    assert staff_client.get("/admin/accounts/profile/").status_code == 200
    assert staff_client.get("/admin/accounts/gameresult/").status_code == 200
    assert staff_client.get("/admin/accounts/gameresult/add/").status_code == 403
