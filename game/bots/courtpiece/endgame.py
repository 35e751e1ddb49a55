"""The medium level: the medium bot's rules (:mod:`.medium`) with a small endgame search.

From :data:`SEARCH_FROM` cards in hand, where the play is plain trick-taking
(:func:`.hard.searchable`), the rules' card is checked against :data:`SEARCH_DEALS` deals
sampled from the view and solved double-dummy (DDS takes under a millisecond a deal
there): the card that scores best by hard's measure (the goal, then tricks) is played
when it beats the rules' card by more than :data:`SEARCH_SWITCH`. Deterministic (the
sampling is seeded from the view); reads only the view.

Duplicate Rung deals 2000-2299 against today's bot: rules only 0.502, searching from 5
cards 0.539, from 8 cards 0.542, from 8 with medium.DRAW_WITH 0.552 (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import hard, medium
from .sampling import hand_view

SEARCH_FROM = 8
SEARCH_DEALS = 8
SEARCH_SWITCH = 0.05
# Tricks above the goal count for nothing here (hard counts one): with the team on six, a
# ruff that takes the seventh is the hand, whatever the deals say of an eighth (the
# obvious-position test of the ruff that takes the hand).
SEARCH_ABOVE = 0


def choose(view: Mapping[str, Any]) -> str:
    """The medium level's action for the view."""
    action = medium.choose(view)
    if not action.startswith("play:") or SEARCH_FROM <= 0:
        return action
    hv = hand_view(view)
    if len(hv["hand"]) > SEARCH_FROM or not hard.searchable(hv):
        return action
    scores = hard.card_scores(view, SEARCH_DEALS, SEARCH_ABOVE)
    best = max(scores.values(), default=0.0)
    if scores.get(action[5:], -1.0) >= best - SEARCH_SWITCH - 1e-9:
        return action
    return "play:" + min(card for card, v in scores.items() if v >= best - 1e-9)
