"""The bot level a player last chose, per game: what Play now plays at when the player
does not say, and what the level choosers show first.

A table's level is its option ``bot_level`` (each game names its own levels:
``GamePages.bot_levels``). The last one chosen is kept in the session, for guests and
signed-in players alike; a signed-in player in a new session (another browser) gets the
level of the last table they created of that game, so an account remembers it too
without a column of its own. Nothing here knows a game's levels: a level no longer
offered simply falls back to the game's default."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from game.models import Table
from game.tables import registry

OPTION = "bot_level"


def _key(game: str) -> str:
    return f"{OPTION}:{game}"


def remembered(request: HttpRequest, game: str) -> str | None:
    """The level this player last chose for ``game``, if it is still one of its levels."""
    gspec = registry.find(game)
    offered = {value for value, _name in gspec.pages.bot_levels()} if gspec else set()
    level = request.session.get(_key(game))
    if level is None and request.user.is_authenticated:
        last = (
            Table.objects.filter(host=request.user, game=game, options__has_key=OPTION)
            .order_by("-created_at")
            .values_list("options", flat=True)
            .first()
        )
        level = (last or {}).get(OPTION)
    return level if level in offered else None


def remember(request: HttpRequest, game: str, options: dict[str, Any]) -> None:
    """Keep the level of a table just created (one that has a level)."""
    level = options.get(OPTION)
    if isinstance(level, str):
        request.session[_key(game)] = level


def choices(request: HttpRequest, game: str) -> list[dict[str, Any]]:
    """The game's levels for a chooser, the remembered one (else the default) selected."""
    gspec = registry.find(game)
    if gspec is None:
        return []
    levels = list(gspec.pages.bot_levels())
    chosen = remembered(request, game) or gspec.pages.default_bot_level
    return [{"value": v, "name": n, "selected": v == chosen} for v, n in levels]
