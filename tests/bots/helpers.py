"""Shared drivers for the bot tests: play hands with a policy per seat, from views only."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

from game.bots import courtpiece as bot
from game.engine import courtpiece as cp

Policy = Callable[[dict[str, Any]], str]


def first_legal(view: dict[str, Any]) -> str:
    """The placeholder the bot replaced: always the first legal action."""
    hand = view["hand"] if isinstance(view.get("hand"), dict) else view
    return str(hand["legal_actions"][0])


def random_legal(rng: random.Random) -> Policy:
    def choose(view: dict[str, Any]) -> str:
        hand = view["hand"] if isinstance(view.get("hand"), dict) else view
        return str(rng.choice(hand["legal_actions"]))

    return choose


def option_sets(variant: str) -> Iterator[dict[str, Any]]:
    """Every combination of the variant's table options (cp.VARIANTS[...].options)."""
    spec = cp.VARIANTS[variant].options
    names = sorted(spec)
    for values in itertools.product(*(spec[n].choices for n in names)):
        yield dict(zip(names, values, strict=True))


def play_hand(
    rules: cp.Rules, seed: str, policies: list[Policy], dealer: int = 3
) -> tuple[cp.Hand, int]:
    """Play one hand, each seat choosing from its own view; returns the hand and how many
    decisions were made. Fails if any policy returns an illegal action."""
    hand = cp.new_hand(rules, dealer=dealer, seed=seed)
    decisions = 0
    while not hand.is_over:
        seat = hand.to_move
        view = hand.view(seat)
        action = policies[seat](view)
        assert action in view["legal_actions"], (action, view["legal_actions"])
        assert action != "timeout"
        hand = hand.apply(action, seat)
        decisions += 1
        assert decisions < 200, "hand did not end"
    return hand, decisions


def team_record(
    variant: str, n: int, policy: Policy, seed: str = "strength", **options: Any
) -> tuple[float, tuple[int, int]]:
    """``policy`` plays one team, random legal play the other, over ``n`` seeded hands.

    The dealer turns every hand and the team every four hands, so each team deals and
    calls first from every seat equally often. Returns (share of decided hands won,
    points for and against)."""
    rules = cp.Rules(variant, **options)
    won = lost = 0
    points = [0, 0]
    for i in range(n):
        team = (i // 4) % 2  # with dealer i % 4: (i % 2) would never let it call first
        other = random_legal(random.Random(i))
        seats = [policy if s % 2 == team else other for s in range(4)]
        hand, _ = play_hand(rules, f"{seed}-{i}", seats, dealer=i % 4)
        result = hand.result
        assert result is not None
        if result.kind == "redeal":
            continue
        if result.winner == team:
            won += 1
        else:
            lost += 1
        points[0] += result.points[team]
        points[1] += result.points[1 - team]
    return won / (won + lost), (points[0], points[1])


BOT: Policy = bot.choose
