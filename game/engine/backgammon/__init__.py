"""Backgammon (RULES.md Part 2): positions, legal plays, games and matches.

The public surface is the one in ``shared/ENGINE_CONTRACT.md``::

    from game.engine import backgammon as bg
    pos = bg.Position.start()
    plays = bg.legal_plays(pos, (5, 3))
    after = bg.apply(pos, "8/3 6/3")
"""

from game.engine.backgammon.game import Game, Match, Result, Rules
from game.engine.backgammon.matchid import MatchState
from game.engine.backgammon.position import (
    IllegalMove,
    Play,
    Position,
    apply,
    format_moves,
    legal_plays,
    parse_notation,
)

__all__ = [
    "Game",
    "IllegalMove",
    "Match",
    "MatchState",
    "Play",
    "Position",
    "Result",
    "Rules",
    "apply",
    "format_moves",
    "legal_plays",
    "parse_notation",
]
