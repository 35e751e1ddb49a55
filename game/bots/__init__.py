"""Bots: players that see only their seat's ``view`` (so they cannot cheat by construction).

Pure Python beside the engines, under the same purity check (no Django, no I/O, no clock,
no global random state). ``choose(game, view)`` is what the tables call.
"""

from __future__ import annotations

from typing import Any

from . import courtpiece


def choose(game: str, view: dict[str, Any]) -> str:
    """The action a bot plays from ``view`` (the seat's view, with its legal actions)."""
    if game == "courtpiece":
        return courtpiece.choose(view)
    raise ValueError(f"no bot for {game!r}")
