"""Every Court Piece word the pages say, in the active language: suits and cards, the
actions a player may take, how a hand ended and what it scores, the match's goal.

The games' own words (rung, hakim, kot, baawan) are the table's, never bridge jargon;
in Urdu and Hindi they are the words players use (docs/RULES.md CP-12).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.engine import courtpiece as cp
from guide import figures


def suit_name(suit: str) -> str:
    """The suit's name: the guide's own (its figures name the suits too)."""
    return figures.suit_names()[suit]


def card_name(code: str) -> str:
    """ "QH" -> "Queen of Hearts", in the active language.

    One whole phrase per rank, not "%(rank)s of %(suit)s": in Urdu and Hindi the
    possessive agrees with the rank's gender (Urdu "حُکم کی بیگم" but "حُکم کا اِکّا"), so
    each rank's translator chooses it."""
    names = {
        "A": _("Ace of %(suit)s"), "K": _("King of %(suit)s"), "Q": _("Queen of %(suit)s"),
        "J": _("Jack of %(suit)s"), "T": _("Ten of %(suit)s"), "9": _("Nine of %(suit)s"),
        "8": _("Eight of %(suit)s"), "7": _("Seven of %(suit)s"), "6": _("Six of %(suit)s"),
        "5": _("Five of %(suit)s"), "4": _("Four of %(suit)s"), "3": _("Three of %(suit)s"),
        "2": _("Two of %(suit)s"),
    }  # fmt: skip
    return names[code[0]] % {"suit": suit_name(code[1])}


def result_word(kind: str) -> str:
    """The game's own word for how a hand ended (CP result kinds)."""
    words = {
        "win": "",  # an ordinary win has no name of its own
        "kot": _("Kot"),
        "gone_kot": _("Gone kot"),
        "court": _("Court"),
        "baawan": _("Baawan"),
        "biyasi": _("Biyasi"),
        "mendikot": _("Mendikot"),
        "made": _("Contract made"),
        "set": _("Contract set"),
        "redeal": _("Redeal"),
    }
    return words.get(kind, kind)


def result_explained(kind: str) -> str:
    words = {
        "win": _("The hand is decided."),
        "kot": _("Every trick that counts, taken by one team."),
        "gone_kot": _("Kot by the team that did not choose trump."),
        "court": _("The caller's team took all thirteen tricks."),
        "baawan": _("The other team took all thirteen tricks: 52."),
        "biyasi": _("The hand was laid open and took every trick: 82."),
        "mendikot": _("All four tens captured."),
        "made": _("The bidders took the tricks they bid."),
        "set": _("The bidders fell short of their bid."),
        "redeal": _("The cards are dealt again."),
    }
    return words.get(kind, "")


def points_explained(variant: str, result: dict[str, Any]) -> str:
    """One plain sentence: what this result is worth and why, with the engine's own number
    (``result["points"]``) and the rule behind it (RULES CP-RUNG-3, CP-SS-5, CP-MK-1/2,
    CP-HK-6). Rung scores points; Hukum with bidding scores the contract; every other
    variant counts hands won."""
    kind = str(result.get("kind"))
    points = [int(p) for p in result.get("points") or [0, 0]]
    if kind == "redeal":
        return _("A redeal scores nothing: the cards are dealt again.")
    if kind in ("made", "set"):
        bid = int((result.get("contract") or [0])[0])
        n = next((p for p in points if p), 0)
        if kind == "made":
            return _(
                "The bidders took at least the %(bid)s tricks they bid, so they gain "
                "%(n)s points; the other team's score stays as it was."
            ) % {"bid": bid, "n": n}
        return _(
            "The bidders took fewer than the %(bid)s tricks they bid, so they lose %(n)s "
            "points (7 for a bid of 7, double the bid above 7); the other team's score "
            "stays as it was."
        ) % {"bid": bid, "n": abs(n)}
    winner = result.get("winner")
    n = points[int(winner)] if winner is not None else 0
    engine = cp.VARIANTS.get(variant)
    piles = bool(engine is not None and engine.piles)
    if engine is not None and engine.match_measure == "points":
        words = {
            "win": _("7 of the 13 tricks win the hand, and a win scores %(n)s points."),
            "court": _(
                "The team that chose trump took all 13 tricks (court): %(n)s points "
                "instead of 7."
            ),
            "baawan": _(
                "The team that did not choose trump took all 13 tricks (baawan): %(n)s "
                "points instead of 7."
            ),
            "biyasi": _(
                "The claim came true: all 13 tricks with the hand laid open (biyasi), "
                "%(n)s points."
            ),
        }
        return words[kind] % {"n": n} if kind in words else ""
    words = {
        "win": _("7 tricks win the hand; each hand won counts 1 towards the match."),
        "kot": _(
            "7 tricks in a row from the first (kot) win the hand: it counts 1 towards the "
            "match, and the kot is counted beside it."
        )
        if not piles
        else _(
            "One team collected 7 tricks while the other collected none (kot): the hand "
            "counts 1 towards the match, and the kot is counted beside it."
        ),
        "gone_kot": _(
            "The team that did not choose trump took the first 7 tricks in a row (gone "
            "kot): the hand counts 1 towards the match, and the kot is counted beside it."
        )
        if not piles
        else _(
            "The team that did not choose trump collected 7 tricks while the other "
            "collected none (gone kot): the hand counts 1 towards the match, and the kot "
            "is counted beside it."
        ),
        "mendikot": _(
            "All four tens (mendikot) win the hand: it counts 1 towards the match, and "
            "the mendikot is counted beside it."
        ),
    }
    if engine is not None and engine.tens_count and kind == "win":
        return _(
            "Three of the four tens win the hand (with two each, the team with more "
            "tricks): it counts 1 towards the match."
        )
    return words.get(kind, "")


