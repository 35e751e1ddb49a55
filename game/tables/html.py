"""The live table's HTML for browsers (the socket's ``format=html``, and the table page's
first paint), whatever the game: each state frame is drawn by its game's renderer
(``GamePages.frame_html``); errors, emotes and the lobby's doorbell are drawn here.

Frames are out-of-band swaps for htmx's WebSocket extension: a frame replaces
``#table-live``, fills the persistent ``aria-live`` region ``#table-announce`` and clears
``#table-error``. Everything shown comes from the payload, which is already the seat's
own view, so no renderer can leak a card its seat may not see.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from game.tables import registry
from game.tables.words import emote_word, error_text


def _pages_of(payload: dict[str, Any]) -> registry.GamePages:
    table = payload.get("table") or {}
    view = payload.get("view") or {}
    name = table.get("game") or view.get("game") or registry.default_name()
    return registry.spec(name).pages


def table_frame_html(payload: dict[str, Any], lang: str) -> str:
    """The HTML of one state frame (out of band), for the seat the payload was made for;
    while the table waits, with the seats' doorbell (seats_bell)."""
    with translation.override(lang):
        frame = _pages_of(payload).frame_html(payload, True)
    if (payload.get("table") or {}).get("status") == "waiting":
        frame += seats_bell(payload.get("seats") or [], oob=True)
    return frame


def seats_signature(seats: list[dict[str, Any]]) -> str:
    """Who sits where, in a few characters: it changes when someone sits down or leaves
    (or a bot is seated), whatever else the frame says."""
    text = "|".join(
        f"{s.get('seat')}:{int(bool(s.get('bot')))}:{int(bool(s.get('guest')))}:"
        f"{s.get('player') or ''}"
        for s in seats
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def seats_bell(seats: list[dict[str, Any]], oob: bool = False) -> str:
    """A waiting table's doorbell: the page's list of seats carries forms with the
    page's CSRF token and the viewer's invite, which a socket's frame cannot draw, so the
    frame only says who sits where now and the page (static/js/table.js) fetches its list
    again when that differs from the one it shows (``game:seats``)."""
    swap = ' hx-swap-oob="true"' if oob else ""
    return f'<div id="seats-bell"{swap} data-seats="{seats_signature(seats)}" hidden></div>'


def table_live_html(payload: dict[str, Any], lang: str) -> str:
    """The same table drawn into the page itself (first paint, and no JavaScript)."""
    with translation.override(lang):
        return _pages_of(payload).frame_html(payload, False)


def deadline(payload: dict[str, Any]) -> dict[str, str] | None:
    """The frame's deadline for a ``<time>``: ISO and a short UTC clock (None: none)."""
    raw = payload.get("deadline")
    if not raw:
        return None
    try:
        when = datetime.fromisoformat(str(raw).replace("Z", "+00:00"))
    except ValueError:
        return None
    return {"iso": when.isoformat(), "text": when.strftime("%H:%M:%S UTC")}


def error_html(code: str, message: str, lang: str) -> str:
    """An error for this socket only. The engine's `message` is English, so it is shown
    (as an English aside) only on English pages; other pages get the code's own words."""
    with translation.override(lang):
        text = error_text(code)
        detail = escape(message) if lang == "en" and message else ""
        return render_to_string(
            "game/partials/error.html", {"code": code, "text": text, "detail": detail}
        )


def emote_html(frame: dict[str, Any], lang: str) -> str:
    """A fixed emote from one seat; table.js puts the seat's name in front of it."""
    with translation.override(lang):
        return render_to_string(
            "game/partials/table_emote.html",
            {"seat": frame.get("seat"), "label": emote_word(str(frame.get("emote")))},
        )


def lobby_html(tables: list[dict[str, Any]], lang: str) -> str:
    """The lobby socket's frame: a doorbell, not the list. The list carries players'
    ratings, which live in the database, so the page fetches it afresh over HTTP
    (``game.tables.pages.lobby`` answers htmx with the list alone)."""
    with translation.override(lang):
        url = reverse("game:lobby")
    return (
        f'<div id="lobby-bell" hx-swap-oob="true" data-tables="{len(tables)}">'
        f'<div hx-get="{escape(url)}" hx-trigger="load" hx-target="#lobby-tables" '
        f'hx-swap="innerHTML"></div></div>'
    )
