"""The ``easy`` Court Piece bot: a beginner's game, legal, plausible and beatable.

It plays the medium bot's card most of the time; now and then (:data:`SLIP` of its card
plays, chosen by a number drawn from a seed taken from the view, so the same view always
gives the same action) it plays another legal card instead, the way a beginner loses
count: a card of the same suit when it can, so the play still looks like a player's.
Calls, bids, asking and revealing are the medium bot's."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from . import medium
from .sampling import hand_view

SLIP = 0.3  # share of card plays that are not the medium bot's card


def choose(view: Mapping[str, Any]) -> str:
    """The easy bot's action for the view."""
    best = medium.choose(view)
    hv = hand_view(view)
    legal = [a for a in hv.get("legal_actions") or [] if a.startswith("play:")]
    if not best.startswith("play:") or len(legal) < 2:
        return best
    digest = hashlib.blake2b(json.dumps(hv, sort_keys=True).encode(), digest_size=8).digest()
    roll = int.from_bytes(digest, "big")
    if (roll % 1000) / 1000 >= SLIP:
        return best
    same_suit = [a for a in legal if a != best and a[-1] == best[-1]]
    others = same_suit or [a for a in legal if a != best]
    return str(sorted(others)[(roll // 1000) % len(others)])
