"""The rule-based Court Piece bot. It reads only ``cp.Match.view(seat)``."""

from __future__ import annotations

from typing import Any


def choose(view: dict[str, Any]) -> str:
    """An action for the seat whose view this is (a Match view or a Hand view)."""
    hand = view.get("hand", view)
    legal = hand["legal_actions"]
    if not legal:
        raise ValueError("the bot was asked to move when it is not its turn")
    return str(legal[0])
