"""A small seeded random stream for the bots (the pure packages import no ``random``:
no global random state, and the same seed gives the same numbers on every machine).

SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit counter passed through a mixing
function; plenty for drawing deals and beginner's slips."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
MASK64 = (1 << 64) - 1


class Stream:
    """Random numbers from a seed (an int)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def randrange(self, n: int) -> int:
        """An int in [0, n), unbiased (rejection of the top sliver), for any n >= 1."""
        if n <= 0:
            raise ValueError("empty range")
        bits = max(64, n.bit_length() + 64)
        words = (bits + 63) // 64
        top = 1 << (64 * words)
        limit = top - top % n
        while True:
            x = 0
            for _ in range(words):
                x = (x << 64) | self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """One of ``items``, with probability proportional to its (int) weight."""
        pick = self.randrange(sum(weights))
        for item, w in zip(items, weights, strict=True):
            if pick < w:
                return item
            pick -= w
        raise AssertionError("unreachable")
