"""Words for what the engines emit (cards, actions, seats), in the active language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tutorials import pictures
from tutorials.steps.base import Option


def action_label(action: str) -> str:
    kind, _sep, arg = action.partition(":")
    if kind == "call":
        return _("Call %(suit)s") % {"suit": pictures.suit_name(arg)}
    if kind == "play":
        return _("Play the %(card)s") % {"card": pictures.card_label(arg)}
    if kind == "hide":
        return _("Hide the %(card)s face down") % {"card": pictures.card_label(arg)}
    if kind == "bid":
        return _("Bid %(tricks)s %(suit)s") % {
            "tricks": arg[:-1],
            "suit": pictures.suit_name(arg[-1]),
        }
    words = {
        "thirteenth": _("Trump from my thirteenth card"),
        "redeal": _("Ask for a new deal"),
        "pass": _("Pass"),
        "ask": _("Ask to see the trump"),
        "reveal": _("Turn the hidden card up"),
        "claim": _("Claim all thirteen tricks"),
        "take": _("Take"),
        "drop": _("Drop"),
        "double": _("Double"),
        "timeout": _("Time runs out"),
    }
    return words.get(kind, action)


def bid_label(bid: str) -> str:
    """A bid as the table hears it ("8 Hearts", "Pass"), for the list of bids so far."""
    if bid == "pass":
        return _("Pass")
    return _("%(tricks)s %(suit)s") % {"tricks": bid[:-1], "suit": pictures.suit_name(bid[-1])}


def result_kind_label(kind: str) -> str:
    words = {
        "win": _("An ordinary win"),
        "kot": _("Kot"),
        "gone_kot": _("Gone kot"),
        "court": _("Court (all thirteen)"),
        "baawan": _("Baawan (fifty-two)"),
        "biyasi": _("Biyasi (eighty-two)"),
        "mendikot": _("Mendikot (all four tens)"),
        "made": _("Bid made"),
        "set": _("Bid failed"),
        "redeal": _("Redeal"),
    }
    return words.get(kind, kind)


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
        return result_kind_label(option.data)
    if option.kind == "yesno":
        return _("Yes") if option.data == "yes" else _("No")
    if option.kind == "play":
        # Notation is digits and slashes in every language, but for "bar" and "off".
        # Left-to-right marks keep "bar/22" in notation order when "bar" is in Urdu letters
        # (otherwise the bidi algorithm turns the following digits into an Arabic run).
        lrm = "\u200e"
        return option.data.replace("bar", lrm + _("bar") + lrm).replace("off", lrm + _("off") + lrm)
    return option.data  # numbers read the same in every language
