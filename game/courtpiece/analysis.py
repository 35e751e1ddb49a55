"""Court Piece's analysis hooks (``COURTPIECE.analyse`` and ``analysis_words``): a finished
hand judged double dummy (game.courtpiece.doubledummy), and the words of a hand that
cannot be, in the asker's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from game.courtpiece import doubledummy


def analyse(finished: Sequence[Any], counter: int) -> dict[str, Any]:
    return doubledummy.analyse(finished[counter])


def reasons() -> dict[str, str]:
    """Why a hand is not judged with every hand visible, in a player's words."""
    return {
        doubledummy.TRUMP_HIDDEN: _(
            "Trump is hidden until it is shown, so nobody at the table knew it from the "
            "first card: judging each card with every hand seen would not be fair."
        ),
        doubledummy.TRUMP_IN_PLAY: _(
            "Trump is fixed only during the play, by the first player who cannot follow "
            "suit, so no card can be judged with one trump from the start."
        ),
        doubledummy.PILES: _(
            "Tricks pile up in the middle until someone takes them, so the count of tricks "
            "alone does not say what a card was worth."
        ),
        doubledummy.TENS: _(
            "The tens decide this hand, not the number of tricks, so the count of tricks "
            "alone does not say what a card was worth."
        ),
        doubledummy.NO_PLAY: _("No card was played in this hand: it was dealt again."),
        "no_analysis": _("This game has no analysis yet."),
    }


def analysis_words(data: dict[str, Any]) -> dict[str, Any]:
    """The protocol's answer: an unsupported hand says why in the active language."""
    out = dict(data)
    why = out.pop("why", None)
    if out.get("kind") == "unsupported":
        out["reason"] = reasons().get(str(why), reasons()["no_analysis"])
    return out
