"""Court Piece rules engine (docs/RULES.md Part 1). Public surface: docs/ENGINE_CONTRACT.md.

    from game.engine import courtpiece as cp
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, seed="…")
    hand = hand.apply(hand.legal_actions()[0])

A variant is a :class:`Variant` made of the pieces in :mod:`.behaviour` (see ``rules.py``);
its rule facts (``Rules.trump_known``, ``piles``, ``tens_count``, ``plain_trick_taking``,
``match_measure``) come from those pieces.
"""

from typing import TYPE_CHECKING

from ..protocol import GameState, IllegalAction
from . import behaviour
from .analysis import find_reneges, trumps_out
from .behaviour import TrumpKnown
from .hand import Hand, new_hand
from .match import Match
from .record import from_record, to_record
from .results import HandResult, MatchResult
from .rules import VARIANTS, Choose, Option, Rules, Variant, by_option

__all__ = [
    "VARIANTS",
    "Choose",
    "Hand",
    "HandResult",
    "IllegalAction",
    "Match",
    "MatchResult",
    "Option",
    "Rules",
    "TrumpKnown",
    "Variant",
    "behaviour",
    "by_option",
    "find_reneges",
    "from_record",
    "new_hand",
    "to_record",
    "trumps_out",
]

if TYPE_CHECKING:
    # mypy proves here that both states speak the one protocol (a runtime check would
    # only see the names).
    def _speak_the_protocol(hand: Hand, match: Match) -> tuple[GameState, GameState]:
        return hand, match
