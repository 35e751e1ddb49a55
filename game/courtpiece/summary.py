"""A finished hand as the table shows it: its result in words, the last trick, the points,
the fairness seeds that dealt it, and the links to its replay (the live table's summary,
the summary fragment and the replay page share it)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from game.courtpiece.cards import card
from game.courtpiece.seats import Seats
from game.courtpiece.words import points_explained, result_explained, result_word
from game.tables.pages import copied_link


def hand_summary(
    seats: Seats,
    hand: dict[str, Any],
    fairness: dict[str, Any],
    table_id: Any,
    number: int,
    copied: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """``copied``: the table's ``copied_deal`` info; it is shown when this hand is the
    one the fairness block lists as given (its cards were copied, not dealt here)."""
    result = hand.get("result")
    if not result:
        return None
    given = number - 1 in (fairness.get("given") or [])
    kind = result["kind"]
    winner = result.get("winner")
    seeds = fairness.get("server_seeds") or []
    seed = seeds[number - 1] if 0 < number <= len(seeds) else None
    return {
        "last_trick": trick_shown(seats, (hand.get("completed_tricks") or [])[-1:]),
        "kind": kind,
        "word": result_word(kind),
        "explained": result_explained(kind),
        "points_explained": points_explained(str(hand.get("variant") or ""), result),
        "winner": seats.team_name(winner) if winner is not None else "",
        "we_won": seats.me is not None and winner is not None and seats.me % 2 == winner,
        "tricks": [
            {
                "team": seats.team_name(t),
                "tricks": result["tricks"][t],
                "points": result["points"][t],
            }
            for t in (0, 1)
        ],
        "number": number,
        "commitment": fairness.get("commitment"),
        "seed": seed,
        "copied": copied_link(copied) if given else None,
        "table_id": table_id,
        # Relative to the table page (/<lang>/play/<id>/), where every frame is shown.
        "replay_url": f"replay/{number}/" if table_id else "",
    }


def trick_shown(seats: Seats, tricks: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A completed trick (the last of ``tricks``, if any): its cards, who played each, and
    its winner, in words."""
    if not tricks:
        return None
    trick = tricks[-1]
    winner = int(trick["winner"])
    return {
        "winner_seat": winner,
        "winner": seats.name(winner),
        "text": _("You won the trick.")
        if winner == seats.me
        else _("%(who)s won the trick.") % {"who": seats.name(winner)},
        "cards": [
            {
                **card(str(c["card"])),  # type: ignore[dict-item]
                "seat": int(c["seat"]),
                "who": seats.name(int(c["seat"])),
                "won": int(c["seat"]) == winner,
            }
            for c in trick["cards"]
        ],
    }


def announce_summary(summary: dict[str, Any]) -> str:
    """What the aria-live region says when a finished hand's summary appears."""
    if summary.get("word"):
        parts = [
            _("Hand %(n)s is over: %(result)s.")
            % {"n": summary["number"], "result": summary["word"]}
        ]
    else:
        parts = [_("Hand %(n)s is over.") % {"n": summary["number"]}]
    if summary.get("winner") and summary.get("kind") != "redeal":
        parts.append(_("Winner: %(team)s.") % {"team": summary["winner"]})
    last = summary.get("last_trick")
    if last:
        parts.append(_("Last trick:") + " " + last["text"])
    return " ".join(parts)


def young_hand(view: dict[str, Any]) -> bool:
    """No card of this hand played yet (calls, bids, a hidden card or a claim may be)."""
    return not view.get("trick") and not view.get("completed_tricks")
