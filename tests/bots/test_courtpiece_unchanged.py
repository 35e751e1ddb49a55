"""Today's bot (``game.bots.courtpiece.rulebased``, the benchmarks' baseline that the
``medium`` level corrects) keeps its decisions pinned: on a fixed set of seeded views of
every variant and option set, its choices hash to the figures below, recorded from the bot
as it was when it still asked for variants by name (before it read the rule facts of ``cp.Rules``).

A change meant to alter the bot's play changes these figures: re-record them in the same
commit (``python -m tests.bots.test_courtpiece_unchanged`` prints them) and say why. A
change meant to keep its play, such as a refactoring of the bot or of the views it
reads, must leave them as they are.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from game.bots.courtpiece import rulebased as bot
from game.engine import courtpiece as cp
from tests.bots.helpers import option_sets

HANDS = 24  # per variant, the option sets taking turns: 860 to 990 decisions each

# sha256 of the bot's choices, one per line, in the order views() gives them.
RECORDED = {
    "rung": "37099b33fe56c10e9baad9c692c277e0e628c49ae9345d538d9c7243071cd1b4",
    "single_sar": "e3af0f94788bd1b65102b59bc967496fd7c7e36979fd9e144ad7ea9d3ff37e42",
    "hidden": "61a549ae5791c1fb23587a6feaef8ff1807a43f018b9e214f9faa85fbfcde54c",
    "double_sar": "f0d69772cd7b64bda0791ba7e1c12c8be6f7141ccff7489e1c065396637f0bd6",
    "be_ranga": "9ceae0a1c3701ba34d5549b595ed8ba7eee3201caea9976a3d67fb8a44e92bd4",
    "mendikot": "33713795b225bd8575ec63702077519713ae8254e328cd701c6c159d4425c907",
    "hukum": "afa48a75a68a1e86caccadeb738b4614a1a39249dc67885264b21f72b9872521",
}


def views(variant: str) -> Iterator[dict[str, Any]]:
    """Every view with a real choice (two legal actions or more) met in ``HANDS`` seeded
    hands. Each action comes from the bot or from random play, half and half, and while
    a clock runs (CP-SS-4a) now and then the clock runs out, so turned-up and unseen
    face-down cards (CP-SS-4, CP-HID-7) are met too."""
    sets = list(option_sets(variant))
    for i in range(HANDS):
        rng = random.Random(f"{variant}-{i}")
        rules = cp.Rules(variant, **sets[i % len(sets)])
        hand = cp.new_hand(rules, dealer=i % 4, seed=f"unchanged-{variant}-{i}")
        while not hand.is_over:
            seat = hand.to_move
            view = hand.view(seat)
            legal = view["legal_actions"]
            # Draw the same numbers whatever is played, so a bot that decides otherwise
            # changes only the actions that follow from its own.
            coin, pick, clock = rng.random(), rng.choice(legal), rng.random()
            if hand.timeout_legal and clock < 0.25:
                hand = hand.apply("timeout")
                continue
            if len(legal) > 1:
                yield view
            action = bot.choose(view) if coin < 0.5 else pick
            hand = hand.apply(action, seat)


def choices(variant: str) -> list[str]:
    return [bot.choose(view) for view in views(variant)]


def digest(actions: list[str]) -> str:
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_bot_makes_the_recorded_choices(variant: str) -> None:
    actions = choices(variant)
    assert len(actions) >= 300  # a few hundred views of every variant
    assert len(set(actions)) > 10  # and not one answer to all of them
    assert digest(actions) == RECORDED[variant]


if __name__ == "__main__":
    for name in cp.VARIANTS:
        found = choices(name)
        print(f'    "{name}": "{digest(found)}",  # {len(found)} choices')
