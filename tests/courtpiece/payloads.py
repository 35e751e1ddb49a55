"""State payloads built from the real engine, shaped like docs/TABLE_PROTOCOL.md's "state" frame."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from game.engine import courtpiece as cp

#: Every variant with its non-default options worth drawing too.
RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("rung", {}),
    ("rung", {"court": "first7", "redeal": False}),
    ("single_sar", {}),
    ("hidden", {}),
    ("double_sar", {"ace_rule": True}),
    ("be_ranga", {}),
    ("mendikot", {}),
    ("hukum", {}),
    ("hukum", {"bidding": False}),
]


def seats_info() -> list[dict[str, Any]]:
    return [{"seat": 0, "player": "asma", "bot": False, "connected": True}] + [
        {"seat": s, "player": None, "bot": True, "connected": s != 3} for s in (1, 2, 3)
    ]


def payload(m: cp.Match, seat: int | None, version: int = 0) -> dict[str, Any]:
    """What the server sends `seat` (None: a spectator) for match state `m`."""
    legal = m.legal_actions() if seat is not None and m.to_move == seat else []
    frame: dict[str, Any] = {
        "type": "state",
        "version": version,
        "seat": seat,
        "to_move": m.to_move,
        "legal": [a for a in legal if a != "timeout"],
        "deadline": "2026-12-01T10:00:20Z",
        "view": m.view(seat),
        "seats": seats_info(),
        "table": {"id": 7, "variant": m.rules.variant},
    }
    if m.hands and m.hand.phase != "over":
        frame["last_hand"] = m.hands[-1].view(seat)
    return frame


def walk(variant: str, options: dict[str, Any], seed: str) -> Iterator[tuple[cp.Match, int]]:
    """Every state of one random match's first hand and the start of the second."""
    rng = random.Random(seed)
    m = cp.Match(cp.Rules(variant=variant, **options), seed=seed, chain=50)
    version = 0
    yield m, version
    while len(m.hands) < 1 or (m.hand.history == [] and not m.is_over):
        m = m.apply(rng.choice([a for a in m.legal_actions() if a != "timeout"]))
        version += 1
        yield m, version
        if m.is_over:
            return
