"""System checks: production must not print its emails to a console nobody reads."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register("accounts")
def email_backend_in_production(**_: Any) -> list[checks.CheckMessage]:
    if settings.DEBUG or "console" not in settings.EMAIL_BACKEND:
        return []
    return [
        checks.Warning(
            "DEBUG is off but emails go to the console: verification and password-reset "
            "links will never reach players.",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
            "EMAIL_USE_TLS, DEFAULT_FROM_EMAIL).",
            id="accounts.W001",
        )
    ]
