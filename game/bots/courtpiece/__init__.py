"""Court Piece bots at three levels (docs/ENGINE_CONTRACT.md, "Bots").

``choose(view, level)`` reads only the seat's view, so no level can cheat; the same view and
level always give the same action (the levels that sample seed their sampling from the
view). Every level plays every variant.

* ``easy`` (:mod:`.easy`): a beginner: the medium bot's game with mistakes a beginner
  makes (a random-looking legal card now and then, drawn from a seed taken from the view);
* ``medium`` (:mod:`.medium`): the rule-based bot (:mod:`.rulebased`) with its leads
  corrected: it keeps stoppers, draws trumps with four or with a lone master trump, and
  ruffs the opponents' winner when that takes the hand; from 8 cards in hand it checks
  its card against a few deals solved double-dummy (:mod:`.endgame`);
* ``hard`` (:mod:`.hard`): search from the first trick over deals sampled consistently
  with the view (:mod:`.sampling`), each card scored against the hand's goal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import easy, endgame, hard
from .rulebased import unseen_trumps

LEVELS = ("easy", "medium", "hard")

_CHOOSERS = {"easy": easy.choose, "medium": endgame.choose, "hard": hard.choose}

__all__ = ["LEVELS", "choose", "unseen_trumps"]


def choose(view: Mapping[str, Any], level: str = "medium") -> str:
    """One of the view's legal actions, for the seat whose view this is (a Hand or a Match
    view), at ``level`` (one of :data:`LEVELS`). Unknown level: ValueError."""
    try:
        chooser = _CHOOSERS[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown bot level {level!r}; the levels are {LEVELS}") from None
    return chooser(view)
