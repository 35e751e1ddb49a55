"""A seat at a live table needs an account; rules and lessons do not."""

from __future__ import annotations

from typing import Any

import pytest
from baithak.urls import urlpatterns as site_urlpatterns
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from accounts.access import (
    SEAT_NEEDS_ACCOUNT,
    may_take_seat,
    require_account_for_seat,
    seat_refusal,
)
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@require_account_for_seat
def take_seat(request: HttpRequest, table: int) -> HttpResponse:
    return HttpResponse(f"seated {request.user.get_username()} at {table}")


# The site's URLs plus one seat-taking view, as a live table will add.
urlpatterns = [*site_urlpatterns, path("tables/<int:table>/sit/", take_seat)]


@pytest.fixture(autouse=True)
def _urls(settings: Any) -> None:
    settings.ROOT_URLCONF = __name__


def test_a_guest_is_sent_to_sign_in_and_back(client: Client) -> None:
    response = client.get("/tables/7/sit/")
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/login/?next=/tables/7/sit/"
    page = client.get(response["Location"]).content.decode()
    assert "Sign in or create an account to take a seat at a table." in page


def test_a_guest_using_htmx_is_redirected_by_header(client: Client) -> None:
    response = client.post("/tables/7/sit/", HTTP_HX_REQUEST="true")
    assert response.status_code == 401
    assert response["HX-Redirect"] == "/en/accounts/login/?next=/tables/7/sit/"


def test_a_player_takes_the_seat(client: Client, make_user: Any) -> None:
    make_user("alice")
    client.login(username="alice", password=PASSWORD)
    response = client.get("/tables/7/sit/")
    assert response.status_code == 200
    assert response.content == b"seated alice at 7"


def test_consumers_get_a_reason_to_send(make_user: Any) -> None:
    refusal = seat_refusal(AnonymousUser())
    assert refusal is not None
    assert refusal["code"] == SEAT_NEEDS_ACCOUNT
    assert refusal["login_url"] == "/en/accounts/login/"
    assert seat_refusal(make_user("alice")) is None
    assert not may_take_seat(make_user("bob", is_active=False))


def test_guests_may_read_the_site_without_an_account(client: Client) -> None:
    # Rules and lessons will live beside the home page: no login wall in front of them.
    for lang in ("ur", "hi", "en"):
        assert client.get(f"/{lang}/").status_code == 200
