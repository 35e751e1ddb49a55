"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with suits S H D C = 0..3 and ranks 2..A = 0..12, so within a
suit a larger number is a higher card. A set of cards is an int with bit ``card`` set.
Bitmasks keep legal-move generation to a few integer operations, which is what lets bots
search and the benchmark beat a C++ engine driven from Python.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = "23456789TJQKA"  # index = rank value, low to high

CARD_STR: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
CARD_INDEX: dict[str, int] = {s: i for i, s in enumerate(CARD_STR)}
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK = (1 << 52) - 1
TENS_MASK = sum(1 << (s * 13 + RANKS.index("T")) for s in range(4))
ACE_RANK = 12
TEN_RANK = RANKS.index("T")


def card_index(text: str) -> int:
    """Parse ``"QH"`` (case-insensitive, ``10`` accepted for ``T``) or raise ValueError."""
    key = text.strip().upper().replace("10", "T")
    try:
        return CARD_INDEX[key]
    except KeyError:
        raise ValueError(f"unknown card {text!r}") from None


def display_order(mask: int) -> list[str]:
    """Cards as a player sorts them: by suit S H D C, high to low within a suit."""
    out: list[str] = []
    for s in range(4):
        m = mask & SUIT_MASK[s]
        suit_cards = []
        while m:
            low = m & -m
            suit_cards.append(CARD_STR[low.bit_length() - 1])
            m ^= low
        out.extend(reversed(suit_cards))
    return out
