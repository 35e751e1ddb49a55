"""One hand of Court Piece as an immutable state machine.

``Hand.apply(action)`` returns a new ``Hand``; the old one never changes. The phases are
explicit: ``call`` (trump decided on the first five cards), ``bid`` (Hukum), ``play``,
``over``. Variant behaviour comes from the :class:`~.rules.Variant` fields, not from
tests of the variant's name.

Cards are ints and hands are bitmasks (see ``cards.py``); only ``view()``, ``history``
and messages turn them into strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import fair
from ..protocol import IllegalAction
from .cards import (
    ACE_RANK,
    CARD_INDEX,
    CARD_STR,
    FULL_DECK,
    SUIT_MASK,
    SUIT_NAMES,
    SUITS,
    TEN_RANK,
    TENS_MASK,
    display_order,
    mask_of,
)
from .rules import Rules, Variant

CALL, BID, PLAY, OVER = "call", "bid", "play", "over"
NO_CARD = -1


@dataclass(frozen=True)
class HandResult:
    kind: str
    winner: int | None
    tricks: tuple[int, int]
    points: tuple[int, int]
    caller: int | None = None
    tens: tuple[int, int] | None = None  # Mendikot: tens captured per team
    contract: tuple[int, int] | None = None  # Hukum bidding: (tricks bid, bidder seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "caller": self.caller,
            "tens": list(self.tens) if self.tens else None,
            "contract": list(self.contract) if self.contract else None,
        }


# Parsed form of every action string, built once: apply() is a dict lookup, not parsing.
_PARSE: dict[str, tuple[str, int]] = {
    "redeal": ("redeal", 0),
    "thirteenth": ("thirteenth", 0),
    "pass": ("pass", 0),
    "claim": ("claim", 0),
    "ask": ("ask", 0),
    "reveal": ("reveal", 0),
    "timeout": ("timeout", 0),
}
PLAY_ACTION = tuple(f"play:{c}" for c in CARD_STR)
HIDE_ACTION = tuple(f"hide:{c}" for c in CARD_STR)
CALL_ACTION = tuple(f"call:{s}" for s in SUITS)
for _c in range(52):
    _PARSE[PLAY_ACTION[_c]] = ("play", _c)
    _PARSE[HIDE_ACTION[_c]] = ("hide", _c)
for _s in range(4):
    _PARSE[CALL_ACTION[_s]] = ("call", _s)
for _n in range(7, 14):
    for _s in range(4):
        _PARSE[f"bid:{_n}{SUITS[_s]}"] = ("bid", _n * 4 + _s)
del _c, _s, _n


# Filled in at the end of the module: action kind -> transition method.
_DISPATCH: dict[str, Any] = {}

# Play actions for every 13-bit pattern of one suit, filled in lazily: legal-move
# generation is then a few shifts and dict lookups instead of a loop over cards.
def _suit_actions(shift: int, bits: int) -> tuple[str, ...]:
    return tuple(PLAY_ACTION[shift + r] for r in range(13) if bits >> r & 1)


# Built at import (~30k small tuples, a few MB): a lead is then four list indexings.
_SUIT_TABLES: tuple[list[tuple[str, ...]], ...] = tuple(
    [_suit_actions(13 * s, bits) for bits in range(8192)] for s in range(4)
)


_BIT = tuple(1 << c for c in range(52))


def unwind(node: Any) -> list[Any]:
    """The entries of a persistent log of (previous, entry) pairs, oldest first.

    States append to such logs in O(1) (no list is copied per action); the list is only
    built when someone asks for it."""
    out = []
    while node is not None:
        node, entry = node
        out.append(entry)
    out.reverse()
    return out


def _team(seat: int) -> int:
    return seat & 1


def _parse(action: object) -> tuple[str, int]:
    if not isinstance(action, str):
        action = str(action)  # richer action objects stringify to the canonical form
    parsed = _PARSE.get(action)
    if parsed is not None:
        return parsed
    kind, _, arg = action.partition(":")
    if kind in ("play", "hide"):
        raise IllegalAction(f"unknown card {arg!r}")
    if kind == "call":
        raise IllegalAction(f"unknown suit {arg!r}: use S, H, D or C")
    if kind == "bid":
        raise IllegalAction(
            f"malformed bid {arg!r}: a bid is 7..13 tricks and a suit, e.g. 'bid:8H'"
        )
    raise IllegalAction(f"unknown action {action!r}")


def _check_deal(deal: Sequence[Sequence[str]]) -> tuple[tuple[int, ...], ...]:
    if len(deal) != 4 or any(len(cards) != 13 for cards in deal):
        raise ValueError("a deal is four lists of 13 cards, one per seat")
    try:  # fast path: canonical card strings
        out = tuple([tuple([CARD_INDEX[c] for c in cards]) for cards in deal])
    except (KeyError, TypeError):
        out = tuple(
            tuple(_card_in_deal(text, seat) for text in cards) for seat, cards in enumerate(deal)
        )
    if sum([_BIT[c] for row in out for c in row]) != FULL_DECK:  # 52 distinct cards
        seen: set[int] = set()
        for row in out:
            for c in row:
                if c in seen:
                    raise ValueError(f"card {CARD_STR[c]} is dealt twice")
                seen.add(c)
    return out


def _card_in_deal(text: object, seat: int) -> int:
    idx = CARD_INDEX.get(str(text).strip().upper().replace("10", "T"))
    if idx is None:
        raise ValueError(f"unknown card {text!r} in seat {seat}'s deal")
    return idx


class Hand:
    """The state of one hand. Build it with :func:`new_hand`; change it with :meth:`apply`."""

    # No __slots__: the whole state is one __dict__, so apply() copies it in one C call
    # (slots cost ~34 attribute copies per action and halved the engine's speed).

    # Attributes (ints are seats, cards or suits; -1 means none):
    #   deals       the deal as received: 4 tuples of 13 card ints
    #   hands       4 bitmasks of the cards each seat holds and may play (the face-down
    #               Hidden Rung card is kept apart in hidden_card until it is revealed)
    #   trick       the cards of the current trick in play order (flat: no per-card
    #               pairs to allocate); trick_leader played the first; led = its suit or -1
    #   tsuit       trump suit int or -1 (Hidden: -1 until the reveal; Be-Ranga: until fixed)
    #   trump_from  position in the current trick from which the trump suit counts as
    #               trump (CP-HID-3: cards of that suit played before the reveal do not)
    #   won         tricks collected per team (Double Sar: collected from piles)
    #   pile, run_seat, run_len   Double Sar pile and the current winner's run (CP-DS-1)
    #   played      bitmask of every card played so far (public)
    #   _log, _tricks_log   persistent cons lists: apply() is O(1), history is rebuilt
    #               only when asked for

    rules: Rules

    # ------------------------------------------------------------------ construction
    def _clone(self) -> Hand:
        new = object.__new__(Hand)
        new.__dict__.update(self.__dict__)
        new.__dict__["_legal"] = None
        return new

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable: apply() returns a new state")

    # ------------------------------------------------------------------ public surface
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def history(self) -> list[tuple[int, str]]:
        out = []
        node = self._log
        while node is not None:
            node, seat, action = node
            out.append((seat, action))
        out.reverse()
        return out

    @property
    def last_action(self) -> tuple[int, str] | None:
        node = self._log
        return None if node is None else (node[1], node[2])

    @property
    def spec(self) -> Variant:
        return self.rules.spec

    @property
    def first_chooser(self) -> int:
        """The seat after the dealer: the caller unless they pass (CP-SS-4)."""
        return (self.dealer + 1) % 4

    @property
    def deal(self) -> list[list[str]]:
        """The whole deal. Server-side only: never send it to a client (use view())."""
        return [[CARD_STR[c] for c in row] for row in self.deals]

    @property
    def trump(self) -> str | None:
        """The trump suit as a letter, or None while there is none (Hidden Rung before the
        reveal, Be-Ranga and Mendikot before a void player fixes it)."""
        return SUITS[self.tsuit] if self.tsuit >= 0 else None


    @property
    def played(self) -> int:
        """Bitmask of the cards played so far: every card no longer in a hand."""
        held = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        if self.hidden_card >= 0 and not self.revealed:
            held |= 1 << self.hidden_card
        return FULL_DECK ^ held

    @property
    def timeout_legal(self) -> bool:
        """Whether a clock runs for ``to_move`` (CP-SS-4a): the table applies ``timeout``."""
        return self.phase == CALL and self.spec.timers

    def completed_tricks(self) -> list[dict[str, Any]]:
        return [
            {
                "leader": leader,
                "cards": [
                    {"seat": (leader + i) & 3, "card": CARD_STR[c]} for i, c in enumerate(cards)
                ],
                "winner": winner,
            }
            for leader, cards, winner in self._iter_tricks()
        ]

    def apply(self, action: object, seat: int | None = None) -> Hand:
        if self.phase == OVER:
            raise IllegalAction("the hand is over")
        if seat is not None and seat != self.to_move:
            raise IllegalAction("not your turn")
        state = self.__dict__
        text = action if type(action) is str else str(action)
        parsed = _PARSE.get(text)
        kind, arg = parsed if parsed is not None else _parse(text)
        legal = state["_legal"]
        if legal is None:
            legal = state["_legal"] = self._compute_legal()
        if text not in legal and not (kind == "timeout" and self.timeout_legal):
            raise IllegalAction(self._why_illegal(kind, arg))
        new = object.__new__(Hand)
        d = new.__dict__
        d.update(state)  # ~2x cheaper than assigning a copied dict to __dict__
        d["_legal"] = None
        actor = state["to_move"]
        d["_log"] = (state["_log"], actor, text)  # a persistent cons list, O(1)
        if kind != "play":
            _DISPATCH[kind](new, arg)
            return new
        # Playing a card is most of every hand: done inline (bots search through here).
        hands = list(state["hands"])
        hands[actor] &= ~_BIT[arg]
        d["hands"] = (hands[0], hands[1], hands[2], hands[3])
        trick = state["trick"] + (arg,)
        suit = arg // 13
        if len(trick) == 1:
            d["led"] = suit
            d["trick_leader"] = actor
        elif state["tsuit"] < 0 and suit != state["led"] and self.spec.trump_by_first_void:
            # CP-BR-1: the first card played by a void player fixes trump, and is a trump
            # in its own trick.
            d["tsuit"] = suit
            d["trump_from"] = len(trick) - 1
        if len(trick) < 4:
            d["trick"] = trick
            d["to_move"] = (actor + 1) & 3
        else:
            new._finish_trick(trick)
        return new

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Hand)
            and self.rules == other.rules
            and self.dealer == other.dealer
            and self.deals == other.deals
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.dealer, self.deals, tuple(self.history)))

    def __repr__(self) -> str:
        return (
            f"<Hand {self.rules.variant} phase={self.phase} to_move={self.to_move} "
            f"tricks={self.won} trump={self.trump}>"
        )

    # ------------------------------------------------------------------ legal actions
    def _first_five_suits(self, seat: int) -> list[int]:
        present = {c // 13 for c in self.deals[seat][:5]}
        return [s for s in range(4) if s in present]

    def legal_actions(self) -> list[str]:
        d = self.__dict__
        legal = d["_legal"]
        if legal is None:
            phase_play = d["phase"] == PLAY
            legal = d["_legal"] = self._legal_play() if phase_play else self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_play()
        if phase == CALL:
            return self._legal_call()
        if phase == BID:
            return self._legal_bid()
        return ()

    def _legal_call(self) -> tuple[str, ...]:
        seat = self.to_move
        calling = self.spec.calling
        out: list[str] = []
        if calling == "hidden":
            out.extend(HIDE_ACTION[c] for c in sorted(self.deals[seat][:5], reverse=True))
        else:
            out.extend(CALL_ACTION[s] for s in self._first_five_suits(seat))
        if calling == "rung":
            if self.rules.thirteenth:
                out.append("thirteenth")
            if self.rules.redeal and all(c % 13 <= TEN_RANK for c in self.deals[seat][:5]):
                out.append("redeal")
        if self.spec.may_pass and not self.passed:
            out.append("pass")
        return tuple(out)

    def _legal_bid(self) -> tuple[str, ...]:
        high = self.contract[0] if self.contract else 6
        out = [f"bid:{n}{s}" for n in range(high + 1, 14) for s in SUITS]
        out.append("pass")
        return tuple(out)

    def _playable_mask(self) -> int:
        seat = self.to_move
        held = self.hands[seat]
        trick = self.trick
        if not trick:
            if self.lead_trump:  # just revealed while leading: CP-HID-6
                trumps = held & SUIT_MASK[self.tsuit]
                return trumps or held
            return held
        if self.asked_by == seat and self.tsuit >= 0:  # CP-HID-5
            trumps = held & SUIT_MASK[self.tsuit]
            if trumps:
                return trumps
            return held
        follow = held & SUIT_MASK[self.led]
        return follow or held

    def _legal_play(self) -> tuple[str, ...]:
        d = self.__dict__
        seat = d["to_move"]
        if d["trick"] and d["asked_by"] != seat:
            held = d["hands"][seat]
            led = d["led"]
            bits = (held >> (13 * led)) & 0x1FFF
            if bits:  # the common case: following suit; no ask, no claim is possible then
                return _SUIT_TABLES[led][bits]
            m = held
        elif d["lead_trump"] or d["asked_by"] == seat:
            m = self._playable_mask()
        else:
            m = d["hands"][seat]
        s, h, di, c = _SUIT_TABLES
        out = s[m & 0x1FFF] + h[(m >> 13) & 0x1FFF] + di[(m >> 26) & 0x1FFF] + c[m >> 39]
        if self.hidden_card >= 0 and not self.revealed:
            if self.trick:
                if self.asked_by != seat and not (self.hands[seat] & SUIT_MASK[self.led]):
                    out += ("ask",)  # CP-HID-4 (the face-down card never counts: CP-HID-2)
            elif seat == self.caller:
                out += ("reveal",)  # CP-HID-6
        if (
            self.trick_count == 0
            and self.claimer == -1
            and not self.trick
            and self.rules.claim_allowed
        ):
            out += ("claim",)  # CP-RUNG-5
        return out

    # ------------------------------------------------------------------ explanations
    def _why_illegal(self, kind: str, arg: int) -> str:
        phase = self.phase
        seat = self.to_move
        if kind == "timeout":
            return (
                "timeout is applied by the table only while trump is being called in "
                "Single Sar, Hidden Rung or Double Sar"
            )
        if kind == "play":
            if phase != PLAY:
                return f"no cards are played yet: the hand is in the {phase} phase"
            card = CARD_STR[arg]
            held = self.hands[seat]
            if arg == self.hidden_card and seat == self.caller and not self.revealed:
                return f"{card} is face down: it cannot be played until it is revealed"
            if not held >> arg & 1:
                return f"you do not hold {card}"
            if self.trick:
                if self.asked_by == seat and self.tsuit >= 0:
                    trumps = SUIT_NAMES[self.tsuit]
                    return f"you asked for the reveal, so you must play a trump ({trumps})"
                return f"must follow {SUIT_NAMES[self.led]}"
            return f"after revealing you must lead a trump ({SUIT_NAMES[self.tsuit]})"
        if kind in ("call", "hide", "redeal", "thirteenth") and phase != CALL:
            return "trump has already been decided" if phase == PLAY else f"cannot {kind} now"
        if kind == "call":
            if self.spec.calling == "hidden":
                return "in Hidden Rung the caller hides a card ('hide:XX') instead of naming a suit"
            return f"cannot call {SUIT_NAMES[arg]}: none of your first five cards is one"
        if kind == "hide":
            if self.spec.calling != "hidden":
                return "only Hidden Rung hides a trump card"
            return f"{CARD_STR[arg]} is not one of your first five cards"
        if kind == "redeal":
            if self.spec.calling != "rung" or not self.rules.redeal:
                return "a redeal is not allowed in this game"
            return "a redeal is allowed only when none of your first five cards is above a ten"
        if kind == "thirteenth":
            return "calling the thirteenth card is not allowed in this game"
        if kind == "pass":
            if phase == CALL:
                if not self.spec.may_pass:
                    return "the caller cannot pass in this game"
                return "the call was passed once already: the partner must choose"
            return "cannot pass now"
        if kind == "bid":
            if phase != BID:
                return "there is no bidding now"
            high = self.contract[0] if self.contract else 6
            return f"a bid must be higher than {high}"
        if kind == "claim":
            return "a claim is made only by the first leader, before the first card is played"
        if kind == "ask":
            if self.hidden_card < 0 or self.revealed:
                return "there is no face-down trump card to reveal"
            if not self.trick:
                return "ask for the reveal only when you cannot follow the led suit"
            return f"you can still follow {SUIT_NAMES[self.led]}: ask only when void"
        if kind == "reveal":
            if self.hidden_card < 0 or self.revealed:
                return "there is no face-down trump card to reveal"
            return "only the caller reveals, and only when leading"
        return f"{kind} is not allowed now"

    # ------------------------------------------------------------------ transitions
    # Each _do_* mutates a fresh clone (never a state anyone else holds).
    def _set(self, **values: Any) -> None:
        self.__dict__.update(values)

    def _start_play(self, leader: int) -> None:
        self._set(phase=PLAY, to_move=leader, trick=(), led=-1)

    def _do_call(self, suit: int) -> None:
        self._set(caller=self.to_move, tsuit=suit, trump_from=0)
        self._start_play(self.caller)

    def _do_thirteenth(self, _: int) -> None:
        seat = self.to_move
        card = self.deals[seat][12]
        self._set(caller=seat, tsuit=card // 13, trump_from=0, thirteenth_card=card)
        self._start_play(seat)

    def _do_redeal(self, _: int) -> None:
        seat = self.to_move
        self._set(
            caller=seat,
            phase=OVER,
            to_move=None,
            result=HandResult("redeal", None, (0, 0), (0, 0), caller=seat),
        )

    def _do_pass(self, _: int) -> None:
        if self.phase == BID:
            self._set(bids=(*self.bids, (self.to_move, 0, -1)))
            self._next_bidder()
            return
        self._set(passed=True, to_move=(self.to_move + 2) % 4)

    def _do_timeout(self, _: int) -> None:
        # CP-SS-4: the first chooser's timeout passes; the partner's turns up the first
        # chooser's 6th card (Hidden Rung: places it face down unseen, CP-HID-7).
        if not self.passed:
            self._set(passed=True, to_move=(self.to_move + 2) % 4)
            return
        fc = self.first_chooser
        card = self.deals[fc][5]
        if self.spec.calling == "hidden":
            self._set(
                caller=fc,
                hidden_card=card,
                blind=True,
                hands=self._without(fc, card),
            )
        else:
            self._set(caller=fc, tsuit=card // 13, trump_from=0, turned_card=card)
        self._start_play(fc)

    def _do_hide(self, card: int) -> None:
        seat = self.to_move
        self._set(caller=seat, hidden_card=card, blind=False, hands=self._without(seat, card))
        self._start_play(seat)

    def _without(self, seat: int, card: int) -> tuple[int, ...]:
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        return tuple(hands)

    def _do_bid(self, code: int) -> None:
        number, suit = divmod(code, 4)
        seat = self.to_move
        self._set(contract=(number, seat), bids=(*self.bids, (seat, number, suit)))
        if number == 13:
            self._finish_bidding()  # CP-HK-3
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        if len(self.bids) == 4:  # CP-HK-1: once round the table
            self._finish_bidding()
        else:
            self._set(to_move=(self.to_move + 1) % 4)

    def _finish_bidding(self) -> None:
        if self.contract is None:
            # CP-HK-4: all passed; the first bidder must take 7 and names trump from 5.
            fc = self.first_chooser
            self._set(contract=(7, fc), phase=CALL, to_move=fc)
            return
        # CP-HK-5: the highest bid is the last one made; its suit is trump.
        suit = next(su for _, n, su in reversed(self.bids) if n)
        self._set(caller=self.contract[1], tsuit=suit, trump_from=0)
        self._start_play(self.contract[1])

    def _do_claim(self, _: int) -> None:
        self._set(claimer=self.to_move)

    def _do_ask(self, _: int) -> None:
        seat = self.to_move
        self._reveal_now()
        self._set(asked_by=seat)

    def _do_reveal(self, _: int) -> None:
        self._reveal_now()
        self._set(lead_trump=True)

    def _reveal_now(self) -> None:
        card = self.hidden_card
        hands = list(self.hands)
        hands[self.caller] |= 1 << card  # CP-HID-4: the card goes back into the hand
        self._set(
            revealed=True,
            tsuit=card // 13,
            trump_from=len(self.trick),  # CP-HID-3: trump counts from this moment
            hands=tuple(hands),
        )

    def _finish_trick(self, cards: tuple[int, ...]) -> None:
        d = self.__dict__
        # CP-7: the highest trump wins, else the highest card of the led suit. Only cards
        # from position trump_from on count as trumps (CP-HID-3 reveal, CP-BR-1 fixing).
        led = cards[0] // 13
        trump = d["tsuit"]
        position = -1
        best = -1
        if trump >= 0 and trump != led:
            for i in range(d["trump_from"], 4):
                card = cards[i]
                if card // 13 == trump and card > best:
                    best, position = card, i
        if position < 0:
            position, best = 0, cards[0]
            for i in (1, 2, 3):
                card = cards[i]
                if card // 13 == led and card > best:
                    best, position = card, i
        leader = d["trick_leader"]
        winner = (leader + position) & 3
        count = d["trick_count"] + 1
        d["trick"] = ()
        d["lead_trump"] = False  # CP-HID-6 binds only the lead just made
        d["led"] = -1
        d["trick_count"] = count
        d["asked_by"] = -1
        d["trump_from"] = 0
        d["_tricks_log"] = (d["_tricks_log"], (leader, cards, winner))
        d["to_move"] = winner
        won0, won1 = d["won"]
        rules = d["rules"]
        if rules.spec.piles:
            pile = d["pile"] + 1
            run = d["run_len"] + 1 if d["run_seat"] == winner else 1
            ace = best % 13 == ACE_RANK and rules.ace_rule
            take = 0
            if run >= 2 and not ace:  # CP-DS-1, CP-DS-4
                take, pile, run = pile, 0, 0
            if count == 13 and pile:  # CP-DS-2: what is left goes to the last winner
                take, pile = take + pile, 0
            d["pile"], d["run_seat"], d["run_len"] = pile, winner, run
        else:
            take = 1
        if winner & 1:
            won1 += take
        else:
            won0 += take
        d["won"] = (won0, won1)
        # When the hand stops (CP-RUNG-4/5b, CP-SS-2, CP-DS-2, CP-MK-1, CP-HK-5/9).
        if count == 13:
            done = True
        else:
            ending = rules.ending
            if ending == "thirteen":
                done = False
            elif rules.court_all13:
                done = (won0 >= 7 and won1 >= 1) or (won1 >= 7 and won0 >= 1)
            else:
                done = won0 >= 7 or won1 >= 7
        if done:
            self._finish()

    # ------------------------------------------------------------------ scoring
    def _finish(self) -> None:
        won = self.won
        scoring = self.spec.scoring
        caller = self.caller if self.caller is not None and self.caller >= 0 else None
        caller_team = _team(caller) if caller is not None else None
        winner = 0 if won[0] > won[1] else 1
        shut_out = won[1 - winner] == 0  # kot / court: the other team took nothing
        tens = None
        contract = None
        if scoring == "rung":
            if shut_out and winner == caller_team:
                if self.claimer >= 0 and _team(self.claimer) == winner:
                    kind, pts = "biyasi", 82  # CP-RUNG-5
                else:
                    kind, pts = "court", 13
            elif shut_out:
                kind, pts = "baawan", 52
            else:
                kind, pts = "win", 7
            points = (pts, 0) if winner == 0 else (0, pts)
        elif scoring == "hukum":
            if self.rules.hukum_bidding:
                bid, bidder = self.contract
                contract = (bid, bidder)
                team = _team(bidder)
                made = won[team] >= bid
                delta = bid if made else (-7 if bid == 7 else -2 * bid)  # CP-HK-6
                kind = "made" if made else "set"
                winner = team if made else 1 - team
                points = (delta, 0) if team == 0 else (0, delta)
            else:
                kind = "win"
                if shut_out and winner == caller_team:
                    kind = "kot"
                elif shut_out and self.rules.kot_both_sides:
                    kind = "gone_kot"
                points = (1, 0) if winner == 0 else (0, 1)
        elif scoring == "mendikot":
            tens_won = [0, 0]
            for _, node_cards, w in self._iter_tricks():
                for card in node_cards:
                    if TENS_MASK >> card & 1:
                        tens_won[_team(w)] += 1
            tens = (tens_won[0], tens_won[1])
            if tens_won[0] != tens_won[1]:
                winner = 0 if tens_won[0] > tens_won[1] else 1  # CP-MK-1
            # CP-MK-2: with the tens 2-2 the tricks decide (winner as computed above).
            kind = "mendikot" if tens_won[winner] == 4 else "win"
            points = (1, 0) if winner == 0 else (0, 1)
        else:  # "hands": Single Sar family and Be-Ranga (CP-SS-5)
            if shut_out and caller_team is None:
                kind = "kot"  # CP-BR-2: either team's 7 in a row
            elif shut_out:
                kind = "kot" if winner == caller_team else "gone_kot"
            else:
                kind = "win"
            points = (1, 0) if winner == 0 else (0, 1)
        self._set(
            phase=OVER,
            to_move=None,
            result=HandResult(kind, winner, won, points, caller, tens, contract),
        )

    def _iter_tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """Completed tricks as (leader, cards in play order, winner), oldest first."""
        return unwind(self._tricks_log)

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as a JSON-serialisable dict (``None``: spectator).

        This is the only description of a hand that leaves the engine.
        """
        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3 or None, not {seat!r}")
        phase = self.phase
        if seat is None:
            own: list[str] = []
        elif phase in (CALL, BID):
            own = display_order(mask_of(self.deals[seat][:5]))  # CP-4: the first five only
        else:
            own = display_order(self.hands[seat])
        counts = (
            [5, 5, 5, 5] if phase in (CALL, BID) else [h.bit_count() for h in self.hands]
        )
        hidden: dict[str, Any] | None = None
        if self.hidden_card >= 0:
            counts[self.caller] += 0 if self.revealed else 1
            show = self.revealed or phase == OVER or (seat == self.caller and not self.blind)
            hidden = {
                "placed": True,
                "blind": self.blind,
                "revealed": self.revealed,
                "card": CARD_STR[self.hidden_card] if show else None,
            }
        elif self.spec.calling == "hidden":
            hidden = {"placed": False, "blind": False, "revealed": False, "card": None}
        history = []
        for actor, action in self.history:
            # Only the caller knows which card was hidden, until it is turned up.
            if action.startswith("hide:") and actor != seat and not self.revealed and phase != OVER:
                action = "hide"
            history.append([actor, action])
        open_hands = []
        if self.claimer >= 0:
            open_hands.append(
                {"seat": self.claimer, "cards": display_order(self.hands[self.claimer])}
            )
        mine = seat is not None and seat == self.to_move
        return {
            "variant": self.rules.variant,
            "options": self.rules.options,
            "seat": seat,
            "dealer": self.dealer,
            "first_chooser": self.first_chooser,
            "phase": phase,
            "to_move": self.to_move,
            "caller": self.caller,
            "passed": self.passed,
            "trump": self.trump,
            "hand": own,
            "hand_counts": counts,
            "hidden": hidden,
            "thirteenth_card": CARD_STR[self.thirteenth_card]
            if self.thirteenth_card >= 0
            else None,
            "turned_card": CARD_STR[self.turned_card] if self.turned_card >= 0 else None,
            "open_hands": open_hands,
            "bids": [
                {"seat": s, "bid": f"{n}{SUITS[su]}" if n else "pass"} for s, n, su in self.bids
            ],
            "contract": list(self.contract) if self.contract else None,
            "trick": [
                {"seat": (self.trick_leader + i) & 3, "card": CARD_STR[c]}
                for i, c in enumerate(self.trick)
            ],
            "led": SUITS[self.led] if self.led >= 0 else None,
            "trump_from": self.trump_from if self.tsuit >= 0 else None,
            "tricks_taken": list(self.won),
            "pile": self.pile,
            "run": {"seat": self.run_seat, "length": self.run_len}
            if self.spec.piles and self.run_seat >= 0
            else None,
            "trick_count": self.trick_count,
            "completed_tricks": self.completed_tricks(),
            "history": history,
            "legal_actions": self.legal_actions() if mine else [],
            "result": self.result.to_dict() if self.result else None,
        }


