"""The bot level of a Court Piece table: the table option ``bot_level`` (one of
``game.bots.courtpiece.LEVELS``, "medium" by default), how it is checked, kept out of
the engine's rules, and named for players."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from game.bots import courtpiece as bot

BOT_LEVELS: tuple[str, ...] = tuple(bot.LEVELS)  # ("easy", "medium", "hard")
DEFAULT_BOT_LEVEL = "medium"
TABLE_OPTIONS = ("bot_level",)  # options of the table, not of the engine's rules


def engine_options(options: dict[str, Any]) -> dict[str, Any]:
    """A table's options without the table's own (what ``cp.Rules`` takes)."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTIONS}


def bot_level(options: dict[str, Any]) -> str:
    """The table's bot level (medium when the table has none: tables made before the
    option); ValueError naming the option for anything else."""
    level = options.get("bot_level", DEFAULT_BOT_LEVEL)
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise ValueError(
            f"option bot_level must be one of {', '.join(BOT_LEVELS)}, not {level!r}"
        )
    return level


# The levels in words, weakest first (the form's choices, the lobby, the table).
LEVEL_NAMES: dict[str, Promise] = {
    "easy": pgettext_lazy("bot level", "Easy"),
    "medium": pgettext_lazy("bot level", "Medium"),
    "hard": pgettext_lazy("bot level", "Hard"),
}


def level_name(level: str) -> str:
    return str(LEVEL_NAMES[level])


def level_text(options: dict[str, Any]) -> str:
    """"Bots: Hard": the table's level as the lobby and the table show it."""
    try:
        level = bot_level(options)
    except ValueError:  # never stored (the table's check refuses it)
        return ""
    return _("Bots: %(level)s") % {"level": level_name(level)}


def choices() -> list[tuple[str, str]]:
    """``GamePages.bot_levels``: each level and its name, weakest first."""
    return [(level, level_name(level)) for level in BOT_LEVELS]
