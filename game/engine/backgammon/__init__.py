"""Backgammon (the BG- rules of docs/RULES.md): positions, legal plays, games, matches.

``Game`` and ``Match`` speak the one protocol of ``game/engine/protocol.py``; the README's
"Backgammon engine" section describes the whole surface::

    from game.engine import backgammon as bg
    pos = bg.Position.start()
    plays = bg.legal_plays(pos, (5, 3))
    after = bg.apply(pos, "8/3 6/3")
"""

from game.engine.backgammon.game import Game, Match, MatchResult, Result, Rules
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
    "MatchResult",
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
