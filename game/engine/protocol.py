"""The one protocol every game state speaks (``docs/ENGINE_CONTRACT.md``, "One protocol").

Tables, bots, lessons and replays drive ``courtpiece.Hand``, ``courtpiece.Match``,
``backgammon.Game`` and ``backgammon.Match`` through this surface only, so none of them
needs to know which game it holds. Every state is immutable: ``apply`` returns a new state
and leaves the old one as it was, or raises :class:`IllegalAction` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


class IllegalAction(ValueError):
    """An action the rules do not allow here. The message says why, in English.

    ``courtpiece.IllegalAction`` is this class and ``backgammon.IllegalMove`` a subclass,
    so a caller catches one error whatever the game.
    """


NOT_YOUR_TURN = "not your turn"


@runtime_checkable
class GameState(Protocol):
    """What a table, a bot or a lesson may ask of a game state."""

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or None when nobody is to move (over)."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> Any:
        """None until the game is over; then the game's result object (Court Piece:
        ``courtpiece.HandResult`` for a hand, ``courtpiece.MatchResult`` for a match)."""
        ...

    @property
    def history(self) -> Sequence[Any]:
        """Everything applied so far, oldest first, as ``(seat, action)`` pairs."""
        ...

    def legal_actions(self) -> list[str]:
        """The canonical action strings ``to_move`` may send now; empty when over."""
        ...

    def apply(self, action: str, seat: int | None = None) -> GameState:
        """A new state with ``action`` applied. With ``seat``, a seat that is not
        ``to_move`` raises ``IllegalAction("not your turn")``."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know (None: a spectator), JSON-serialisable."""
        ...

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(seat)`` for each of ``seats``, for a table sending every seat's frame.
        The views may share the parts every seat sees alike: read them, do not change
        them."""
        ...


def check_turn(to_move: int | None, seat: int | None) -> None:
    """The one "not your turn" check, shared by every state's ``apply``."""
    if seat is not None and seat != to_move:
        raise IllegalAction(NOT_YOUR_TURN)
