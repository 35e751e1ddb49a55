"""Court Piece rules engine (RULES.md Part 1). Public surface: ENGINE_CONTRACT.md.

    from game.engine import courtpiece as cp
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=3, seed="…")
    hand = hand.apply(hand.legal_actions()[0])
"""

from .analysis import find_reneges, trumps_out
from .hand import Hand, HandResult, IllegalAction, new_hand
from .match import Match
from .record import from_record, to_record
from .rules import VARIANTS, Rules, Variant

__all__ = [
    "VARIANTS",
    "Hand",
    "HandResult",
    "IllegalAction",
    "Match",
    "Rules",
    "Variant",
    "find_reneges",
    "from_record",
    "new_hand",
    "to_record",
    "trumps_out",
]
