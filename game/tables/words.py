"""The words every table page shares, whatever the game: refusals, emotes, who sits where."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def emote_word(emote: str) -> str:
    words = {
        "hello": _("Hello"),
        "well_played": _("Well played"),
        "thanks": _("Thanks"),
        "oops": _("Oops"),
        "wow": _("Wow"),
        "good_game": _("Good game"),
    }
    return words.get(emote, emote)


def error_text(code: str) -> str:
    """A refusal's code (docs/TABLE_PROTOCOL.md) in the reader's words."""
    words = {
        "malformed": _("That message could not be read."),
        "not_seated": _("You are not seated at this table."),
        "not_your_turn": _("It is not your turn."),
        "illegal": _("That move is not allowed here."),
        "stale": _("The table moved on; here is the latest."),
        "rate_limited": _("Too fast: wait a moment."),
        "forbidden": _("You may not do that."),
        "not_found": _("This table does not exist."),
        "needs_account": _("Sign in to take a seat at a table with people."),
        "conflict": _("Someone else was quicker."),
        "bad_request": _("That request is not valid."),
        "not_over": _("That hand is not over yet: it can be played again once it ends."),
    }
    return words.get(code, _("Something went wrong."))


def empty(row: dict[str, Any] | None) -> bool:
    """Whether nobody sits in a seat (a seat row of a state frame): no player, no bot."""
    return not (row or {}).get("bot") and not (row or {}).get("player")


def mention(row: dict[str, Any] | None) -> str:
    """Who sits in a seat (a seat row of a state frame), as a sentence names them: a
    player by name, a guest, a bot, or an empty seat."""
    row = row or {}
    if row.get("bot"):
        return _("a bot")
    if row.get("guest"):
        return _("a guest")
    if row.get("player"):
        return str(row["player"])
    return _("an empty seat")


def left_name(left: str) -> str:
    """A seat's name once its player left it during play and a bot took it over (a seat
    row's ``left``: the player's name, or "guest"): the player, never "Bot (South)"."""
    who = _("Guest") if left == "guest" else left
    return _("%(name)s (left — a bot took over)") % {"name": who}
