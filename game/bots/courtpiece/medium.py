"""The ``medium`` Court Piece bot: the rule-based bot (:mod:`.rulebased`) with its leads
corrected, as duplicate play against it showed them (issue #28, docs/PERFORMANCE.md):

* **keep stoppers**: early in the hand (the first :data:`EARLY_TRICKS` tricks), a side ace
  or other boss from a doubleton (A-5) is not cashed while the opponents may still hold
  trumps: it stops the suit later, and cashed now it often only sets up their king;
* **draw trumps**: a lone master trump leads out the one trump still out (the
  rule-based bot wanted two trumps with the top one), so the side winners are safe, and
  four trumps or more draw while an opponent may still hold one;
* **ruff to take the hand**: void in the led suit with an opponent winning, ruff when this
  trick gives the team its goal (7 tricks, CP-RUNG-2; a Hukum contract, CP-HK-6) or the
  opponent's card is the suit's boss (partner cannot beat it by following), rather than
  discarding "second hand low";
* **the endgame by search** (the medium level, :mod:`.endgame`): from 8 cards in hand,
  its card is checked against a few deals sampled from its view and solved double-dummy
  (as ``hard`` does with many more, from the first trick).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.engine.courtpiece.cards import SUIT_MASK

from . import rulebased
from .rulebased import Play

EARLY_TRICKS = 4
# Draw trumps holding this many while an opponent may hold one (today's bot wanted the top
# trump and two, or more than are out): +0.011 [-0.009, +0.031] alone (Rung, 271 deals).
DRAW_WITH = 4
TARGET = 7


class MediumPlay(Play):
    """The rule-based play with the leads corrected (see the module docstring)."""

    def stopper(self, card: int) -> bool:
        """A boss in a side suit held as a doubleton, not part of a top sequence."""
        suit = card // 13
        mine = self.hand & SUIT_MASK[suit]
        if suit == self.my_trump or mine.bit_count() != 2:
            return False
        low = min(c for c in range(suit * 13, suit * 13 + 13) if mine >> c & 1)
        return not self.is_boss(low)

    def lead(self) -> int:
        early = int(self.hv.get("trick_count") or 0) < EARLY_TRICKS
        if early and self.trump >= 0 and self.unseen_trumps() > 0 and not self.piles:
            keep = [c for c in self.plays() if self.is_boss(c) and self.stopper(c)]
            if keep and len(keep) < len(self.plays()):
                # Decide as if the stoppers were not ours to lead (they stay in hand).
                self.legal = [a for a in self.legal if not _is_play_of(a, keep)]
        return super().lead()

    def draw_trumps(self, trumps: Sequence[int]) -> bool:
        if super().draw_trumps(trumps):
            return True
        if self.piles:
            return False
        opponents = ((self.seat + 1) % 4, (self.seat + 3) % 4)
        if all(self.void(s, self.trump) for s in opponents):
            return False
        if self.unseen_trumps() == 1 and self.is_boss(max(trumps)):
            return True
        return len(trumps) >= DRAW_WITH

    def follow(self) -> int:
        card = self.ruff_to_take()
        return card if card >= 0 else super().follow()

    def goal_reached_by_one_more(self) -> bool:
        taken = self.hv.get("tricks_taken") or [0, 0]
        ours, theirs = int(taken[self.seat % 2]), int(taken[1 - self.seat % 2])
        contract = self.hv.get("contract")
        if contract:
            number, bidder = int(contract[0]), int(contract[1])
            if bidder % 2 == self.seat % 2:
                return ours + 1 >= number
            return theirs + 13 - int(self.hv.get("trick_count") or 0) - 1 < number
        return ours + 1 >= TARGET

    def ruff_to_take(self) -> int:
        """The trump to ruff the opponents' winner with, or -1 (see the docstring)."""
        if self.trump < 0 or self.piles or self.tens_game or not self.trick:
            return -1
        options = self.plays()
        if any(c // 13 == self.led for c in options) or self.led == self.trump:
            return -1
        who, best, by_trump = self.winner(self.trick)
        if self.friend(who):
            return -1
        ruffs = [
            c for c in options
            if c // 13 == self.trump and self.winner([*self.trick, (self.seat, c)])[0] == self.seat
        ]
        if not ruffs:
            return -1
        sure = [c for c in ruffs if self.holds(c)]
        if not by_trump and (self.goal_reached_by_one_more() or self.is_boss(best)):
            return min(sure or ruffs)
        return -1


def _is_play_of(action: str, cards: Sequence[int]) -> bool:
    from game.engine.courtpiece.cards import CARD_STR

    return action.startswith("play:") and action[5:] in {CARD_STR[c] for c in cards}


def choose(view: Mapping[str, Any]) -> str:
    """The medium bot's rules for the view (see :func:`.rulebased.choose`); the medium
    level adds an endgame search to them (:mod:`.endgame`)."""
    return rulebased.choose(view, MediumPlay)
