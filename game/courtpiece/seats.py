"""The four seats as the viewer sees them: where each sits on screen, its name (you, a
player, a guest, a bot), partner or opponent, and each team's name."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

#: Where each relative seat sits: 0 is the viewer (bottom), play goes anticlockwise (CP-3).
PLACES = ("bottom", "right", "top", "left")


class Seats:
    """Names and places of the four seats as the viewer sees them."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.me: int | None = payload.get("seat")
        self.info = {int(s["seat"]): s for s in payload.get("seats") or []}

    def relative(self, seat: int) -> int:
        return (seat - (self.me or 0)) % 4

    def place(self, seat: int) -> str:
        return PLACES[self.relative(seat)]

    def name(self, seat: int) -> str:
        if seat == self.me:
            return _("You")
        info = self.info.get(seat) or {}
        player = info.get("player")
        if info.get("guest"):
            return _("Guest")
        if player and not info.get("bot"):
            return str(player)
        if self.info and not info.get("bot"):
            return _("Empty seat")
        compass = {0: _("South"), 1: _("East"), 2: _("North"), 3: _("West")}
        return _("Bot (%(place)s)") % {"place": compass[seat]}

    def role(self, seat: int) -> str:
        if self.me is None:
            return ""
        if seat == self.me:
            return ""
        return _("Partner") if (seat - self.me) % 2 == 0 else _("Opponent")

    def team_name(self, team: int) -> str:
        if self.me is not None:
            return _("Your team") if self.me % 2 == team else _("Opponents")
        return _("%(a)s and %(b)s") % {"a": self.name(team), "b": self.name(team + 2)}
