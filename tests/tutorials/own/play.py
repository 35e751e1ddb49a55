"""A finished Court Piece hand in which seat 0 (the person) played badly, for the tests
of "Learn from your mistakes" (tutorials.mistakes): seat 0 plays, while it has not yet
made a clear mistake, the card the knowable verdict finds worst from its own view; the
bots play the rest through the table's clock."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from game.courtpiece import knowable
from game.models import Table
from game.tables import access, lifecycle
from tests.playing import play_out


def worst_card(hand: Any, seat: int, legal: list[str]) -> tuple[str, float]:
    """The legal card the knowable verdict rates lowest, and what it lost."""
    judged = [knowable.verdict(hand, seat, card) for card in legal]
    scored = [(j["played"], j["loss"], c) for j, c in zip(judged, legal, strict=True) if j]
    if not scored:
        return legal[0], 0.0
    _played, loss, card = min(scored)
    return card, loss


def _worst_until_a_mistake(
    rng: random.Random, losses: dict[str, float]
) -> Callable[[Any, list[str]], str]:
    """Seat 0's chooser: the worst card it can see (its loss kept in ``losses``) until one
    lost a trick or more, then random legal actions."""

    def choose(match: Any, legal: list[str]) -> str:
        cards = [a[5:] for a in legal if a.startswith("play:")]
        if cards and max(losses.values(), default=0.0) < 1:
            card, losses[card] = worst_card(match.hand, 0, cards)
            return f"play:{card}"
        return rng.choice(legal)

    return choose


def finished_badly(owner: access.Owner, variant: str = "rung") -> Table:
    """A table whose first hand is over, seat 0 having lost ≥ 1 trick by a knowable
    mistake (a few deals are tried until one gives the chance)."""
    for _attempt in range(6):
        table = lifecycle.create_table(
            game="courtpiece", owner=owner, bots=[1, 2, 3], variant=variant
        )
        losses: dict[str, float] = {}  # each card seat 0 chose as its worst: what it lost
        choose = _worst_until_a_mistake(random.Random(table.pk), losses)
        match = play_out(table, owner, done=lambda m: bool(m.hands), choose=choose)
        if match is None:
            continue
        # Only the cards that were played count (a choice the clock beat was not).
        played = {action[5:] for seat, action in match.hands[0].history if seat == 0}
        if max((loss for card, loss in losses.items() if card in played), default=0.0) >= 1:
            return table
    raise AssertionError("no deal gave seat 0 a clear mistake to make")
