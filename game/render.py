"""The live table as HTML, drawn from one docs/TABLE_PROTOCOL.md "state" payload.

`table_frame_html(payload, lang)` is what the consumer sends to a browser socket
(`format=html`) for every state frame; `error_html(code, message, lang)` for an error.
Both are out-of-band swaps for htmx's WebSocket extension: the frame replaces
`#table-live`, fills the persistent `aria-live` region `#table-announce` and clears
`#table-error`.

Everything shown comes from the payload, which is already the seat's own view: this module
never sees a card its seat may not see, so it cannot leak one. It is also stateless (the
announcement is worked out from the view's history), so a reconnect draws the same thing.

Cards are the guide's own SVG faces (`guide.figures.card`), one small `<svg>` per card.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game import bgrender
from guide import figures

SUIT_ORDER = "SHDC"
RANK_ORDER = "AKQJT98765432"
#: The emotes a player may send, if the payload does not list them (services.EMOTES is
#: the set the server accepts, rate-limited).
EMOTES = ("hello", "well_played", "oops", "thanks", "wow", "good_game")
#: Where each relative seat sits: 0 is the viewer (bottom), play goes anticlockwise (CP-3).
PLACES = ("bottom", "right", "top", "left")


# --- words -------------------------------------------------------------------------------


def suit_name(suit: str) -> str:
    return {"S": _("Spades"), "H": _("Hearts"), "D": _("Diamonds"), "C": _("Clubs")}[suit]


def card_name(code: str) -> str:
    """ "QH" -> "Queen of Hearts", in the active language.

    One whole phrase per rank, not "%(rank)s of %(suit)s": in Urdu and Hindi the
    possessive agrees with the rank's gender (Urdu "حُکم کی بیگم" but "حُکم کا اِکّا"), so
    each rank's translator chooses it."""
    names = {
        "A": _("Ace of %(suit)s"), "K": _("King of %(suit)s"), "Q": _("Queen of %(suit)s"),
        "J": _("Jack of %(suit)s"), "T": _("Ten of %(suit)s"), "9": _("Nine of %(suit)s"),
        "8": _("Eight of %(suit)s"), "7": _("Seven of %(suit)s"), "6": _("Six of %(suit)s"),
        "5": _("Five of %(suit)s"), "4": _("Four of %(suit)s"), "3": _("Three of %(suit)s"),
        "2": _("Two of %(suit)s"),
    }  # fmt: skip
    return names[code[0]] % {"suit": suit_name(code[1])}


def result_word(kind: str) -> str:
    """The game's own word for how a hand ended (CP result kinds)."""
    words = {
        "win": "",  # an ordinary win has no name of its own
        "kot": _("Kot"),
        "gone_kot": _("Gone kot"),
        "court": _("Court"),
        "baawan": _("Baawan"),
        "biyasi": _("Biyasi"),
        "mendikot": _("Mendikot"),
        "made": _("Contract made"),
        "set": _("Contract set"),
        "redeal": _("Redeal"),
    }
    return words.get(kind, kind)


def result_explained(kind: str) -> str:
    words = {
        "win": _("The hand is decided."),
        "kot": _("Every trick that counts, taken by one team."),
        "gone_kot": _("Kot by the team that did not choose trump."),
        "court": _("The caller's team took all thirteen tricks."),
        "baawan": _("The other team took all thirteen tricks: 52."),
        "biyasi": _("The hand was laid open and took every trick: 82."),
        "mendikot": _("All four tens captured."),
        "made": _("The bidders took the tricks they bid."),
        "set": _("The bidders fell short of their bid."),
        "redeal": _("The cards are dealt again."),
    }
    return words.get(kind, "")


