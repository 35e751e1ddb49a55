"""Positions for the board and planner tests: random ones (hypothesis) and helpers."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from game.engine import backgammon as bg


def pos(mine: dict[int, int], theirs: dict[int, int] | None = None) -> bg.Position:
    """From the roller's side; ``theirs`` on the ROLLER's point numbers (25 = their bar)."""
    their_own = {25 if p == 25 else 25 - p: n for p, n in (theirs or {}).items()}
    return bg.Position.from_points(mine, their_own)


def _side(rnd: random.Random, lo: int, hi: int, taken: set[int], bar_chance: float) -> dict:
    """15 checkers on the roller's points lo..hi (some on the bar, some off)."""
    out: dict[int, int] = {}
    left = 15 - rnd.randint(0, 8) if rnd.random() < 0.3 else 15
    while left:
        if rnd.random() < bar_chance:
            p = 25
        else:
            p = rnd.randint(lo, hi)
            if p in taken:
                continue
        n = min(left, rnd.randint(1, 4))
        out[p] = out.get(p, 0) + n
        left -= n
    return out


def random_position(rnd: random.Random) -> bg.Position:
    """Races, bear-offs, bar fights, primes: the spread a planner must survive."""
    kind = rnd.random()
    if kind < 0.25:  # a position from a random game
        p = bg.Position.start() if rnd.random() < 0.7 else bg.Position.nackgammon()
        for _ in range(rnd.randint(0, 60)):
            plays = bg.legal_plays(p, (rnd.randint(1, 6), rnd.randint(1, 6)))
            p = rnd.choice(plays).after if plays else p.swapped()
            if 15 in p.off():
                return bg.Position.start()
        return p
    home = kind < 0.5  # bearing off, possibly against checkers still back
    mine = _side(rnd, 1, 6 if home else 24, set(), 0.0 if home else 0.08)
    mine_pts = {p for p in mine if p != 25}
    theirs_on_mine = _side(rnd, 1, 24, mine_pts, 0.05)
    return pos(mine, theirs_on_mine)


positions = st.builds(random_position, st.randoms(use_true_random=False))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
