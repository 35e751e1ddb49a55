"""A finished Court Piece hand in which seat 0 (the person) played badly, for the tests
of "Learn from your mistakes" (tutorials.mistakes): seat 0 plays, while it has not yet
made a clear mistake, the card the knowable verdict finds worst from its own view; the
bots play the rest through the table's clock."""

from __future__ import annotations

import random
import time
from typing import Any

from game.courtpiece import knowable
from game.models import Table
from game.tables import access, due, lifecycle, moves, presence
from game.tables.errors import TableError
from game.tables.store import replay


def worst_card(hand: Any, seat: int, legal: list[str]) -> tuple[str, float]:
    """The legal card the knowable verdict rates lowest, and what it lost."""
    judged = [knowable.verdict(hand, seat, card) for card in legal]
    scored = [(j["played"], j["loss"], c) for j, c in zip(judged, legal, strict=True) if j]
    if not scored:
        return legal[0], 0.0
    _played, loss, card = min(scored)
    return card, loss


def finished_badly(owner: access.Owner, variant: str = "rung") -> Table:
    """A table whose first hand is over, seat 0 having lost ≥ 1 trick by a knowable
    mistake (a few deals are tried until one gives the chance)."""
    for _attempt in range(6):
        table = lifecycle.create_table(
            game="courtpiece", owner=owner, bots=[1, 2, 3], variant=variant
        )
        presence.seat_connected(table_id=table.pk, seat=0)
        rng = random.Random(table.pk)
        worst = 0.0
        give_up = time.monotonic() + 120  # a live site's bots move after their pause
        while time.monotonic() < give_up:
            table.refresh_from_db()
            match = replay.load(table)
            if match.hands:
                break
            if table.seats.get(number=match.to_move).bot:
                # Fired when due (or a live site's clock does it): a bot's pause may not be
                # over yet, so look again a moment later.
                if not due.fire(table.pk, table.version, Table.BOT):
                    time.sleep(0.02)
                continue
            legal = [a for a in match.legal_actions() if a not in ("timeout", "redeal", "claim")]
            cards = [a[5:] for a in legal if a.startswith("play:")]
            loss = 0.0
            if cards and worst < 1:
                card, loss = worst_card(match.hand, 0, cards)
                action = f"play:{card}"
            else:
                action = rng.choice(legal or list(match.legal_actions()))
            try:
                moves.apply_action(
                    table_id=table.pk, owner=owner, action=action, expected_version=table.version
                )
            except TableError:  # a live site's clock moved first: look again
                continue
            worst = max(worst, loss)
        if worst >= 1 and match.hands:
            return table
    raise AssertionError("no deal gave seat 0 a clear mistake to make")