# The state of a freshly dealt hand, less what new_hand() fills in.
_INITIAL: dict[str, Any] = {
    "_legal": None,
    "_log": None,
    "_tricks_log": None,
    "asked_by": -1,
    "bids": (),
    "blind": False,
    "caller": None,
    "claimer": -1,
    "contract": None,
    "hidden_card": NO_CARD,
    "lead_trump": False,
    "led": -1,
    "passed": False,
    "phase": CALL,
    "pile": 0,
    "result": None,
    "revealed": False,
    "run_len": 0,
    "run_seat": -1,
    "thirteenth_card": NO_CARD,
    "trick": (),
    "trick_leader": -1,
    "trick_count": 0,
    "tsuit": -1,
    "trump_from": 0,
    "turned_card": NO_CARD,
    "won": (0, 0),
}


def new_hand(
    rules: Rules,
    dealer: int,
    deal: Sequence[Sequence[str]] | None = None,
    seed: str | None = None,
    client_seeds: Sequence[str] = (),
    n: int = 0,
) -> Hand:
    """Start a hand. Give either an explicit ``deal`` (4 lists of 13 cards in the order
    received) or a ``seed`` for :func:`fair.deal` (with optional client seeds and counter).
    The first chooser (the caller unless they pass) is the seat after the dealer."""
    if not isinstance(rules, Rules):
        raise TypeError("rules must be a courtpiece.Rules")
    if dealer not in (0, 1, 2, 3):
        raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
    if (deal is None) == (seed is None):
        raise ValueError("give exactly one of deal= or seed=")
    if deal is None:
        assert seed is not None
        deal = fair.deal(seed, list(client_seeds), n)
    deals = _check_deal(deal)
    h = object.__new__(Hand)
    fc = (dealer + 1) % 4
    spec = rules.spec
    values = h.__dict__
    values.update(_INITIAL)
    values["rules"] = rules
    values["dealer"] = dealer
    values["deals"] = deals
    values["to_move"] = fc
    values["hands"] = tuple([sum([_BIT[c] for c in row]) for row in deals])
    if spec.calling == "none":
        h._start_play(fc)  # CP-BR-2, CP-MK-2: no call; the player after the dealer leads
    elif rules.hukum_bidding:
        h._set(phase=BID)  # CP-HK-1
    return h


for _kind in ("call", "hide", "bid", "pass", "redeal", "thirteenth", "claim", "ask",
              "reveal", "timeout"):
    _DISPATCH[_kind] = getattr(Hand, "_do_" + _kind)
del _kind
