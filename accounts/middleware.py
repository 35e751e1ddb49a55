"""Apply a signed-in player's preferred language to URLs that do not name one."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class PreferredLanguageMiddleware:
    """For a signed-in player, ``/`` (or any path without a language prefix) opens in the
    language stored in their profile, not the browser's.

    It only activates the language: Django's ``LocaleMiddleware`` then finds no page
    without a prefix and redirects to ``/<language>/…`` using the active language. A URL
    that names a language (``/hi/…``) is left alone: an explicit choice always wins.
    Must come after ``AuthenticationMiddleware``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and not translation.get_language_from_path(request.path_info)
        ):
            profile = getattr(user, "profile", None)
            language = getattr(profile, "language", None)
            if language in self.languages:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
