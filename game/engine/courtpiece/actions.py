"""The vocabulary of a hand: its phases and its canonical action strings.

Every action string is parsed once, at import, into ``(kind, argument)``: ``apply`` is
then a dict lookup, not parsing. The strings are docs/ENGINE_CONTRACT.md's (``call:S``,
``hide:9H``, ``bid:8H``, ``play:QH``, ``pass``, ...).
"""

from __future__ import annotations

from typing import Final

from ..protocol import IllegalAction
from .cards import CARD_STR, SUITS

CALL: Final = "call"  # trump is being decided on the first five cards (CP-4)
BID: Final = "bid"  # Hukum bidding (CP-HK-1)
PLAY: Final = "play"
OVER: Final = "over"

PLAY_ACTION: tuple[str, ...] = tuple(f"play:{c}" for c in CARD_STR)
HIDE_ACTION: tuple[str, ...] = tuple(f"hide:{c}" for c in CARD_STR)
CALL_ACTION: tuple[str, ...] = tuple(f"call:{s}" for s in SUITS)


def bid_code(tricks: int, suit: int) -> int:
    """The argument of ``bid:<tricks><suit>``."""
    return tricks * 4 + suit


BID_ACTION: dict[int, str] = {
    bid_code(n, s): f"bid:{n}{SUITS[s]}" for n in range(7, 14) for s in range(4)
}

# kind -> argument: a card for play/hide, a suit for call, tricks * 4 + suit for bid.
PARSE: dict[str, tuple[str, int]] = {
    **{k: (k, 0) for k in ("redeal", "thirteenth", "pass", "claim", "ask", "reveal", "timeout")},
    **{a: ("play", c) for c, a in enumerate(PLAY_ACTION)},
    **{a: ("hide", c) for c, a in enumerate(HIDE_ACTION)},
    **{a: ("call", s) for s, a in enumerate(CALL_ACTION)},
    **{a: ("bid", code) for code, a in BID_ACTION.items()},
}


def parse(text: str) -> tuple[str, int]:
    """``(kind, argument)`` of an action string, or IllegalAction saying what is wrong."""
    parsed = PARSE.get(text)
    if parsed is not None:
        return parsed
    kind, _, arg = text.partition(":")
    if kind in ("play", "hide"):
        raise IllegalAction(f"unknown card {arg!r}")
    if kind == "call":
        raise IllegalAction(f"unknown suit {arg!r}: use S, H, D or C")
    if kind == "bid":
        raise IllegalAction(
            f"malformed bid {arg!r}: a bid is 7..13 tricks and a suit, e.g. 'bid:8H'"
        )
    raise IllegalAction(f"unknown action {text!r}")