def bid_label(bid: str) -> str:
    """ "9H" -> "9 Hearts"."""
    return _("%(count)s %(suit)s") % {"count": bid[:-1], "suit": suit_name(bid[-1])}


def action_label(action: str) -> str:
    verb, _sep, arg = action.partition(":")
    labels = {
        "thirteenth": _("Trump from my thirteenth card"),
        "redeal": _("Ask for a redeal"),
        "pass": _("Pass"),
        "claim": _("Claim every trick (open my hand)"),
        "ask": _("Ask to see the trump"),
        "reveal": _("Reveal the trump"),
    }
    if verb == "call":
        return suit_name(arg)
    if verb == "bid":
        return bid_label(arg)
    if verb in ("hide", "play"):
        return card_name(arg)
    return labels.get(verb, action)


def goal_text(match: dict[str, Any]) -> str:
    """The match target in one short sentence (the view's ``match`` block)."""
    measure = match.get("measure")
    target = match.get("target")
    if not target:
        return ""
    if measure == "points":
        return _("First to %(n)s points wins the match.") % {"n": target}
    if measure == "difference":
        return _("A team %(n)s points behind loses the match.") % {"n": target}
    return ngettext(
        "First to %(n)s hand wins the match.",
        "First to %(n)s hands wins the match.",
        target,
    ) % {"n": target}


def score_hint(match: dict[str, Any]) -> str:
    """How a hand adds to the match score, shortest form (RULES CP-RUNG-3, CP-SS-5,
    CP-HK-6), for the status bar beside the target."""
    measure = match.get("measure")
    if measure == "points":
        return _("A hand won scores 7 points; all 13 tricks score more.")
    if measure == "difference":
        return _("A bid made scores the bid; a bid missed loses double (7 for a bid of 7).")
    if measure == "hands":
        return _("Each hand won counts 1.")
    return ""


# --- the lessons' phrasings: an action as an answer to choose, a result as a name ------


def action_instruction(action: str) -> str:
    """An action as the lessons offer it to choose ("Call Hearts", "Play the Ace of
    Spades"), where the table's buttons (:func:`action_label`) name only the thing."""
    kind, _sep, arg = action.partition(":")
    if kind == "call":
        return _("Call %(suit)s") % {"suit": suit_name(arg)}
    if kind == "play":
        return _("Play the %(card)s") % {"card": card_name(arg)}
    if kind == "hide":
        return _("Hide the %(card)s face down") % {"card": card_name(arg)}
    if kind == "bid":
        return _("Bid %(tricks)s %(suit)s") % {"tricks": arg[:-1], "suit": suit_name(arg[-1])}
    words = {
        "thirteenth": _("Trump from my thirteenth card"),
        "redeal": _("Ask for a new deal"),
        "pass": _("Pass"),
        "ask": _("Ask to see the trump"),
        "reveal": _("Turn the hidden card up"),
        "claim": _("Claim all thirteen tricks"),
        "timeout": _("Time runs out"),
    }
    return words.get(kind, action)


def bid_heard(bid: str) -> str:
    """A bid as the table hears it ("8 Hearts", "Pass"), for the list of bids so far."""
    return _("Pass") if bid == "pass" else bid_label(bid)


def result_choice(kind: str) -> str:
    """A result kind as a lesson offers it to choose, with what it is worth."""
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
