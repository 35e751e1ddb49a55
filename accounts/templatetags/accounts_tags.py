"""Template helpers for showing players."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import Profile

register = template.Library()


@register.filter
def display_name(user: Any) -> str:
    """A user's display name, or their username when they have none (or no profile)."""
    profile = getattr(user, "profile", None)
    if profile is not None:
        return profile.name
    return Profile.shown_name(None, user.get_username()) if hasattr(user, "get_username") else ""
