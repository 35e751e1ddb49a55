"""Keep a guest's lesson stars when they sign up or sign in."""

from __future__ import annotations

from typing import Any

from tutorials.progress import merge_session_into


def merge_guest_progress(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None and user is not None:
        merge_session_into(session, user)