def points_explained(variant: str, result: dict[str, Any]) -> str:
    """One plain sentence: what this result is worth and why, with the engine's own number
    (``result["points"]``) and the rule behind it (RULES CP-RUNG-3, CP-SS-5, CP-MK-1/2,
    CP-HK-6). Rung scores points; Hukum with bidding scores the contract; every other
    variant counts hands won."""
    kind = str(result.get("kind"))
    points = [int(p) for p in result.get("points") or [0, 0]]
    if kind == "redeal":
        return _("A redeal scores nothing: the cards are dealt again.")
    if kind in ("made", "set"):
        bid = int((result.get("contract") or [0])[0])
        n = next((p for p in points if p), 0)
        if kind == "made":
            return _(
                "The bidders took at least the %(bid)s tricks they bid, so they gain "
                "%(n)s points; the other team's score stays as it was."
            ) % {"bid": bid, "n": n}
        return _(
            "The bidders took fewer than the %(bid)s tricks they bid, so they lose %(n)s "
            "points (7 for a bid of 7, double the bid above 7); the other team's score "
            "stays as it was."
        ) % {"bid": bid, "n": abs(n)}
    winner = result.get("winner")
    n = points[int(winner)] if winner is not None else 0
    if variant == "rung":
        words = {
            "win": _("7 of the 13 tricks win the hand, and a win scores %(n)s points."),
            "court": _(
                "The team that chose trump took all 13 tricks (court): %(n)s points "
                "instead of 7."
            ),
            "baawan": _(
                "The team that did not choose trump took all 13 tricks (baawan): %(n)s "
                "points instead of 7."
            ),
            "biyasi": _(
                "The claim came true: all 13 tricks with the hand laid open (biyasi), "
                "%(n)s points."
            ),
        }
        return words[kind] % {"n": n} if kind in words else ""
    words = {
        "win": _("7 tricks win the hand; each hand won counts 1 towards the match."),
        "kot": _(
            "7 tricks in a row from the first (kot) win the hand: it counts 1 towards the "
            "match, and the kot is counted beside it."
        )
        if variant != "double_sar"
        else _(
            "One team collected 7 tricks while the other collected none (kot): the hand "
            "counts 1 towards the match, and the kot is counted beside it."
        ),
        "gone_kot": _(
            "The team that did not choose trump took the first 7 tricks in a row (gone "
            "kot): the hand counts 1 towards the match, and the kot is counted beside it."
        )
        if variant != "double_sar"
        else _(
            "The team that did not choose trump collected 7 tricks while the other "
            "collected none (gone kot): the hand counts 1 towards the match, and the kot "
            "is counted beside it."
        ),
        "mendikot": _(
            "All four tens (mendikot) win the hand: it counts 1 towards the match, and "
            "the mendikot is counted beside it."
        ),
    }
    if variant == "mendikot" and kind == "win":
        return _(
            "Three of the four tens win the hand (with two each, the team with more "
            "tricks): it counts 1 towards the match."
        )
    return words.get(kind, "")


def emote_word(emote: str) -> str:
    words = {
        "hello": _("Hello"),
        "well_played": _("Well played"),
        "thanks": _("Thanks"),
        "oops": _("Oops"),
        "wow": _("Wow"),
        "good_game": _("Good game"),
    }
    return words.get(emote, emote)


def error_text(code: str) -> str:
    words = {
        "malformed": _("That message could not be read."),
        "not_seated": _("You are not seated at this table."),
        "not_your_turn": _("It is not your turn."),
        "illegal": _("That move is not allowed here."),
        "stale": _("The table moved on; here is the latest."),
        "rate_limited": _("Too fast: wait a moment."),
        "forbidden": _("You may not do that."),
        "not_found": _("This table does not exist."),
        "needs_account": _("Sign in to take a seat at a table with people."),
        "conflict": _("Someone else was quicker."),
        "bad_request": _("That request is not valid."),
        "not_over": _("That hand is not over yet: it can be played again once it ends."),
    }
    return words.get(code, _("Something went wrong."))


# --- cards -------------------------------------------------------------------------------


def card_svg(code: str) -> SafeString:
    """One card face as its own small SVG (decorative: the button or image names it).

    Drawn left to right whatever the page's direction: on an Urdu page the inherited
    ``direction: rtl`` makes the rank's ``<text>`` end at its x instead of starting
    there, so the letter hung off the card's top-left corner (a newcomer's screenshot)."""
    rank = "10" if code[0] == "T" else code[0]
    face = figures.card(rank, code[1], 1, 1)
    return mark_safe(
        f'<svg class="card-face" viewBox="0 0 58 82" direction="ltr" aria-hidden="true" '
        f'focusable="false" xmlns="http://www.w3.org/2000/svg">{face}</svg>'
    )


def card_back_svg() -> SafeString:
    """The back of a card: it shows nothing, so it may be drawn for any seat."""
    return mark_safe(
        '<svg class="card-back" viewBox="0 0 58 82" direction="ltr" aria-hidden="true" '
        'focusable="false" xmlns="http://www.w3.org/2000/svg">'
        '<rect x="1" y="1" width="56" height="80" rx="6" '
        'fill="#7a2e2a" stroke="#5b5247"/><rect x="6" y="6" width="46" height="70" rx="4" '
        'fill="none" stroke="#e8c170" stroke-width="2"/><path d="M29 18L44 41L29 64L14 41Z" '
        'fill="none" stroke="#e8c170" stroke-width="2"/></svg>'
    )


