"""Backgammon state payloads from the real engine, shaped like docs/TABLE_PROTOCOL.md's "state"
frame (what ``frames.state_payload`` sends a seat): the view is ``state.view(seat)``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from game.engine import backgammon as bg


def seats_info() -> list[dict[str, Any]]:
    return [
        {"seat": 0, "player": "asma", "bot": False, "connected": True},
        {"seat": 1, "player": None, "bot": True, "connected": True},
    ]


def payload(state: Any, seat: int | None, version: int = 0) -> dict[str, Any]:
    legal = state.legal_actions() if seat is not None and state.to_move == seat else []
    return {
        "type": "state",
        "version": version,
        "seat": seat,
        "to_move": state.to_move,
        "legal": legal,
        "deadline": "2026-12-01T10:00:20Z",
        "view": state.view(seat),
        "seats": seats_info(),
        "table": {"id": 7, "game": "backgammon", "variant": "backgammon", "status": "playing"},
    }


def walk(state: Any, seed: str, doubles: bool = True) -> Iterator[Any]:
    """Every state of one random game (or match), doubling and resigning now and then so
    every phase is seen."""
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        legal = state.legal_actions()
        if doubles and "double" in legal and rng.random() < 0.3:
            action = "double"
        elif any(a in legal for a in ("take", "accept")) and rng.random() < 0.8:
            action = "take" if "take" in legal else "reject" if rng.random() < 0.5 else "accept"
        elif "roll" in legal:
            action = "resign:1" if rng.random() < 0.02 else "roll"
        else:
            moves = [a for a in legal if a.startswith("move:")] or legal
            action = rng.choice(moves)
        state = state.apply(action)
        yield state


def money(seed: str = "money", **rules: Any) -> bg.Game:
    return bg.Game(bg.Rules(**rules), seed=seed, client_seeds=["asma", "bot"])


def match(length: int = 3, seed: str = "match") -> bg.Match:
    return bg.Match(length, bg.Rules(), seed=seed, client_seeds=["asma", "bot"], chain=2 * length)
