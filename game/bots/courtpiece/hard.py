"""The ``hard`` Court Piece bot: search over deals sampled from what the seat knows.

Where the card play is plain trick-taking with trump known to all (Rung, Single Sar,
Hukum, Hidden Rung after the reveal, Be-Ranga once trump is fixed: :func:`searchable`),
each legal card is scored in deals drawn by
:func:`.sampling.sample_worlds` (consistent with the cards played, the voids shown, the
public cards and what the calls and bids say), each deal solved double-dummy by endplay's
DDS (:func:`.sampling.dd_tricks`), from the first trick on. A card's score is the mean,
over the deals, of the hand's real goal reached with it (:func:`goal_value`): reach 7
(or make or set a Hukum contract), then a kot for or against, and a tenth for each trick
up to one above the goal (with 13 tricks to go nearly every card reaches the goal in the
same deals; the tricks tell the cards apart, and beyond the goal they are worth nothing).

Where it is not plain trick-taking (Double Sar's piles, Mendikot's tens, Be-Ranga and
Mendikot before trump is fixed, Hidden Rung before the reveal), and for the calls, bids,
the 13th-card call, hiding, asking, revealing and the 82 claim, the hard bot plays the
medium bot's rules: double-dummy scores do not describe those games, and rollouts of the
medium bot cost more than the time goal allows (docs/PERFORMANCE.md).

Deterministic: the sampling is seeded from the view; the medium bot's card is kept unless
another scores more by :data:`SWITCH`, then ties go to card order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.engine.courtpiece.cards import CARD_STR

from . import medium
from .rulebased import rules_for
from .sampling import dd_reaching, dd_tricks, hand_view, sample_worlds

TARGET = 7  # seven tricks win the hand (CP-RUNG-2, CP-SS-2)
KOT_BONUS = 0.5  # all 13 tricks (court, CP-RUNG-3) is worth more than a plain win
MARGIN = 0.1  # a trick more breaks ties between cards that reach the goal equally
TRICKS_ABOVE = 1  # tricks beyond the goal count up to this many (then only a kot does)
# The medium bot's card is kept unless another card scores this much more (and, in the
# old reach-only mode, SWITCH_DEALS sampled deals' worth more): half a trick, or one deal
# in twenty reaching the goal. A wide margin hid what search finds: with 0.1 and 1.5
# deals' worth (tricks worth 0.01) hard's card differed from medium's in 0 and 2 of
# 190/222 first-trick decisions, and hard won 0.538 of duplicate Rung hands against
# today's bot; with no margin (tricks worth 0.1, more deals) 0.619 on the same deals
# (docs/PERFORMANCE.md). Some margin stays for the obvious-position tests: the last trump
# drawn with the master (AS 1.831 against QH 1.863: partner may hold the last trump, and
# the deals then say the queen of hearts takes a trick more), the doubleton ace kept
# (0.03), a trump led while an opponent may still hold one (0.03).
SWITCH = 0.05
SWITCH_DEALS = 0.0
# At TARGET_FROM cards in hand or more (reach-only solves, not used now) a wider margin.
EARLY_SWITCH_DEALS = 2.5


# Cards in hand from which hard searches: from the first trick. (11 before: the search
# from 13 with reach-only solves, 8 deals and the wide margin changed no result.)
SEARCH_FROM = 13
# With this many cards in hand or more, each deal is solved only for "does this card
# reach the goal?" (DDS's target mode, :func:`.sampling.dd_reaching`). 14: never; at trick
# one reach-only solves cannot tell the cards apart (above), and the full solve costs
# 10 ms median, 39 ms mean a deal at 13 cards, 7 and 11 at 12 (docs/PERFORMANCE.md).
TARGET_FROM = 14
EARLY_DEALS = 8  # deals solved with TARGET_FROM cards in hand or more
# Deals solved by cards in hand: as many as DDS's time allows (a full solve takes about
# 5 ms mean at 11 cards, 2.4 at 10, 1.1 at 9, under 0.7 from 8).
DEALS_11 = 10  # with 11 to 13 cards in hand (below TARGET_FROM)
DEALS_10 = 16  # ... with 10 cards
DEALS_8 = 24  # ... with 8 or 9 cards
DEALS_LATE = 40  # ... with 7 or fewer


def samples_for(cards_left: int) -> int:
    """How many deals to solve: DDS is slow with many cards left, quick near the end
    (0: do not search, play the medium bot's card; docs/PERFORMANCE.md has the times)."""
    if cards_left > SEARCH_FROM:
        return 0
    if cards_left >= TARGET_FROM:
        return EARLY_DEALS
    if cards_left >= 11:
        return DEALS_11
    if cards_left >= 10:
        return DEALS_10
    if cards_left >= 8:
        return DEALS_8
    return DEALS_LATE


def goal_need(hv: Mapping[str, Any]) -> int:
    """How many tricks our team must take in all for the hand's goal (seven, CP-RUNG-2;
    the Hukum contract made, or set: the defenders need 14 minus the bid, CP-HK-6)."""
    contract = hv.get("contract")
    if contract:
        number, bidder = contract[0], contract[1]
        if bidder % 2 == hv["seat"] % 2:
            return int(number)
        return 14 - int(number)
    return TARGET


def goal_value(
    hv: Mapping[str, Any], ours: int, theirs: int, above: int | None = None
) -> float:
    """The hand's goal for our team, given the tricks each team ends with."""
    seat: int = hv["seat"]
    team = seat % 2
    contract = hv.get("contract")
    if contract:  # CP-HK-6: the bidder's team makes its number, or is set
        number, bidder = contract[0], contract[1]
        if bidder % 2 == team:
            value = 1.0 if ours >= number else 0.0
        else:
            value = 1.0 if theirs < number else 0.0
    else:
        value = 1.0 if ours >= TARGET else 0.0
    if ours == 13:
        value += KOT_BONUS
    if theirs == 13:
        value -= KOT_BONUS
    cap = goal_need(hv) + (TRICKS_ABOVE if above is None else above)
    return value + MARGIN * min(ours, cap)


def searchable(hv: Mapping[str, Any]) -> bool:
    """Whether the rest of the hand is plain trick-taking with trump known to all: a
    trump in the view (named, bid, revealed or fixed), no piles (CP-DS-1), the tens not
    counted (CP-MK-1), and no trick under way whose trump counts only from a card in its
    middle (CP-HID-3: trump from the reveal; DDS knows no such trick)."""
    if hv.get("phase") != "play" or not hv.get("trump"):
        return False
    options: Mapping[str, Any] = hv.get("options") or {}
    rules = rules_for(hv.get("variant", ""), tuple(sorted(options.items())))
    if rules.piles or rules.tens_count:
        return False
    return not (hv.get("trick") and int(hv.get("trump_from") or 0) > 0)


def card_scores(
    view: Mapping[str, Any], deals: int | None = None, above: int | None = None
) -> dict[str, float]:
    """Mean goal value of each legal card over the sampled deals (see the docstring)."""
    hv = hand_view(view)
    seat: int = hv["seat"]
    plays = [a[5:] for a in hv["legal_actions"] if a.startswith("play:")]
    taken = hv.get("tricks_taken") or [0, 0]
    ours0, theirs0 = taken[seat % 2], taken[1 - seat % 2]
    left = 13 - int(hv.get("trick_count") or 0)
    trick = [(e["seat"], e["card"]) for e in hv.get("trick") or []]
    count = samples_for(len(hv["hand"])) if deals is None else deals
    worlds = sample_worlds(view, count)
    totals = dict.fromkeys(plays, 0.0)
    if len(hv["hand"]) >= TARGET_FROM:
        # Reach-the-goal only: 1 for a card that reaches it in a deal, 0 otherwise.
        need = goal_need(hv) - ours0
        if need <= 0 or need > left:
            return totals  # nothing to decide by the goal: every card scores the same
        for world in worlds:
            hands = [[CARD_STR[c] for c in h] for h in world.hands]
            for card in dd_reaching(hands, hv["trump"], seat, trick, need):
                if card in totals:
                    totals[card] += 1.0
        n = max(1, len(worlds))
        return {card: total / n for card, total in totals.items()}
    for world in worlds:
        hands = [[CARD_STR[c] for c in h] for h in world.hands]
        values = dd_tricks(hands, hv["trump"], seat, trick)
        for card in plays:
            won = values[card]
            totals[card] += goal_value(hv, ours0 + won, theirs0 + left - won, above)
    n = max(1, len(worlds))
    return {card: total / n for card, total in totals.items()}


def choose(view: Mapping[str, Any]) -> str:
    """The hard bot's action for the view."""
    hv = hand_view(view)
    fallback = medium.choose(view)
    if not fallback.startswith("play:") or not searchable(hv):
        return fallback
    if not samples_for(len(hv["hand"])):
        return fallback
    scores = card_scores(view)
    if len(set(scores.values())) <= 1:
        return fallback
    best = max(scores.values())
    deals = SWITCH_DEALS if len(hv["hand"]) < TARGET_FROM else EARLY_SWITCH_DEALS
    margin = max(SWITCH, deals / samples_for(len(hv["hand"]))) + 1e-9
    if scores.get(fallback[5:], -1.0) >= best - margin:
        return fallback
    return "play:" + min(card for card, v in scores.items() if v >= best - 1e-9)
