"""The live tables' settings (``TABLES_*`` in site/settings.py; docs/CONFIGURATION.md), read
at the moment they are used so that tests and operators may change them."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)
