"""HTML for the table socket (``format=html``): the state frame and errors as htmx
out-of-band swaps. Drawn only from the payload that ``services.state_payload`` made for
this socket's seat, so the HTML can never show more than the JSON would.

(A first plain version from the backend; the table UI owns it from here on.)
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _


def _error_words() -> dict[str, str]:
    return {
        "malformed": _("That message could not be read."),
        "not_seated": _("You are watching this table, not playing at it."),
        "not_your_turn": _("It is not your turn."),
        "illegal": _("That move is not allowed here."),
        "stale": _("The table has moved on; here is where it is now."),
        "rate_limited": _("Too many messages at once; wait a moment."),
    }


def table_frame_html(payload: dict[str, Any], lang: str = "en") -> str:
    with translation.override(lang):
        return render_to_string("game/partials/table_live.html", {"p": payload})


def error_html(code: str, message: str, lang: str = "en") -> str:
    with translation.override(lang):
        text = _error_words().get(code, _("That did not work."))
        return render_to_string(
            "game/partials/table_error.html", {"code": code, "text": text, "message": message}
        )


def emote_html(frame: dict[str, Any], lang: str = "en") -> str:
    with translation.override(lang):
        return render_to_string("game/partials/table_emote.html", {"e": frame})
