"""What a finished hand and a finished match report (``Hand.result``, ``Match.result``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HandResult:
    """A finished hand. Teams are 0 (seats 0 and 2) and 1 (seats 1 and 3).

    ``kind`` is one of the kinds its variant declares (``Rules.kinds``): "win", "kot",
    "gone_kot", "court", "baawan", "biyasi", "mendikot", "made", "set" or "redeal"; a
    redeal has no winner and no points."""

    kind: str
    winner: int | None
    tricks: tuple[int, int]  # Double Sar: tricks collected in piles
    points: tuple[int, int]
    caller: int | None = None
    tens: tuple[int, int] | None = None  # Mendikot: tens captured per team
    contract: tuple[int, int] | None = None  # Hukum bidding: (tricks bid, bidder seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "caller": self.caller,
            "tens": list(self.tens) if self.tens else None,
            "contract": list(self.contract) if self.contract else None,
        }


@dataclass(frozen=True)
class MatchResult:
    """A finished match: the winning team, the final scores and how they were measured
    (``measure`` "points", "difference" or "hands" against ``target``)."""

    winner: int
    scores: tuple[int, int]
    measure: str
    target: int
    hands_played: int  # redeals included

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "measure": self.measure,
            "target": self.target,
            "hands_played": self.hands_played,
        }
