"""Who may take a seat at a live table: registered, active players only.

Guests read the rules and take the lessons freely (those views carry no check); a seat
needs an account. Views use :func:`require_account_for_seat`; WebSocket consumers, which
cannot redirect, call :func:`seat_refusal` and send the reason instead of seating.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

SEAT_NEEDS_ACCOUNT = "account_required"


def may_take_seat(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def seat_refusal(user: Any) -> dict[str, str] | None:
    """``None`` when ``user`` may sit down; otherwise an error for a consumer to send."""
    if may_take_seat(user):
        return None
    return {
        "type": "error",
        "code": SEAT_NEEDS_ACCOUNT,
        "message": _("Sign in or create an account to take a seat at a table."),
        "login_url": reverse("account_login"),
        "signup_url": reverse("account_signup"),
    }


def require_account_for_seat(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view that seats the requester at a table.

    A guest is sent to the sign-in page (in the current language) with a message saying
    why and ``next`` pointing back; an htmx request gets ``HX-Redirect`` instead, since
    htmx would swap a redirected page into a fragment.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if may_take_seat(request.user):
            return view(request, *args, **kwargs)
        messages.info(
            request,
            _("Sign in or create an account to take a seat at a table."),
            fail_silently=True,
        )
        response = redirect_to_login(request.get_full_path(), reverse("account_login"))
        if getattr(request, "htmx", False):
            htmx_response = HttpResponse(status=401)
            htmx_response["HX-Redirect"] = response["Location"]
            return htmx_response
        return response

    return wrapper
