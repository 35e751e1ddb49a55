"""The four seats as the viewer sees them: where each sits on screen, its name (you, a
player, a guest, a bot), partner or opponent, and each team's name."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from game.tables.words import empty, left_name, mention

#: Where each relative seat sits: 0 is the viewer (bottom), play goes anticlockwise (CP-3).
PLACES = ("bottom", "right", "top", "left")


def compass(seat: int) -> str:
    """The seat's name at the table: seat 0 is South, and play goes East, North, West."""
    return {0: _("South"), 1: _("East"), 2: _("North"), 3: _("West")}[seat % 4]


def _with_and_against(partner: dict[str, Any] | None, left: Any, right: Any) -> str:
    """Whom a seat plays with (across) and against (either side), one whole sentence for
    each case, so that every language words it its own way."""
    values = {"partner": mention(partner), "left": mention(left), "right": mention(right)}
    bots = bool((left or {}).get("bot") and (right or {}).get("bot"))
    nobody = empty(left) and empty(right)
    if empty(partner):
        if bots:
            return _("no partner yet, against two bots")
        if nobody:
            return _("no partner yet, against two empty seats")
        return _("no partner yet, against %(left)s and %(right)s") % values
    if bots:
        return _("partner of %(partner)s, against two bots") % values
    if nobody:
        return _("partner of %(partner)s, against two empty seats") % values
    return _("partner of %(partner)s, against %(left)s and %(right)s") % values


def seat_offers(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``GamePages.seat_offers``: each seat by its compass name, with its partner (across
    the table) and its opponents (either side), for someone choosing where to sit."""
    by_seat = {int(r["seat"]): r for r in rows}
    return [
        {
            "seat": seat,
            "name": compass(seat),
            "text": _with_and_against(
                by_seat.get((seat + 2) % 4), by_seat.get((seat + 1) % 4),
                by_seat.get((seat + 3) % 4),
            ),
        }
        for seat in sorted(by_seat)
    ]


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
        if info.get("left"):
            return left_name(info["left"])
        return _("Bot (%(place)s)") % {"place": compass(seat)}

    def label(self, seat: int) -> str:
        """The seat's name where the table draws it, beside its badges: a player who left
        is named alone there (the seat's "Left the table" badge says the rest), and in
        the teams' names; everywhere else :meth:`name` says that a bot took over."""
        info = self.info.get(seat) or {}
        if seat != self.me and info.get("bot") and info.get("left"):
            return _("Guest") if info["left"] == "guest" else str(info["left"])
        return self.name(seat)

    def left(self, seat: int) -> bool:
        """Whether the seat's player left it during play, and a bot plays it."""
        info = self.info.get(seat) or {}
        return bool(info.get("bot") and info.get("left"))

    def role(self, seat: int) -> str:
        if self.me is None:
            return ""
        if seat == self.me:
            return ""
        return _("Partner") if (seat - self.me) % 2 == 0 else _("Opponent")

    def team_name(self, team: int) -> str:
        if self.me is not None:
            return _("Your team") if self.me % 2 == team else _("Opponents")
        return _("%(a)s and %(b)s") % {"a": self.label(team), "b": self.label(team + 2)}