def pip_svg(suit: str) -> SafeString:
    return mark_safe(
        '<svg class="pip" viewBox="0 0 100 100" direction="ltr" aria-hidden="true" '
        'focusable="false" '
        f'xmlns="http://www.w3.org/2000/svg">{figures.pip(suit, 0, 0, 100)}</svg>'
    )


def sort_hand(cards: list[str]) -> list[tuple[str, list[str]]]:
    """Cards grouped by suit (spades, hearts, diamonds, clubs), high to low in each."""
    groups: list[tuple[str, list[str]]] = []
    for suit in SUIT_ORDER:
        mine = sorted((c for c in cards if c[1] == suit), key=lambda c: RANK_ORDER.index(c[0]))
        if mine:
            groups.append((suit, mine))
    return groups


# --- the frame ---------------------------------------------------------------------------


class _Seats:
    """Names and places of the four seats as the viewer sees them."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.me: int | None = payload.get("seat")
        self.info = {int(s["seat"]): s for s in payload.get("seats") or []}

    def relative(self, seat: int) -> int:
        return (seat - (self.me or 0)) % 4

    def place(self, seat: int) -> str:
        return PLACES[self.relative(seat)]

    def name(self, seat: int) -> str:
        if seat == self.me:
            return _("You")
        info = self.info.get(seat) or {}
        player = info.get("player")
        if info.get("guest"):
            return _("Guest")
        if player and not info.get("bot"):
            return str(player)
        if self.info and not info.get("bot"):
            return _("Empty seat")
        compass = {0: _("South"), 1: _("East"), 2: _("North"), 3: _("West")}
        return _("Bot (%(place)s)") % {"place": compass[seat]}

    def role(self, seat: int) -> str:
        if self.me is None:
            return ""
        if seat == self.me:
            return ""
        return _("Partner") if (seat - self.me) % 2 == 0 else _("Opponent")

    def team_name(self, team: int) -> str:
        if self.me is not None:
            return _("Your team") if self.me % 2 == team else _("Opponents")
        return _("%(a)s and %(b)s") % {"a": self.name(team), "b": self.name(team + 2)}


def _describe(seats: _Seats, seat: int, action: str) -> str:
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


def bid_label(bid: str) -> str:
    """ "9H" -> "9 Hearts"."""
    return _("%(count)s %(suit)s") % {"count": bid[:-1], "suit": suit_name(bid[-1])}


def action_label(action: str) -> str:
    verb, _sep, arg = action.partition(":")
    labels = {
        "thirteenth": _("Trump from my thirteenth card"),
        "redeal": _("Ask for a redeal"),
        "pass": _("Pass"),
        "claim": _("Claim every trick (open my hand)"),
        "ask": _("Ask to see the trump"),
        "reveal": _("Reveal the trump"),
    }
    if verb == "call":
        return suit_name(arg)
    if verb == "bid":
        return bid_label(arg)
    if verb in ("hide", "play"):
        return card_name(arg)
    return labels.get(verb, action)


def _deadline(payload: dict[str, Any]) -> dict[str, str] | None:
    raw = payload.get("deadline")
    if not raw:
        return None
    try:
        when = datetime.fromisoformat(str(raw).replace("Z", "+00:00"))
    except ValueError:
        return None
    return {"iso": when.isoformat(), "text": when.strftime("%H:%M:%S UTC")}


def _tens(view: dict[str, Any]) -> list[int]:
    """Tens captured per team (Mendikot), counted from the completed tricks everyone saw."""
    tens = [0, 0]
    for trick in view.get("completed_tricks") or []:
        tens[trick["winner"] % 2] += sum(1 for c in trick["cards"] if c["card"][0] == "T")
    return tens


def trump_chosen(seats: _Seats, view: dict[str, Any]) -> str:
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
    seats: _Seats, view: dict[str, Any], to_move: int | None, hands_played: int = 0
) -> str:
    parts: list[str] = []
    history = view.get("history") or []
    if not history and hands_played and view.get("phase") != "over":
        # The frame after a hand's last card is already the next deal: say that the hand
        # ended (its result and last trick are announced with the summary, which the page
        # fetches: game.views.hand_summary).
        parts.append(_("Hand %(n)s is over.") % {"n": hands_played})
    if history:
        seat, action = history[-1]
        parts.append(_describe(seats, int(seat), str(action)))
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


def copied_link(copied: dict[str, Any] | None) -> dict[str, Any] | None:
    """Where a deal played again comes from, for the pages: table, hand and the URL of
    that hand's replay (in the active language). None for an ordinary table."""
    if not copied:
        return None
    from django.urls import reverse

    table, hand = int(copied["table"]), int(copied["hand"])
    return {"table": table, "hand": hand, "url": reverse("game:replay", args=[table, hand])}


