"""Court Piece rules engine (RULES.md Part 1). Public surface: ENGINE_CONTRACT.md."""

from .rules import VARIANTS, Rules

__all__ = ["VARIANTS", "Rules"]
