"""The games a player has statistics and a rating for, as the games declare them.

Accounts knows no game: each game's registration with the live tables declares its rating
families (for Court Piece, one per variant; for Backgammon, one), and ``game``'s
``ready()`` passes them here (:func:`register`), in the order the games registered. Codes
are what a live table passes to :func:`accounts.services.record_result`.
"""

from __future__ import annotations

from collections.abc import Callable

_labels: dict[str, Callable[[], str]] = {}


def register(code: str, label: Callable[[], str]) -> None:
    """A game's rating family ``code``, and how to name it in the active language."""
    _labels.setdefault(code, label)


def game_codes() -> frozenset[str]:
    return frozenset(_labels)


def game_choices() -> list[tuple[str, str]]:
    """``(code, label)`` of every game with statistics, labels in the active language."""
    return [(code, label()) for code, label in _labels.items()]


def game_label(code: str) -> str:
    return _labels[code]()
