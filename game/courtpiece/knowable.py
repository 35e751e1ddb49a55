"""The knowable verdict on a seat's own cards: from what that seat knew when it played
(its view at that moment, rebuilt by playing the hand again from the deal), was another
card better on average, and by how much?

The same sampling as the hard bot (game.bots.courtpiece.sampling.sample_deals) deals
the cards the seat had not seen in ways consistent with its view; each deal is solved
double dummy (game.courtpiece.doubledummy.solve, under its lock), and each legal card's
tricks are averaged over the deals. Only the view is read, never the deal: a card that
only hindsight condemns is not called a mistake. Positions the sampler cannot judge
(trump not yet known to all, piles, tens: the hard bot's ``searchable``) and forced
cards (one legal card) get no verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.bots.courtpiece import hard, sampling
from game.courtpiece import doubledummy, steps

EPSILON = 1e-9
SAMPLES = 8  # deals per decision: a first request stays near a second (docs/PERFORMANCE.md)


def verdict(state: Any, seat: int, card: str, samples: int = SAMPLES) -> dict[str, Any] | None:
    """The verdict on ``seat`` playing ``card`` in ``state`` (which only lends its
    ``view(seat)``), or None where there is nothing to judge."""
    view = state.view(seat)
    legal = [a[5:] for a in view["legal_actions"] if a.startswith("play:")]
    if len(legal) < 2 or card not in legal or not hard.searchable(view):
        return None
    trick = [(int(e["seat"]), str(e["card"])) for e in view["trick"]]
    leader = trick[0][0] if trick else seat
    deals = sampling.sample_deals(view, samples, seed=0)
    totals = dict.fromkeys(legal, 0.0)
    for hands in deals:
        at_start = [list(h) for h in hands]
        for who, played in trick:
            at_start[who].append(played)
        scores = doubledummy.solve(
            doubledummy.deal_at(at_start, view["trump"], leader, [c for _s, c in trick])
        )
        for option in legal:
            totals[option] += scores[option]
    n = max(1, len(deals))
    mean = {option: total / n for option, total in totals.items()}
    best = max(mean.values())
    loss = best - mean[card]
    return {
        "trick": int(view["trick_count"]) + 1,
        "seat": seat,
        "card": card,
        "played": round(mean[card], 2),
        "best": round(best, 2),
        "loss": round(loss, 2) if loss > EPSILON else 0.0,
        "better": sorted(o for o, v in mean.items() if v >= best - EPSILON)
        if loss > EPSILON
        else [],
        "samples": len(deals),
    }


def verdicts(finished: Sequence[Any], counter: int, seat: int) -> list[dict[str, Any]]:
    """The knowable verdict on each card ``seat`` chose in hand ``counter``."""
    out = []
    for actor, action, state in steps.states(finished[counter]):
        if actor == seat and action.startswith("play:"):
            judged = verdict(state, seat, action[5:])
            if judged is not None:
                out.append(judged)
    return out
