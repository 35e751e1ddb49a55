"""Every backgammon word the pages say, in the active language: the actions on the table,
a checker's step and a whole play in words (for the board's labels and the aria-live
region), rolls, and how a game was won."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from game.backgammon.bot import DEFAULT_LEVEL, level_of
from game.backgammon.moves import BAR, OFF, Target
from game.engine import backgammon as bg


def describe_step(src: int, dst: int, hit: bool = False) -> str:
    """One checker's move in words, e.g. "13 to 8" (for the aria-live region)."""
    if dst == OFF:
        return _("%(from)s off") % {"from": src}  # the bar never bears off
    if src == BAR:
        if hit:
            return _("Bar to %(to)s, hitting a blot") % {"to": dst}
        return _("Bar to %(to)s") % {"to": dst}
    if hit:
        return _("%(from)s to %(to)s, hitting a blot") % {"from": src, "to": dst}
    return _("%(from)s to %(to)s") % {"from": src, "to": dst}


def describe_play(notation: str) -> str:
    """A whole play in words, one checker movement after another ("24 to 18, 13 to 8")."""
    segments = bg.parse_notation(notation)
    # a list separator, not a sentence: each item is a translated sentence of its own
    return pgettext("list separator", "; ").join(describe_step(a, b, h) for a, b, h in segments)


def describe_target(t: Target) -> str:
    dice = "+".join(str(d) for d in t.dice)
    return _("%(move)s (dice: %(dice)s)") % {
        "move": describe_step(t.src, t.dst, t.hit),
        "dice": dice,
    }


def describe_roll(dice: tuple[int, int] | list[int], who: str) -> str:
    """ "You rolled 6 and 5" and so on; who is "you", "opponent", "light" or "dark"."""
    values = {"a": dice[0], "b": dice[1]}
    if who == "you":
        return _("You rolled %(a)s and %(b)s") % values
    if who == "opponent":
        return _("Your opponent rolled %(a)s and %(b)s") % values
    if who == "light":
        return _("Light rolled %(a)s and %(b)s") % values
    return _("Dark rolled %(a)s and %(b)s") % values


def kind_word(kind: str) -> str:
    return {
        "single": _("a single game"),
        "gammon": _("a gammon"),
        "backgammon": _("a backgammon"),
    }.get(kind, kind)


def how_word(how: str) -> str:
    return {
        "bearoff": _("by bearing off"),
        "drop": _("by a dropped double"),
        "resign": _("by resignation"),
    }.get(how, how)


# The answers to a double, and the double itself (lessons ask about them too).
CUBE_ANSWERS = ("double", "take", "drop")


def action_label(action: str) -> str:
    labels = {
        "roll": _("Roll the dice"),
        "double": _("Double"),
        "take": _("Take"),
        "drop": _("Drop"),
        "beaver": _("Beaver"),
        "accept": _("Accept the resignation"),
        "reject": _("Reject the resignation"),
        "resign:1": _("Resign a single game"),
        "resign:2": _("Resign a gammon"),
        "resign:3": _("Resign a backgammon"),
    }
    if action.startswith("move:"):
        return _("Play %(move)s") % {"move": describe_play(action[5:])}
    return labels.get(action, action)


def yes_no(value: bool) -> str:
    return _("Yes") if value else _("No")


# The bot's levels (game.backgammon.bot.LEVELS), weakest first, as the form and the table
# name them.
LEVEL_NAMES = {
    "beginner": pgettext_lazy("bot level", "Beginner"),
    # Plain words: "0-ply"/"2-ply" said nothing to a newcomer (docs/TABLES.md says them).
    "intermediate": pgettext_lazy("bot level", "Intermediate"),
    "expert": pgettext_lazy("bot level", "Expert"),
}


def level_name(level: str) -> str:
    """A bot level in words ("Expert")."""
    return str(LEVEL_NAMES[level])


def level_text(options: dict[str, Any]) -> str:
    """"Bot: Expert": the table's level (an old name by its new one), as the
    lobby and the table show it; "" for a level never stored (the check refuses it)."""
    try:
        level = level_of(options.get("bot_level", DEFAULT_LEVEL))
    except ValueError:
        return ""
    return _("Bot: %(level)s") % {"level": level_name(level)}
