"""Words for a lesson's options (cards, actions, seats, results), in the active language:
the games' own words (game.courtpiece.words, game.backgammon.words), and the lessons' way
of naming the learner's seat and team."""

from __future__ import annotations

from django.utils.translation import gettext as _

from game.backgammon import words as bg_words
from game.courtpiece import words as cp_words
from tutorials import pictures
from tutorials.steps.base import Option


def action_label(action: str) -> str:
    """An action as a lesson offers it to choose: each game's own words."""
    if action in bg_words.CUBE_ANSWERS:
        return bg_words.action_label(action)
    return cp_words.action_instruction(action)


def seat_label(seat: int, me: int) -> str:
    name = pictures.seat_name(seat, me)
    rel = (seat - me) % 4
    if rel == 0:
        return _("%(seat)s (you)") % {"seat": name}
    if rel == 2:
        return _("%(seat)s (your partner)") % {"seat": name}
    return name


def team_label(team: int, me: int) -> str:
    return _("Your team") if team == me % 2 else _("The other team")


def option_label(option: Option, me: int = 0) -> str:
    if option.kind == "card":
        return pictures.card_label(option.data)
    if option.kind == "action":
        return action_label(option.data)
    if option.kind == "seat":
        return seat_label(int(option.data), me)
    if option.kind == "suit":
        return pictures.suit_name(option.data)
    if option.kind == "team":
        return team_label(int(option.data), me)
    if option.kind == "kind":
        return cp_words.result_choice(option.data)
    if option.kind == "yesno":
        return _("Yes") if option.data == "yes" else _("No")
    if option.kind == "play":
        # Notation is digits and slashes in every language, but for "bar" and "off".
        # Left-to-right marks keep "bar/22" in notation order when "bar" is in Urdu letters
        # (otherwise the bidi algorithm turns the following digits into an Arabic run).
        lrm = "\u200e"
        return option.data.replace("bar", lrm + _("bar") + lrm).replace("off", lrm + _("off") + lrm)
    return option.data  # numbers read the same in every language
