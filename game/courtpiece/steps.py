"""A finished hand card by card, for the replay's stepper (static/js/replay.js): the
hand is played again from its deal through the engine, and each card played becomes a
step with what the page says of it, in the active language. The page draws the four
hands shrinking, the trick on the table and the running score from these steps; the
analysis (``/api/tables/<id>/analysis``) marks each card later, with the words here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.courtpiece.seats import PLACES, Seats
from game.courtpiece.words import card_name, suit_name
from game.engine import courtpiece as cp


def states(finished: Any) -> list[tuple[int, str, Any]]:
    """Every action of the hand as (seat, action, the state it was taken in), played
    again from the deal as received."""
    state = cp.new_hand(finished.rules, finished.dealer, deal=finished.deal)
    out = []
    for seat, action in finished.history:
        out.append((seat, action, state))
        state = state.apply(action, seat)
    return out


def _score(names: Seats, won: tuple[int, int]) -> str:
    """The tricks each team has taken, the viewer's team first."""
    first = names.me % 2 if names.me is not None else 0
    return _("Tricks taken: %(a)s %(n)s, %(b)s %(m)s") % {
        "a": names.team_name(first), "n": won[first],
        "b": names.team_name(1 - first), "m": won[1 - first],
    }


def replay_data(finished: Any, names: Seats) -> dict[str, Any]:
    """What the stepper draws: the seats round the table (the viewer's at the bottom),
    the hands when the first card is led, and one step per card played."""
    plays = [(s, a[5:], st) for s, a, st in states(finished) if a.startswith("play:")]
    steps: list[dict[str, Any]] = []
    held = [list(cards) for cards in finished.deal]
    after = finished
    for k, (seat, card, state) in enumerate(plays):
        nxt = plays[k + 1][2] if k + 1 < len(plays) else after
        trick = state.trick_count + 1
        won_by = None
        if nxt.trick_count > state.trick_count:  # this card completed the trick
            won_by = nxt.tricks()[-1][2]
        values = {"n": trick, "who": names.name(seat), "card": card_name(card)}
        if seat == names.me:
            say = _("Trick %(n)s: you play the %(card)s.") % values
        else:
            say = _("Trick %(n)s: %(who)s plays the %(card)s.") % values
        if won_by is not None and won_by == names.me:
            say += " " + _("You win the trick.")
        elif won_by is not None:
            say += " " + _("%(who)s wins the trick.") % {"who": names.name(won_by)}
        steps.append(
            {
                "trick": trick,
                "seat": seat,
                "card": card,
                "won_by": won_by,
                "say": say,
                "score": _score(names, tuple(nxt.won)),
            }
        )
    me = names.me if names.me is not None else 0
    return {
        "seats": [
            {"seat": s, "name": names.name(s), "place": PLACES[(s - me) % 4]} for s in range(4)
        ],
        "me": names.me,
        "hands": held,
        "steps": steps,
        "start": {
            "say": _("The deal, before the first card. Trump: %(trump)s.")
            % {"trump": suit_name(finished.trump)}
            if finished.trump
            else _("The deal, before the first card."),
            "score": _score(names, (0, 0)),
        },
        "words": words(names),
    }


def words(names: Seats) -> dict[str, Any]:
    """The analysis' words for the page's script: each count said once here (gettext's
    plurals), the script only fills in the cards' names."""
    mine = names.me % 2 if names.me is not None else None
    par = {}
    for team in (0, 1):
        for n in range(14):
            if mine is None:
                text = ngettext(
                    "With every card seen, %(team)s make %(n)s trick.",
                    "With every card seen, %(team)s make %(n)s tricks.",
                    n,
                ) % {"team": names.team_name(team), "n": n}
            elif team == mine:
                text = ngettext(
                    "With every card seen, your side makes %(n)s trick.",
                    "With every card seen, your side makes %(n)s tricks.",
                    n,
                ) % {"n": n}
            else:
                continue
            par[f"{team}:{n}"] = text
    return {
        "step": _("Step %(n)s of %(total)s"),
        "best": _("The best card, with every card seen."),
        "cost": {
            str(n): ngettext(
                "Cost %(n)s trick, with every card seen. Better: %(better)s.",
                "Cost %(n)s tricks, with every card seen. Better: %(better)s.",
                n,
            ).replace("%(n)s", str(n))
            for n in range(1, 14)
        },
        "knowable_same": _(
            "From what you could know then, no other card was better on average."
        ),
        "knowable_worse": {
            "text": _(
                "From what you could know then, %(better)s was better by %(diff)s tricks "
                "on average."
            ),
        },
        "par": par,
        "loading": _("Working out the analysis…"),
        "knowable_loading": _("Now judging your own cards from what you could know then…"),
        "knowable_done": _(
            "Your own cards are also judged from what you could know when you played them: "
            "step to one of them to read it."
        ),
        "knowable_none": _("None of your cards could be judged from what you knew then."),
        "failed": _("The analysis could not be loaded. Try again later."),
        "names": {
            code: card_name(code)
            for code in (r + s for s in "SHDC" for r in "AKQJT98765432")
        },
    }