def _summary(
    seats: _Seats,
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
        "last_trick": _trick_shown(seats, (hand.get("completed_tricks") or [])[-1:]),
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


def _trick_shown(seats: _Seats, tricks: list[dict[str, Any]]) -> dict[str, Any] | None:
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
                **_card(str(c["card"])),  # type: ignore[dict-item]
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


def _rules_url(slug: str, anchor: str) -> str:
    return reverse("guide:rules", kwargs={"slug": slug}) + "#" + anchor


#: Where each variant's rules say how trump is chosen (guide/content/*/<slug>.md anchors).
CALL_RULES = {
    "rung": ("rung", "deal"),
    "single_sar": ("single-sar", "who-calls"),
    "double_sar": ("double-sar", "same"),
    "hidden": ("hidden-rung", "hiding"),
    "hukum": ("hukum", "no-bidding"),
}


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
    slug, anchor = CALL_RULES.get(variant, CALL_RULES["rung"])
    # What the choice is comes before the buttons; what the other buttons do, after them.
    return {"lines": lines, "extras": extras, "rules_url": _rules_url(slug, anchor)}


def _card(code: str | None) -> dict[str, Any] | None:
    if not code:
        return None
    return {"code": code, "name": card_name(code), "svg": card_svg(code)}


def _card_action(code: str, playable: set[str], hideable: set[str]) -> str | None:
    if code in playable:
        return "play:" + code
    if code in hideable:
        return "hide:" + code
    return None


def _run(seats: _Seats, run: dict[str, Any] | None) -> dict[str, Any] | None:
    if not run:
        return None
    return {"who": seats.name(run["seat"]), "length": run["length"]}


def table_context(payload: dict[str, Any]) -> dict[str, Any]:
    """Everything the templates need, worked out from one state payload."""
    seats = _Seats(payload)
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
        just_won = _trick_shown(seats, view.get("completed_tricks") or [])
    shown = trick or {c["seat"]: c["code"] for c in (just_won or {}).get("cards", [])}
    open_hands = {int(o["seat"]): list(o["cards"]) for o in view.get("open_hands") or []}
    places = []
    for seat in range(4):
        card = shown.get(seat)
        places.append(
            {
                "seat": seat,
                "place": seats.place(seat),
                "name": seats.name(seat),
                "role": seats.role(seat),
                "bot": bool((seats.info.get(seat) or {}).get("bot")),
                "connected": (seats.info.get(seat) or {}).get("connected", True),
                "count": counts[seat] if seat < len(counts) else 0,
                "backs": range(0 if seat == me or seat in open_hands else min(counts[seat], 13)),
                "open": [_card(c) for c in open_hands.get(seat, [])],
                "to_move": seat == to_move,
                "leads": seat == leader,
                "dealer": seat == view.get("dealer"),
                "caller": seat == view.get("caller"),
                "played": _card(card),
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
                {**_card(c["card"]), "who": seats.name(c["seat"]), "won": c["seat"] == lt["winner"]}
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
        summary = _summary(seats, last_hand, fairness, table.get("id"), hands_played, copied)
    elif phase == "over":
        summary = _summary(seats, view, fairness, table.get("id"), hands_played, copied)
    # The live frame has no finished hand in it: while the next hand is young, the page
    # fetches the summary of the last one over HTTP (game.views.hand_summary).
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

    variant = str(view.get("variant") or table.get("variant") or "rung")
    return {
        "trump_chosen": trump_chosen(seats, view),
        "table_id": table.get("id"),
        "version": version,
        "seat": me,
        "phase": phase,
        "variant": variant,
        "variant_name": variant_name(variant),
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
        "claim_rules_url": _rules_url("rung", "biyasi") if "claim" in legal else "",
        "call_help": _call_help(variant, legal, bool(hideable)),
        "just_won": just_won,
        "bid_rows": bid_rows,
        "places": places,
        "trump": {"suit": trump, "name": suit_name(trump), "pip": pip_svg(trump)}
        if trump
        else None,
        "hidden": hidden,
        "hidden_card": _card(hidden_card),
        "card_back": card_back_svg(),
        "thirteenth": _card(view.get("thirteenth_card")),
        "turned": _card(view.get("turned_card")),
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
        "double_sar": variant == "double_sar",
        "run": _run(seats, view.get("run")),
        "tens": _tens(view) if variant == "mendikot" else None,
        "goal": goal,
        "score_hint": score_hint(match),
        "hands_played": hands_played,
        "finished": range(1, hands_played + 1) if table.get("id") else range(0),
        "deadline": _deadline(payload),
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


def goal_text(match: dict[str, Any]) -> str:
    """The match target in one short sentence (the view's ``match`` block)."""
    measure = match.get("measure")
    target = match.get("target")
    if not target:
        return ""
    if measure == "points":
        return _("First to %(n)s points wins the match.") % {"n": target}
    if measure == "difference":
        return _("A team %(n)s points behind loses the match.") % {"n": target}
    return ngettext(
        "First to %(n)s hand wins the match.",
        "First to %(n)s hands wins the match.",
        target,
    ) % {"n": target}


def score_hint(match: dict[str, Any]) -> str:
    """How a hand adds to the match score, shortest form (RULES CP-RUNG-3, CP-SS-5,
    CP-HK-6), for the status bar beside the target."""
    measure = match.get("measure")
    if measure == "points":
        return _("A hand won scores 7 points; all 13 tricks score more.")
    if measure == "difference":
        return _("A bid made scores the bid; a bid missed loses double (7 for a bid of 7).")
    if measure == "hands":
        return _("Each hand won counts 1.")
    return ""


def variant_name(variant: str) -> str:
    names = {
        "rung": _("Rung"),
        "single_sar": _("Single Sar"),
        "hidden": _("Hidden Rung"),
        "double_sar": _("Double Sar"),
        "be_ranga": _("Be-Ranga"),
        "mendikot": _("Mendikot"),
        "hukum": _("Hukum"),
    }
    return names.get(variant, variant)


def _is_backgammon(payload: dict[str, Any]) -> bool:
    table = payload.get("table") or {}
    view = payload.get("view") or {}
    return table.get("game") == "backgammon" or view.get("game") == "backgammon"


def table_frame_html(payload: dict[str, Any], lang: str) -> str:
    """The HTML of one state frame, for the seat the payload was made for."""
    with translation.override(lang):
        if _is_backgammon(payload):
            return bgrender.frame_html(payload, oob=True)
        context = {**table_context(payload), "oob": True}
        return render_to_string("game/partials/table_frame.html", context)


def table_live_html(payload: dict[str, Any], lang: str) -> str:
    """The same table drawn into the page itself (first paint, and no JavaScript)."""
    with translation.override(lang):
        if _is_backgammon(payload):
            return bgrender.frame_html(payload, oob=False)
        context = {**table_context(payload), "oob": False}
        return render_to_string("game/partials/table_frame.html", context)


def error_html(code: str, message: str, lang: str) -> str:
    """An error for this socket only. The engine's `message` is English, so it is shown
    (as an English aside) only on English pages; other pages get the code's own words."""
    with translation.override(lang):
        text = error_text(code)
        detail = escape(message) if lang == "en" and message else ""
        return render_to_string(
            "game/partials/error.html", {"code": code, "text": text, "detail": detail}
        )


def emote_html(frame: dict[str, Any], lang: str) -> str:
    """A fixed emote from one seat; table.js puts the seat's name in front of it."""
    with translation.override(lang):
        return render_to_string(
            "game/partials/table_emote.html",
            {"seat": frame.get("seat"), "label": emote_word(str(frame.get("emote")))},
        )


def lobby_html(tables: list[dict[str, Any]], lang: str) -> str:
    """The lobby socket's frame: a doorbell, not the list. The list carries players'
    ratings, which live in the database, so the page fetches it afresh over HTTP
    (``game.views.lobby`` answers htmx with the list alone)."""
    with translation.override(lang):
        url = reverse("game:lobby")
    return (
        f'<div id="lobby-bell" hx-swap-oob="true" data-tables="{len(tables)}">'
        f'<div hx-get="{escape(url)}" hx-trigger="load" hx-target="#lobby-tables" '
        f'hx-swap="innerHTML"></div></div>'
    )
