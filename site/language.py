"""Which language to send a visitor to when the URL does not say (the `/` redirect,
baithak.views.root).

Order (issue #4): the URL's language prefix always wins (i18n_patterns does that); for a
URL without one, a signed-in user's saved preference, then the browser's Accept-Language
(and Django's language cookie, which `set_language` writes), then settings.LANGUAGE_CODE.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language_from_request


def _site_languages() -> set[str]:
    return {code for code, _ in settings.LANGUAGES}


def saved_preference(request: HttpRequest) -> str | None:
    """The signed-in user's saved language, if the accounts app gave them one.

    The profile (model and field) belongs to the accounts app; this reads it by duck
    typing so the site works with or without it: `request.user.profile.language`.
    """
    user = getattr(request, "user", None)
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        profile = getattr(user, "profile", None)
    except Exception:  # a missing one-to-one row raises RelatedObjectDoesNotExist
        return None
    language = getattr(profile, "language", None) if profile is not None else None
    return language if language in _site_languages() else None


def preferred_language(request: HttpRequest) -> str:
    """Saved preference, then the cookie and Accept-Language, then the default."""
    return saved_preference(request) or get_language_from_request(request, check_path=False)
