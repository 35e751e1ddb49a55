"""The live Court Piece table as HTML, drawn from one docs/TABLE_PROTOCOL.md "state"
payload (``COURTPIECE.pages.frame_html``; game.tables.html sends it).

Everything shown comes from the payload, which is already the seat's own view: this module
never sees a card its seat may not see, so it cannot leak one. It is also stateless (the
announcement is worked out from the view's history), so a reconnect draws the same thing.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from game.courtpiece import variants
from game.courtpiece.cards import card, card_back_svg, card_svg, pip_svg, sort_hand
from game.courtpiece.levels import level_text
from game.courtpiece.refusals import refusal_kind, refusal_text
from game.courtpiece.seats import Seats
from game.courtpiece.summary import hand_summary, trick_shown, young_hand
from game.courtpiece.words import (
    action_label,
    bid_label,
    card_name,
    goal_text,
    score_hint,
    suit_name,
)
from game.engine import courtpiece as cp
from game.tables.emotes import EMOTES
from game.tables.html import deadline
from game.tables.words import emote_word


def describe(seats: Seats, seat: int, action: str) -> str:
    who = seats.name(seat)
    verb, _sep, arg = action.partition(":")
    if verb == "play":
        if seat == seats.me:
            return _("You played the %(card)s.") % {"card": card_name(arg)}
        return _("%(who)s played the %(card)s.") % {"who": who, "card": card_name(arg)}
    if verb == "call":
        return _("%(who)s chose trump: %(suit)s.") % {"who": who, "suit": suit_name(arg)}
    if verb == "thirteenth":
        return _("%(who)s took the suit of the thirteenth card as trump.") % {"who": who}
    if verb == "redeal":
        return _("%(who)s asked for a redeal.") % {"who": who}
    if verb == "pass":
        return _("%(who)s passed.") % {"who": who}
    if verb == "hide":
        return _("%(who)s placed a card face down as trump.") % {"who": who}
    if verb == "bid":
        return _("%(who)s bid %(bid)s.") % {"who": who, "bid": bid_label(arg)}
    if verb == "claim":
        return _("%(who)s laid the hand open and claims every trick.") % {"who": who}
    if verb == "ask":
        return _("%(who)s asked to see the trump.") % {"who": who}
    if verb == "reveal":
        return _("%(who)s revealed the trump.") % {"who": who}
    if verb == "timeout":
        return _("Time ran out for %(who)s.") % {"who": who}
    return ""


def _tens(view: dict[str, Any]) -> list[int]:
    """Tens captured per team (Mendikot), counted from the completed tricks everyone saw."""
    tens = [0, 0]
    for trick in view.get("completed_tricks") or []:
        tens[trick["winner"] % 2] += sum(1 for c in trick["cards"] if c["card"][0] == "T")
    return tens


def trump_chosen(seats: Seats, view: dict[str, Any]) -> str:
    """Who chose this hand's trump, and which (or that it lies face down), once it is
    chosen: newcomers could not tell who had (the "Hakim" badge alone did not say)."""
    caller = view.get("caller")
    if caller is None:
        return ""  # not chosen yet, or chosen by no one (Be-Ranga's first void card)
    trump = view.get("trump")
    mine = caller == seats.me
    if trump:
        if mine:
            return _("You chose %(suit)s as trump.") % {"suit": suit_name(trump)}
        return _("%(who)s chose %(suit)s as trump.") % {
            "who": seats.name(caller),
            "suit": suit_name(trump),
        }
    if (view.get("hidden") or {}).get("placed"):
        if mine:
            return _("You chose a hidden trump.")
        return _("%(who)s chose a hidden trump.") % {"who": seats.name(caller)}
    return ""


def _announcement(
    seats: Seats, view: dict[str, Any], to_move: int | None, hands_played: int = 0
) -> str:
    parts: list[str] = []
    history = view.get("history") or []
    if not history and hands_played and view.get("phase") != "over":
        # The frame after a hand's last card is already the next deal: say that the hand
        # ended (its result and last trick are announced with the summary, which the page
        # fetches: game.courtpiece.views.summary_page).
        parts.append(_("Hand %(n)s is over.") % {"n": hands_played})
    if history:
        seat, action = history[-1]
        parts.append(describe(seats, int(seat), str(action)))
        if str(action) == "thirteenth":
            parts.append(trump_chosen(seats, view))  # its suit was nobody's to see till now
        done = view.get("completed_tricks") or []
        if str(action).startswith("play:") and not view.get("trick") and done:
            winner = done[-1]["winner"]
            if winner == seats.me:
                parts.append(_("You win the trick."))
            else:
                parts.append(_("%(who)s wins the trick.") % {"who": seats.name(winner)})
    if to_move is not None:
        if to_move == seats.me:
            parts.append(_("Your turn."))
        else:
            parts.append(_("%(who)s to play.") % {"who": seats.name(to_move)})
    return " ".join(p for p in parts if p)


def _call_help(variant: str, legal: list[str], hiding: bool) -> dict[str, Any] | None:
    """A few words for the player whose turn it is to choose trump: what they choose, from
    what, and what a good choice usually is, with the rules section that says it."""
    if not hiding and not any(a.startswith("call:") for a in legal):
        return None
    extras: list[str] = []
    if hiding:
        lines = [
            _(
                "You choose trump for this hand by placing one of your cards face down: its "
                "suit becomes trump once the card is turned up. You see only your first five "
                "cards; the rest come after you choose."
            )
        ]
    else:
        lines = [
            _(
                "You choose trump (the rung) for this hand: any card of that suit beats every "
                "card of the other suits. You see only your first five cards; the rest come "
                "after you choose."
            )
        ]
    lines.append(
        _(
            "A good choice is usually the suit you hold the most of among these five, or the "
            "one with the highest cards (ace, king)."
        )
    )
    if "thirteenth" in legal:
        extras.append(
            _(
                "Or let the suit of your thirteenth card, which nobody sees yet, be trump: "
                "a gamble."
            )
        )
    if "redeal" in legal:
        extras.append(_("With no card higher than a ten you may ask for a new deal."))
    if "pass" in legal:
        extras.append(_("You may pass the choice to your partner once."))
    # What the choice is comes before the buttons; what the other buttons do, after them.
    return {"lines": lines, "extras": extras, "rules_url": variants.call_rules_url(variant)}


def _card_action(code: str, playable: set[str], hideable: set[str]) -> str | None:
    if code in playable:
        return "play:" + code
    if code in hideable:
        return "hide:" + code
    return None


def _run(seats: Seats, run: dict[str, Any] | None) -> dict[str, Any] | None:
    if not run:
        return None
    return {"who": seats.name(run["seat"]), "length": run["length"]}


def table_context(payload: dict[str, Any]) -> dict[str, Any]:
    """Everything the templates need, worked out from one state payload."""
    seats = Seats(payload)
    full = payload.get("view") or {}
    view: dict[str, Any] = full.get("hand") or {}
    match: dict[str, Any] = full.get("match") or {}
    fairness: dict[str, Any] = full.get("fairness") or {}
    table: dict[str, Any] = payload.get("table") or {}
    legal: list[str] = [str(a) for a in payload.get("legal") or []]
    version = payload.get("version", 0)
    to_move = payload.get("to_move")
    me = seats.me
    phase = view.get("phase")

    def form(action: str) -> dict[str, Any]:
        return {"action": action, "label": action_label(action)}

    playable = {a.split(":", 1)[1] for a in legal if a.startswith("play:")}
    hideable = {a.split(":", 1)[1] for a in legal if a.startswith("hide:")}
    own_cards = [str(c) for c in view.get("hand") or []]
    # What a tap on a card that may not be played says (static/js/table.js shows it).
    why = {c: refusal_kind(view, me, legal, c) for c in own_cards}
    said = {k: refusal_text(k, view, seats) for k in set(why.values())}
    hand_groups = [
        {
            "suit": suit,
            "suit_name": suit_name(suit),
            "cards": [
                {
                    "code": c,
                    "name": card_name(c),
                    "svg": card_svg(c),
                    "action": _card_action(c, playable, hideable),
                    "why": said[why[c]],
                }
                for c in cards
            ],
        }
        for suit, cards in sort_hand(own_cards)
    ]
    choices = [form(a) for a in legal if not a.startswith(("play:", "hide:", "bid:"))]
    calls = [a for a in choices if a["action"].startswith("call:")]
    others = [a for a in choices if not a["action"].startswith("call:")]
    for c in calls:
        c["body"] = mark_safe(pip_svg(c["action"][-1]) + f"<span>{escape(c['label'])}</span>")
    bids = [form(a) for a in legal if a.startswith("bid:")]
    bid_rows: list[dict[str, Any]] = []
    for b in bids:
        count = b["action"][4:-1]
        if not bid_rows or bid_rows[-1]["count"] != count:
            bid_rows.append({"count": count, "bids": []})
        b["pip"] = pip_svg(b["action"][-1])
        b["suit_name"] = suit_name(b["action"][-1])
        bid_rows[-1]["bids"].append(b)

    counts = view.get("hand_counts") or [0, 0, 0, 0]
    trick = {int(p["seat"]): str(p["card"]) for p in view.get("trick") or []}
    leader = (view.get("trick") or [{}])[0].get("seat") if view.get("trick") else None
    # The trick just completed stays in the middle, its winner marked, until the next card
    # is played: a player must see who took it (the engine has already cleared it).
    just_won = None
    if not trick and phase in ("play", "over"):
        just_won = trick_shown(seats, view.get("completed_tricks") or [])
    shown = trick or {c["seat"]: c["code"] for c in (just_won or {}).get("cards", [])}
    open_hands = {int(o["seat"]): list(o["cards"]) for o in view.get("open_hands") or []}
    places = []
    for seat in range(4):
        code = shown.get(seat)
        places.append(
            {
                "seat": seat,
                "place": seats.place(seat),
                "name": seats.label(seat),
                "full_name": seats.name(seat),
                "left": seats.left(seat),
                "role": seats.role(seat),
                "bot": bool((seats.info.get(seat) or {}).get("bot")),
                # The viewer's own seat is here (its page is drawing it, before its socket
                # has opened); nobody sits in an empty seat: neither is ever "Away".
                "connected": seat == me or (seats.info.get(seat) or {}).get("connected", True),
                "empty": seat in seats.info
                and not seats.info[seat].get("bot")
                and not seats.info[seat].get("player"),
                "count": counts[seat] if seat < len(counts) else 0,
                "backs": range(0 if seat == me or seat in open_hands else min(counts[seat], 13)),
                "open": [card(c) for c in open_hands.get(seat, [])],
                "to_move": seat == to_move,
                "leads": seat == leader,
                "dealer": seat == view.get("dealer"),
                "caller": seat == view.get("caller"),
                "played": card(code),
                "won": just_won is not None and seat == just_won["winner_seat"],
            }
        )
    # The trick in the middle, in the order the viewer's eyes go round: bottom, right, top, left.
    places.sort(key=lambda p: seats.relative(p["seat"]))

    trump = view.get("trump")
    hidden = view.get("hidden") or None
    hidden_card = hidden.get("card") if hidden else None
    last = (view.get("completed_tricks") or [])[-1:] or None
    last_trick = None
    if last:
        lt = last[0]
        last_trick = {
            "winner": seats.name(lt["winner"]),
            "cards": [
                {**card(c["card"]), "who": seats.name(c["seat"]), "won": c["seat"] == lt["winner"]}
                for c in lt["cards"]
            ],
        }
    contract = view.get("contract")
    tricks_taken = view.get("tricks_taken") or [0, 0]
    teams = [
        {
            "name": seats.team_name(t),
            "mine": me is not None and me % 2 == t,
            "tricks": tricks_taken[t],
            "score": (match.get("scores") or [0, 0])[t],
        }
        for t in (0, 1)
    ]
    teams.sort(key=lambda t: not t["mine"])  # your own team first
    hands_played = int(match.get("hands_played") or 0)
    # A finished hand: the table may send it as "last_hand" (the next one is already
    # dealt); at the end of a match the current hand is the finished one.
    summary = None
    last_hand = payload.get("last_hand")
    copied = table.get("copied_deal")
    if isinstance(last_hand, dict) and last_hand.get("result"):
        summary = hand_summary(seats, last_hand, fairness, table.get("id"), hands_played, copied)
    elif phase == "over":
        summary = hand_summary(seats, view, fairness, table.get("id"), hands_played, copied)
    # The live frame has no finished hand in it: while the next hand is young, the page
    # fetches the summary of the last one over HTTP (game.courtpiece.views.summary_page).
    summary_url = ""
    if summary is None and hands_played and table.get("id") and young_hand(view):
        summary_url = f"summary/{hands_played}/"
    if summary is not None and phase != "over" and not young_hand(view):
        summary = None  # the next hand's first card is down: its own table matters now
    match_over = None
    if match.get("is_over"):
        w = match.get("winner")
        match_over = {
            "winner": seats.team_name(w) if w is not None else "",
            "we_won": me is not None and w is not None and me % 2 == w,
            "scores": teams,
        }

    if to_move is None:
        status = ""
    elif phase == "call":
        status = (
            _("Your call: choose trump.")
            if to_move == me
            else _("%(who)s is choosing trump.") % {"who": seats.name(to_move)}
        )
    elif phase == "bid":
        status = (
            _("Your bid.") if to_move == me else _("%(who)s to bid.") % {"who": seats.name(to_move)}
        )
    elif to_move == me:
        status = _("Your turn: play a card.") if not trick else _("Your turn.")
    else:
        status = _("%(who)s to play.") % {"who": seats.name(to_move)}

    goal = goal_text(match)

    variant = str(view.get("variant") or table.get("variant") or "")
    engine = cp.VARIANTS.get(variant)
    return {
        "trump_chosen": trump_chosen(seats, view),
        "table_id": table.get("id"),
        "version": version,
        "seat": me,
        "phase": phase,
        "variant": variant,
        "variant_name": variants.title(variant),
        # The bots' level, where a seat is a bot (the table's option: "Bots: Hard").
        "bot_level": level_text(table.get("options") or {})
        if any(s.get("bot") for s in seats.info.values())
        else "",
        "to_move": to_move,
        "my_turn": me is not None and to_move == me,
        "status": status,
        "announce": _announcement(seats, view, to_move, hands_played),
        "hand_groups": hand_groups,
        "hiding": bool(hideable),
        # Dim only what cannot be played now; while others move, cards look normal.
        "dim_others": bool(playable or hideable),
        "calls": calls,
        "others": [o for o in others if o["action"] != "claim"],
        "claim": next((o for o in others if o["action"] == "claim"), None),
        "claim_rules_url": variants.rules_url("rung", "biyasi") if "claim" in legal else "",
        "call_help": _call_help(variant, legal, bool(hideable)),
        "just_won": just_won,
        "bid_rows": bid_rows,
        "places": places,
        "trump": {"suit": trump, "name": suit_name(trump), "pip": pip_svg(trump)}
        if trump
        else None,
        "hidden": hidden,
        "hidden_card": card(hidden_card),
        "card_back": card_back_svg(),
        "thirteenth": card(view.get("thirteenth_card")),
        "turned": card(view.get("turned_card")),
        "bids": [
            {
                "who": seats.name(b["seat"]),
                "bid": _("Pass") if b["bid"] == "pass" else bid_label(b["bid"]),
            }
            for b in view.get("bids") or []
        ],
        "contract": {"count": contract[0], "who": seats.name(contract[1])} if contract else None,
        "teams": teams,
        "pile": view.get("pile") or 0,
        "piles": bool(engine is not None and engine.piles),
        "run": _run(seats, view.get("run")),
        "tens": _tens(view) if engine is not None and engine.tens_count else None,
        "goal": goal,
        "score_hint": score_hint(match),
        "hands_played": hands_played,
        "finished": range(1, hands_played + 1) if table.get("id") else range(0),
        "deadline": deadline(payload),
        "last_trick": last_trick,
        "summary": summary,
        "summary_url": summary_url,
        "match_over": match_over,
        "emotes": [{"emote": e, "label": emote_word(e)} for e in payload.get("emotes") or EMOTES]
        if me is not None and full
        else [],
        "waiting": not full,
        "status_code": table.get("status") or "",
        "commitment": fairness.get("commitment"),
        "forced": next(iter(playable)) if len(legal) == 1 and playable else None,
    }


def frame_html(payload: dict[str, Any], oob: bool) -> str:
    """The HTML of one state frame, for the seat the payload was made for (``oob``: as an
    out-of-band swap for the socket; else drawn into the table page)."""
    return render_to_string(
        "courtpiece/partials/table_frame.html", {**table_context(payload), "oob": oob}
    )
