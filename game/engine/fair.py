"""Provably fair deals and dice: a commit–reveal recipe anyone can re-run.

Before play the server picks a secret ``server_seed`` and publishes
``commitment(server_seed)`` = SHA-256 hex of the seed. Players may add their own
``client_seeds``. After the hand or game the server seed is revealed; anyone checks the
commitment and recomputes the cards or the dice with the recipe below (standard library
only, so a player can copy it):

    import hashlib, hmac

    def stream(server_seed, client_seeds, n, purpose):
        key = server_seed.encode()
        msg = f"{purpose}:{n}:" + ":".join(client_seeds)
        counter = 0
        while True:
            block = hmac.new(key, f"{msg}:{counter}".encode(), hashlib.sha256).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(block[i:i + 4], "big")
            counter += 1

    def below(ints, bound):            # unbiased: reject the top sliver of 2**32
        limit = (2**32 // bound) * bound
        for x in ints:
            if x < limit:
                return x % bound

    def deal(server_seed, client_seeds, n):
        deck = [r + s for s in "SHDC" for r in "AKQJT98765432"]
        ints = stream(server_seed, client_seeds, n, "deal")
        for i in range(51, 0, -1):     # Fisher–Yates
            j = below(ints, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return [deck[s::4] for s in range(4)]   # one card to each seat in turn, seat 0 first

    def dice(server_seed, client_seeds, n):
        ints = stream(server_seed, client_seeds, n, "dice")
        return below(ints, 6) + 1, below(ints, 6) + 1

``n`` is the counter: the hand number in a match, the roll number in a game. The deal's
seat lists are in the order the cards were received, so ``deal[s][:5]`` are seat s's
first-round cards and ``deal[s][12]`` its thirteenth card (RULES.md CP-4).

**A hash chain, so every hand can be checked the moment it ends.** A live table does not
wait for the end of a match to reveal its seed: it draws one secret ``top`` and derives
``s_length = top`` and ``s_k = sha256_hex(s_{k+1})``. It publishes ``commitment(s_1)``
before the first deal; hand (or game) k is dealt from server seed ``s_k`` and ``s_k`` is
revealed when that hand ends. A player checks ``sha256_hex(s_1) == commitment`` and then
``sha256_hex(s_k) == s_{k-1}``; knowing ``s_1 .. s_k`` tells nothing about ``s_{k+1}``
(that would need a SHA-256 preimage), so no card not yet dealt can be predicted.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

SUITS = "SHDC"
RANKS = "AKQJT98765432"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def commitment(server_seed: str) -> str:
    """The SHA-256 hex digest published before play."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def verify(server_seed: str, committed: str) -> bool:
    return hmac.compare_digest(commitment(server_seed), committed)


def chain(top: str, length: int) -> list[str]:
    """The server seeds ``[s_1, …, s_length]`` of a hash chain: ``s_length = top`` and each
    seed is the commitment of the next, so ``commitment(s_1)`` is published first and the
    revealed ``s_k`` is checked against ``s_{k-1}``."""
    if length < 1:
        raise ValueError("a chain has at least one seed")
    seeds = [top]
    for _ in range(length - 1):
        seeds.append(commitment(seeds[-1]))
    seeds.reverse()
    return seeds


def verify_chain(committed: str, revealed: Sequence[str]) -> bool:
    """Whether the revealed seeds ``s_1 .. s_k`` hang from ``committed`` link by link."""
    expected = committed
    for seed in revealed:
        if not verify(seed, expected):
            return False
        expected = seed
    return True


def _stream(
    server_seed: str, client_seeds: Sequence[str], n: int, purpose: str
) -> Iterator[int]:
    key = server_seed.encode()
    msg = f"{purpose}:{n}:" + ":".join(client_seeds)
    counter = 0
    while True:
        block = hmac.new(key, f"{msg}:{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def _below(ints: Iterator[int], bound: int) -> int:
    limit = (2**32 // bound) * bound
    for x in ints:
        if x < limit:
            return x % bound
    raise AssertionError("unreachable: the stream is endless")


def shuffled_deck(
    server_seed: str, client_seeds: Sequence[str], n: int, purpose: str = "deal"
) -> list[str]:
    deck = list(DECK)
    ints = _stream(server_seed, client_seeds, n, purpose)
    for i in range(51, 0, -1):
        j = _below(ints, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(server_seed: str, client_seeds: Sequence[str], n: int) -> list[list[str]]:
    """Four lists of 13 cards, in the order each seat received them."""
    deck = shuffled_deck(server_seed, client_seeds, n)
    return [deck[s::4] for s in range(4)]


def dice(server_seed: str, client_seeds: Sequence[str], n: int) -> tuple[int, int]:
    """The n-th roll of two dice."""
    ints = _stream(server_seed, client_seeds, n, "dice")
    return _below(ints, 6) + 1, _below(ints, 6) + 1


def draw(server_seed: str, client_seeds: Sequence[str], n: int, count: int) -> list[str]:
    """``count`` distinct cards from a fresh deck: round ``n`` of the toss (CP-11).

    The same recipe as ``deal`` with the purpose ``"toss"`` in place of ``"deal"``."""
    return shuffled_deck(server_seed, client_seeds, n, "toss")[:count]
