"""baithak.language and the `/` redirect (baithak.views.root): URL, then saved preference,
then Accept-Language.

The saved preference lives on the accounts app's profile (`user.profile.language`); the
unit tests give an unsaved User an unsaved Profile, the redirect tests use the database.
"""

from __future__ import annotations

import pytest
from baithak.language import preferred_language, saved_preference
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client, RequestFactory

from accounts.models import Profile


def _request(accept: str = "", cookie: str = "", user: object | None = None) -> object:
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        request.COOKIES["django_language"] = cookie
    request.user = user if user is not None else AnonymousUser()
    return request


def _user_with_language(language: str | None) -> User:
    user = User(username="asma")
    user.profile = Profile(user=user, language=language or "")
    return user


def test_saved_preference_beats_accept_language() -> None:
    request = _request(accept="hi,en;q=0.8", user=_user_with_language("ur"))
    assert preferred_language(request) == "ur"  # type: ignore[arg-type]


def test_accept_language_when_no_preference_is_saved() -> None:
    assert preferred_language(_request(accept="hi", user=_user_with_language(None))) == "hi"  # type: ignore[arg-type]
    assert preferred_language(_request(accept="ur-PK,ur;q=0.9")) == "ur"  # type: ignore[arg-type]


def test_unknown_saved_language_is_ignored() -> None:
    request = _request(accept="hi", user=_user_with_language("fr"))
    assert saved_preference(request) is None  # type: ignore[arg-type]
    assert preferred_language(request) == "hi"  # type: ignore[arg-type]


def test_user_without_profile_falls_back() -> None:
    assert saved_preference(_request(user=User(username="nadia"))) is None  # type: ignore[arg-type]


def test_anonymous_user_has_no_preference() -> None:
    anonymous = AnonymousUser()
    assert saved_preference(_request(user=anonymous)) is None  # type: ignore[arg-type]


def test_default_language_when_nothing_is_known() -> None:
    assert preferred_language(_request(accept="fr")) == "en"  # type: ignore[arg-type]


@pytest.mark.django_db
@pytest.mark.parametrize(("accept", "target"), [("ur", "/ur/"), ("hi-IN", "/hi/"), ("de", "/en/")])
def test_root_redirects_by_accept_language(client: Client, accept: str, target: str) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    assert response["Location"] == target
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
def test_root_redirect_for_a_signed_in_user(client: Client) -> None:
    # A real signed-in user: their saved preference beats the browser's Accept-Language.
    user = User.objects.create_user("sana", password="a-long-password-1")
    user.profile.language = "hi"
    user.profile.save()
    client.force_login(user)
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="ur")["Location"] == "/hi/"
    user.profile.language = "ur"
    user.profile.save()
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="en")["Location"] == "/ur/"


@pytest.mark.django_db
def test_url_language_beats_everything(client: Client) -> None:
    response = client.get("/hi/rules/rung/", HTTP_ACCEPT_LANGUAGE="ur")
    assert response.status_code == 200
    assert '<html lang="hi"' in response.content.decode()
