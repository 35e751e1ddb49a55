"""System checks: a production site must name a real contact address."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register("guide")
def contact_email_in_production(**_: Any) -> list[checks.CheckMessage]:
    address = settings.CONTACT_EMAIL
    if settings.DEBUG or (address and not address.endswith("localhost")):
        return []
    return [
        checks.Warning(
            f"DEBUG is off but CONTACT_EMAIL is {address!r}: the contact page and every "
            "email would give players an address nobody reads.",
            hint="Set CONTACT_EMAIL to a mailbox someone answers.",
            id="guide.W001",
        )
    ]
