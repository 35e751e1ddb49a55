"""Shared by the backgammon game tests."""

from __future__ import annotations

import random
from typing import TypeVar

from game.engine import backgammon as bg

State = TypeVar("State", bg.Game, bg.Match)


def pos(mine: dict[int, int], theirs: dict[int, int]) -> bg.Position:
    """Roller's side; ``theirs`` on the roller's point numbers (25 = their bar)."""
    return bg.Position.from_points(mine, {25 if p == 25 else 25 - p: n for p, n in theirs.items()})


def random_action(thing: bg.Game | bg.Match, rng: random.Random, double_rate: float) -> str:
    """A random player's action: doubles sometimes, never resigns, takes or drops at
    random: enough to reach every cube state."""
    acts = thing.legal_actions()
    assert acts, "legal actions must not be empty while someone is to move"
    choices = [a for a in acts if not a.startswith("resign")]
    if "double" in choices and rng.random() > double_rate:
        choices.remove("double")
    return rng.choice(choices)


def play_randomly(thing: State, rng: random.Random, double_rate: float = 0.3) -> State:
    while not thing.is_over:
        thing = thing.apply(random_action(thing, rng, double_rate))
    return thing
