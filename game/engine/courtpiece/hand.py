"""One hand of Court Piece as an immutable state machine (docs/RULES.md Part 1).

``Hand.apply(action)`` returns a new ``Hand``; the old one never changes. The phases are
explicit: ``call`` (trump decided on the first five cards), ``bid`` (Hukum), ``play``,
``over``. What variants disagree on comes from the pieces of ``rules`` (see
``behaviour.py``): the hand calls them and never asks which variant it is.

Cards are ints and hands are bitmasks (see ``cards.py``); only ``view()``, ``history``
and messages turn them into strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import fair
from ..protocol import IllegalAction, check_turn
from .actions import BID, BID_ACTION, CALL, OVER, PARSE, PLAY, PLAY_ACTION, bid_code, parse
from .behaviour import PlaceFaceDown, Trick, TrumpCard, TurnUp
from .cards import CARD_INDEX, CARD_STR, FULL_DECK, SUIT_MASK, SUIT_NAMES, SUITS, display_order
from .results import HandResult
from .rules import Rules

__all__ = ["Hand", "HandResult", "IllegalAction", "new_hand", "unwind"]

NO_CARD = -1
_BIT = tuple(1 << c for c in range(52))
_ALL_BUT = tuple(FULL_DECK ^ bit for bit in _BIT)

# Play actions for every 13-bit pattern of one suit, built at import (~30k small tuples,
# a few MB): legal-move generation is then a few shifts and list indexings instead of a
# loop over cards.
_SUIT_TABLES: tuple[list[tuple[str, ...]], ...] = tuple(
    [tuple(PLAY_ACTION[13 * s + r] for r in range(13) if bits >> r & 1) for bits in range(8192)]
    for s in range(4)
)

Deal = tuple[tuple[int, ...], ...]
# Persistent cons lists (previous node, entry...): apply() appends in O(1) and no list is
# copied per action; the list is built only when someone asks for it.
ActionLog = tuple[Any, int, str] | None
TrickLog = tuple[Any, Trick] | None


def unwind(node: Any) -> list[Any]:
    """The entries of a persistent log of (previous, entry) pairs, oldest first."""
    out = []
    while node is not None:
        node, entry = node
        out.append(entry)
    out.reverse()
    return out


class Hand:
    """The state of one hand. Build it with :func:`new_hand`; change it with :meth:`apply`.

    Seats, cards and suits are ints; -1 means none. Every field is declared here; the
    ones with a value start at it (``new_hand`` sets the others).
    """

    # No __slots__: the whole state is one __dict__, so apply() copies it in one C call
    # (``dict.update`` into an empty dict clones the table) and the hot paths read it with
    # d["..."]. Re-measured for issue #8, it still pays: a generated copy of 31 slots is
    # ~10% slower and assigning a copied dict to __dict__ ~20% slower than the update.

    rules: Rules
    dealer: int
    deals: Deal  # the deal as received: 4 tuples of 13 cards (the first five first)
    # The cards each seat holds and may play; the face-down Hidden Rung card is kept
    # apart in hidden_card until it is revealed.
    hands: tuple[int, int, int, int]
    to_move: int | None
    phase: str = CALL
    caller: int | None = None
    passed: bool = False  # CP-SS-4: the first chooser passed the call to partner
    bids: tuple[tuple[int, int, int], ...] = ()  # (seat, tricks or 0 for a pass, suit)
    contract: tuple[int, int] | None = None  # (tricks bid, bidder)
    tsuit: int = -1  # trump (Hidden: -1 until the reveal; Be-Ranga: until fixed)
    # Position in the current trick from which the trump suit counts as trump (CP-HID-3:
    # cards of that suit played before the reveal do not; CP-BR-1: nor before fixing).
    trump_from: int = 0
    thirteenth_card: int = NO_CARD  # CP-RUNG-1, shown to all
    turned_card: int = NO_CARD  # CP-SS-4: turned up after the partner's timeout
    hidden_card: int = NO_CARD  # CP-HID-1: the face-down trump card
    blind: bool = False  # CP-HID-7: placed by the clock, unseen even by the caller
    revealed: bool = False
    asked_by: int = -1  # CP-HID-5: this seat asked for the reveal in this trick
    lead_trump: bool = False  # CP-HID-6: revealed while leading: must lead a trump
    claimer: int = -1  # CP-RUNG-5
    trick: tuple[int, ...] = ()  # cards of the current trick in play order (flat)
    trick_leader: int = -1
    led: int = -1  # suit of the current trick's first card
    trick_count: int = 0
    won: tuple[int, int] = (0, 0)  # tricks per team (Double Sar: collected from piles)
    pile: int = 0  # CP-DS-1: tricks waiting on the table
    run_seat: int = -1  # CP-DS-1: who won the last trick, and how many in a row
    run_len: int = 0
    result: HandResult | None = None
    _legal: tuple[str, ...] | None = None  # legal actions, computed on first use
    _log: ActionLog = None
    _tricks_log: TrickLog = None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable: apply() returns a new state")

    def __delattr__(self, name: str) -> None:
        # Deleting a field would quietly fall back to the class default.
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
        return self.phase == CALL and self.rules.calling.timers

    def tricks(self) -> list[Trick]:
        """Completed tricks as (leader, cards in play order, winner), oldest first."""
        return unwind(self._tricks_log)

    def completed_tricks(self) -> list[dict[str, Any]]:
        return [
            {
                "leader": leader,
                "cards": [
                    {"seat": (leader + i) & 3, "card": CARD_STR[c]} for i, c in enumerate(cards)
                ],
                "winner": winner,
            }
            for leader, cards, winner in self.tricks()
        ]

    def legal_actions(self) -> list[str]:
        d = self.__dict__
        legal = d["_legal"]
        if legal is None:  # a memo, not state: the same for every holder of this Hand
            play = d["phase"] == PLAY
            legal = d["_legal"] = self._legal_play() if play else self._compute_legal()
        return list(legal)

    def apply(self, action: object, seat: int | None = None) -> Hand:
        state = self.__dict__
        if state["phase"] == OVER:
            raise IllegalAction("the hand is over")
        if seat is not None:
            check_turn(state["to_move"], seat)
        text = action if type(action) is str else str(action)  # richer actions stringify
        parsed = PARSE.get(text)
        kind, arg = parsed if parsed is not None else parse(text)
        legal = state["_legal"]
        if legal is None:
            legal = state["_legal"] = self._compute_legal()
        if text not in legal and not (kind == "timeout" and self.timeout_legal):
            raise IllegalAction(WHY_REFUSED[kind](self, arg))
        new = object.__new__(Hand)
        d = new.__dict__
        d.update(state)  # the one-dict copy (see the comment at the top of the class)
        d["_legal"] = None
        actor = state["to_move"]
        d["_log"] = (state["_log"], actor, text)
        if kind != "play":
            TRANSITIONS[kind](new, arg)
            return new
        # Playing a card is most of every hand: done inline (bots search through here).
        # A card is in one hand only, so clearing its bit in all four clears it in the
        # player's: cheaper than copying the tuple into a list to change one entry.
        keep = _ALL_BUT[arg]
        h0, h1, h2, h3 = state["hands"]
        d["hands"] = (h0 & keep, h1 & keep, h2 & keep, h3 & keep)
        trick = state["trick"] + (arg,)
        suit = arg // 13
        n = len(trick)
        if n == 1:
            d["led"] = suit
            d["trick_leader"] = actor
        elif (
            state["tsuit"] < 0
            and suit != state["led"]
            and state["rules"].calling.trump_by_first_void
        ):
            # CP-BR-1: the first card played by a void player fixes trump, and is a trump
            # in its own trick.
            d["tsuit"] = suit
            d["trump_from"] = n - 1
        if n < 4:
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
    @property
    def _mover(self) -> int:
        """``to_move`` where the hand is not over (every transition and explanation)."""
        seat = self.to_move
        assert seat is not None
        return seat

    def _compute_legal(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_play()
        if phase == CALL:
            return self.rules.calling.actions(self, self._mover)
        if phase == BID:
            return self._legal_bid()
        return ()

    def _legal_bid(self) -> tuple[str, ...]:
        high = self.contract[0] if self.contract else 6  # CP-HK-2: higher numbers only
        bids = (BID_ACTION[bid_code(n, s)] for n in range(high + 1, 14) for s in range(4))
        return (*bids, "pass")

    def _legal_play(self) -> tuple[str, ...]:
        d = self.__dict__
        seat: int = d["to_move"]
        m: int
        if d["trick"] and d["asked_by"] != seat:
            held: int = d["hands"][seat]
            led: int = d["led"]
            bits = (held >> (13 * led)) & 0x1FFF
            if bits:  # the common case: following suit; no ask, no claim is possible then
                return _SUIT_TABLES[led][bits]
            m = held
        elif d["lead_trump"] or d["asked_by"] == seat:
            m = self._trumps_first(seat)
        else:
            m = d["hands"][seat]
        s, h, di, c = _SUIT_TABLES
        out = s[m & 0x1FFF] + h[(m >> 13) & 0x1FFF] + di[(m >> 26) & 0x1FFF] + c[m >> 39]
        if d["hidden_card"] >= 0 and not d["revealed"]:
            out += self._reveal_actions(seat)
        if d["trick_count"] == 0 and not d["trick"] and d["claimer"] == -1 and d["rules"].claim:
            out += ("claim",)  # CP-RUNG-5
        return out

    def _trumps_first(self, seat: int) -> int:
        """The cards ``seat`` may play when a rule makes them play a trump if they can:
        after revealing while leading (CP-HID-6) or after asking for it (CP-HID-5)."""
        held = self.hands[seat]
        return held & SUIT_MASK[self.tsuit] or held

    def _reveal_actions(self, seat: int) -> tuple[str, ...]:
        """While the Hidden Rung card lies face down: ``ask`` for a void player (CP-HID-4;
        the face-down card never counts for following, CP-HID-2), ``reveal`` for the
        caller about to lead (CP-HID-6)."""
        if self.trick:
            if self.asked_by != seat and not self.hands[seat] & SUIT_MASK[self.led]:
                return ("ask",)
            return ()
        return ("reveal",) if seat == self.caller else ()

    # ------------------------------------------------------------------ explanations
    # One per action kind (the table WHY_REFUSED below): why that action is refused now.
    def _why_timeout(self, _: int) -> str:
        return (
            "timeout is applied by the table only while trump is being called, in a game "
            "whose calling has a timer"
        )

    def _why_play(self, card: int) -> str:
        if self.phase != PLAY:
            return f"no cards are played yet: the hand is in the {self.phase} phase"
        seat = self._mover
        name = CARD_STR[card]
        if card == self.hidden_card and seat == self.caller and not self.revealed:
            return f"{name} is face down: it cannot be played until it is revealed"
        if not self.hands[seat] >> card & 1:
            return f"you do not hold {name}"
        if not self.trick:
            return f"after revealing you must lead a trump ({SUIT_NAMES[self.tsuit]})"
        if self.asked_by == seat and self.tsuit >= 0:
            trumps = SUIT_NAMES[self.tsuit]
            return f"you asked for the reveal, so you must play a trump ({trumps})"
        return f"must follow {SUIT_NAMES[self.led]}"

    def _why_not_calling(self, kind: str) -> str | None:
        if self.phase == CALL:
            return None
        return "trump has already been decided" if self.phase == PLAY else f"cannot {kind} now"

    def _why_call(self, suit: int) -> str:
        if (why := self._why_not_calling("call")) is not None:
            return why
        if self.rules.calling.hides:
            return "in this game the caller hides a card ('hide:XX') instead of naming a suit"
        return f"cannot call {SUIT_NAMES[suit]}: none of your first five cards is one"

    def _why_hide(self, card: int) -> str:
        if (why := self._why_not_calling("hide")) is not None:
            return why
        if not self.rules.calling.hides:
            return "this game does not hide a trump card"
        return f"{CARD_STR[card]} is not one of your first five cards"

    def _why_redeal(self, _: int) -> str:
        if (why := self._why_not_calling("redeal")) is not None:
            return why
        if not self.rules.calling.redeal:
            return "a redeal is not allowed in this game"
        return "a redeal is allowed only when none of your first five cards is above a ten"

    def _why_thirteenth(self, _: int) -> str:
        if (why := self._why_not_calling("thirteenth")) is not None:
            return why
        return "calling the thirteenth card is not allowed in this game"

    def _why_pass(self, _: int) -> str:
        if self.phase != CALL:
            return "cannot pass now"
        if not self.rules.calling.may_pass:
            return "the caller cannot pass in this game"
        return "the call was passed once already: the partner must choose"

    def _why_bid(self, _: int) -> str:
        if self.phase != BID:
            return "there is no bidding now"
        high = self.contract[0] if self.contract else 6
        return f"a bid must be higher than {high}"

    def _why_claim(self, _: int) -> str:
        return "a claim is made only by the first leader, before the first card is played"

    def _why_ask(self, _: int) -> str:
        if self.hidden_card < 0 or self.revealed:
            return "there is no face-down trump card to reveal"
        if not self.trick:
            return "ask for the reveal only when you cannot follow the led suit"
        return f"you can still follow {SUIT_NAMES[self.led]}: ask only when void"

    def _why_reveal(self, _: int) -> str:
        if self.hidden_card < 0 or self.revealed:
            return "there is no face-down trump card to reveal"
        return "only the caller reveals, and only when leading"

    # ------------------------------------------------------------------ transitions
    # One per action kind but play (the table TRANSITIONS below). Each changes a fresh
    # copy made by apply(), never a state anyone else holds.
    def _set(self, **values: Any) -> None:
        self.__dict__.update(values)

    def _start_play(self, leader: int) -> None:
        self._set(phase=PLAY, to_move=leader, trick=(), led=-1)

    def _do_call(self, suit: int) -> None:
        seat = self._mover
        self._set(caller=seat, tsuit=suit, trump_from=0)
        self._start_play(seat)

    def _do_thirteenth(self, _: int) -> None:
        seat = self._mover
        card = self.deals[seat][12]
        self._set(caller=seat, tsuit=card // 13, trump_from=0, thirteenth_card=card)
        self._start_play(seat)

    def _do_redeal(self, _: int) -> None:
        seat = self._mover
        result = HandResult("redeal", None, (0, 0), (0, 0), caller=seat)
        self._set(caller=seat, phase=OVER, to_move=None, result=result)

    def _do_pass(self, _: int) -> None:
        seat = self._mover
        if self.phase == BID:
            self._set(bids=(*self.bids, (seat, 0, -1)))
            self._next_bidder()
        else:
            self._set(passed=True, to_move=(seat + 2) % 4)

    def _do_timeout(self, _: int) -> None:
        # CP-SS-4: the first chooser's timeout passes; the partner's is the calling's.
        if not self.passed:
            self._set(passed=True, to_move=(self._mover + 2) % 4)
        else:
            self._place_trump_card(self.rules.calling.partner_timeout(self))

    def _place_trump_card(self, step: TrumpCard) -> None:
        """Do what the calling decided about the trump card, and start the play."""
        seat, card = step.seat, step.card
        if isinstance(step, TurnUp):
            # CP-SS-4: the card's suit is trump and the card is shown to all.
            self._set(caller=seat, tsuit=card // 13, trump_from=0, turned_card=card)
        else:
            # CP-HID-1, CP-HID-7: the card leaves the hand face down as trump.
            hands = list(self.hands)
            hands[seat] &= ~_BIT[card]
            self._set(caller=seat, hidden_card=card, blind=step.blind, hands=tuple(hands))
        self._start_play(seat)

    def _do_hide(self, card: int) -> None:
        self._place_trump_card(PlaceFaceDown(self._mover, card, blind=False))

    def _do_bid(self, code: int) -> None:
        number, suit = divmod(code, 4)
        seat = self._mover
        self._set(contract=(number, seat), bids=(*self.bids, (seat, number, suit)))
        if number == 13:
            self._finish_bidding()  # CP-HK-3
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        if len(self.bids) == 4:  # CP-HK-1: once round the table
            self._finish_bidding()
        else:
            self._set(to_move=(self._mover + 1) % 4)

    def _finish_bidding(self) -> None:
        if self.contract is None:
            # CP-HK-4: all passed; the first bidder must take 7 and names trump from 5.
            fc = self.first_chooser
            self._set(contract=(7, fc), phase=CALL, to_move=fc)
            return
        # CP-HK-5: the highest bid is the last one made; its suit is trump.
        suit = next(su for _, n, su in reversed(self.bids) if n)
        bidder = self.contract[1]
        self._set(caller=bidder, tsuit=suit, trump_from=0)
        self._start_play(bidder)

    def _do_claim(self, _: int) -> None:
        self._set(claimer=self._mover)

    def _do_ask(self, _: int) -> None:
        seat = self._mover
        self._reveal_now()
        self._set(asked_by=seat)

    def _do_reveal(self, _: int) -> None:
        self._reveal_now()
        self._set(lead_trump=True)

    def _reveal_now(self) -> None:
        assert self.caller is not None  # only a placed card is revealed
        card = self.hidden_card
        hands = list(self.hands)
        hands[self.caller] |= _BIT[card]  # CP-HID-4: the card goes back into the hand
        self._set(
            revealed=True,
            tsuit=card // 13,
            trump_from=len(self.trick),  # CP-HID-3: trump counts from this moment
            hands=tuple(hands),
        )

    def _finish_trick(self, cards: tuple[int, ...]) -> None:
        """The fourth card is down: the trick goes to its winner (or to the pile), and the
        hand stops when its variant's ending says so, or after the 13th trick."""
        d = self.__dict__
        position, best = _trick_winner(cards, d["tsuit"], d["trump_from"])
        leader = d["trick_leader"]
        winner = (leader + position) & 3
        count = d["trick_count"] + 1
        # Single stores, not _set(): this runs once per trick of every hand.
        d["trick"] = ()
        d["lead_trump"] = False  # CP-HID-6 binds only the lead just made
        d["led"] = -1
        d["trick_count"] = count
        d["asked_by"] = -1
        d["trump_from"] = 0
        d["_tricks_log"] = (d["_tricks_log"], (leader, cards, winner))
        d["to_move"] = winner
        rules = d["rules"]
        take = 1 if rules.collect is None else self._collect(winner, best, count)
        won0, won1 = d["won"]
        if winner & 1:
            won1 += take
        else:
            won0 += take
        d["won"] = (won0, won1)
        if count == 13 or rules.ending(won0, won1):
            self._set(phase=OVER, to_move=None, result=rules.scoring.score(self))

    def _collect(self, winner: int, best: int, count: int) -> int:
        """Double Sar's piles (CP-DS-1): the tricks ``winner`` collects now."""
        d = self.__dict__
        collect = self.rules.collect
        assert collect is not None
        take, d["pile"], d["run_len"] = collect.take(
            d["pile"], d["run_seat"], d["run_len"], winner, best, count
        )
        d["run_seat"] = winner
        return take

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as a JSON-serialisable dict (``None``: spectator).

        This is the only description of a hand that leaves the engine.
        """
        return self.views((seat,))[seat]

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(seat)`` for each of ``seats``, built together.

        A table sends every seat's view after each move, and most of a view (the tricks,
        the bids, the log) is the same for every seat: built once here, not once per
        seat. The views share those parts, so read them and do not change them (they
        are for encoding); a view of your own to change comes from :meth:`view`."""
        for seat in seats:
            if seat is not None and seat not in (0, 1, 2, 3):
                raise ValueError(f"seat must be 0..3 or None, not {seat!r}")
        variant, options = self.rules.variant, self.rules.options
        hand_counts = self._hand_counts()
        thirteenth, turned = _card_or_none(self.thirteenth_card), _card_or_none(self.turned_card)
        open_hands = self._open_hands()
        bids = [
            {"seat": s, "bid": f"{n}{SUITS[su]}" if n else "pass"} for s, n, su in self.bids
        ]
        contract = list(self.contract) if self.contract else None
        trick = [
            {"seat": (self.trick_leader + i) & 3, "card": CARD_STR[c]}
            for i, c in enumerate(self.trick)
        ]
        led = SUITS[self.led] if self.led >= 0 else None
        trump_from = self.trump_from if self.tsuit >= 0 else None
        tricks_taken = list(self.won)
        run = {"seat": self.run_seat, "length": self.run_len} if self.run_seat >= 0 else None
        completed = self.completed_tricks()
        # The log differs from seat to seat only for a seat that hid a card not yet
        # turned up (_history_view); one seat's view needs no public copy.
        history = self._history_view(seats[0]) if len(seats) == 1 else None
        public_history = self._history_view(None) if history is None else history
        hiders = (
            {actor for actor, action in self.history if action.startswith("hide:")}
            if history is None and self.hidden_card >= 0 and not self.revealed
            and self.phase != OVER
            else ()
        )
        to_move = self.to_move
        result = self.result.to_dict() if self.result else None
        return {
            seat: {
                "variant": variant,
                "options": options,
                "seat": seat,
                "dealer": self.dealer,
                "first_chooser": self.first_chooser,
                "phase": self.phase,
                "to_move": to_move,
                "caller": self.caller,
                "passed": self.passed,
                "trump": self.trump,
                "hand": self._own_cards(seat),
                "hand_counts": hand_counts,
                "hidden": self._hidden_view(seat),
                "thirteenth_card": thirteenth,
                "turned_card": turned,
                "open_hands": open_hands,
                "bids": bids,
                "contract": contract,
                "trick": trick,
                "led": led,
                "trump_from": trump_from,
                "tricks_taken": tricks_taken,
                "pile": self.pile,
                "run": run,
                "trick_count": self.trick_count,
                "completed_tricks": completed,
                "history": self._history_view(seat) if seat in hiders else public_history,
                "legal_actions": self.legal_actions() if seat is not None and seat == to_move
                else [],
                "result": result,
            }
            for seat in seats
        }

    def _own_cards(self, seat: int | None) -> list[str]:
        if seat is None:
            return []
        if self.phase in (CALL, BID):  # CP-4: while calling, the first five only
            return display_order(sum(_BIT[c] for c in self.deals[seat][:5]))
        return display_order(self.hands[seat])

    def _hand_counts(self) -> list[int]:
        if self.phase in (CALL, BID):
            return [5, 5, 5, 5]
        counts = [h.bit_count() for h in self.hands]
        if self.hidden_card >= 0 and not self.revealed:
            assert self.caller is not None
            counts[self.caller] += 1  # the face-down card is still the caller's
        return counts

    def _hidden_view(self, seat: int | None) -> dict[str, Any] | None:
        """The Hidden Rung card: shown to its caller only (never when blind, CP-HID-7)
        until it is revealed or the hand ends (CP-HID-8)."""
        if self.hidden_card < 0:
            if not self.rules.calling.hides:
                return None
            return {"placed": False, "blind": False, "revealed": False, "card": None}
        show = (
            self.revealed or self.phase == OVER or (seat == self.caller and not self.blind)
        )
        return {
            "placed": True,
            "blind": self.blind,
            "revealed": self.revealed,
            "card": CARD_STR[self.hidden_card] if show else None,
        }

    def _history_view(self, seat: int | None) -> list[list[Any]]:
        """The log, with ``hide:XX`` shown as ``hide`` to all but the caller until the
        card is turned up."""
        secret = not self.revealed and self.phase != OVER
        return [
            [actor, "hide" if secret and actor != seat and action.startswith("hide:") else action]
            for actor, action in self.history
        ]

    def _open_hands(self) -> list[dict[str, Any]]:
        """CP-RUNG-5: an 82 claim lays the claimer's hand open."""
        if self.claimer < 0:
            return []
        return [{"seat": self.claimer, "cards": display_order(self.hands[self.claimer])}]


def _card_or_none(card: int) -> str | None:
    return CARD_STR[card] if card >= 0 else None


def _trick_winner(cards: tuple[int, ...], trump: int, trump_from: int) -> tuple[int, int]:
    """CP-7: (position, card) of the highest trump, else of the highest card of the led
    suit. Only cards from ``trump_from`` on count as trumps (CP-HID-3, CP-BR-1)."""
    led = cards[0] // 13
    if trump >= 0 and trump != led:
        position = best = -1
        for i in range(trump_from, 4):
            card = cards[i]
            if card // 13 == trump and card > best:
                best, position = card, i
        if position >= 0:
            return position, best
    position, best = 0, cards[0]
    for i in (1, 2, 3):
        card = cards[i]
        if card // 13 == led and card > best:
            best, position = card, i
    return position, best


# Action kind -> transition (every kind but play, which apply() does inline). This table
# and WHY_REFUSED are public so the tests can check that every action kind has both.
TRANSITIONS: dict[str, Callable[[Hand, int], None]] = {
    "call": Hand._do_call,
    "hide": Hand._do_hide,
    "bid": Hand._do_bid,
    "pass": Hand._do_pass,
    "redeal": Hand._do_redeal,
    "thirteenth": Hand._do_thirteenth,
    "claim": Hand._do_claim,
    "ask": Hand._do_ask,
    "reveal": Hand._do_reveal,
    "timeout": Hand._do_timeout,
}

# Action kind -> why it is refused now.
WHY_REFUSED: dict[str, Callable[[Hand, int], str]] = {
    "play": Hand._why_play,
    "call": Hand._why_call,
    "hide": Hand._why_hide,
    "bid": Hand._why_bid,
    "pass": Hand._why_pass,
    "redeal": Hand._why_redeal,
    "thirteenth": Hand._why_thirteenth,
    "claim": Hand._why_claim,
    "ask": Hand._why_ask,
    "reveal": Hand._why_reveal,
    "timeout": Hand._why_timeout,
}

# The fields a fresh hand starts with, from the declarations above (new_hand() adds the
# five without a default).
_INITIAL: dict[str, Any] = {
    name: Hand.__dict__[name] for name in Hand.__annotations__ if name in Hand.__dict__
}


def _check_deal(deal: Sequence[Sequence[str]]) -> tuple[Deal, tuple[int, int, int, int]]:
    """The deal as card ints, and each seat's cards as a mask; ValueError if it is not 52
    distinct cards, 13 to a seat. (Part of every hand's cost, hence map() and sum() over
    small ints, which stay in C.)"""
    if len(deal) != 4 or any(len(cards) != 13 for cards in deal):
        raise ValueError("a deal is four lists of 13 cards, one per seat")
    try:  # fast path: canonical card strings
        rows = tuple([tuple(map(CARD_INDEX.__getitem__, cards)) for cards in deal])
    except (KeyError, TypeError):
        rows = tuple(
            tuple(_card_in_deal(text, seat) for text in cards) for seat, cards in enumerate(deal)
        )
    m0, m1, m2, m3 = [sum(map(_BIT.__getitem__, row)) for row in rows]
    # 52 powers of two add up to 52 one-bits only if no two are equal (no carries).
    if m0 + m1 + m2 + m3 != FULL_DECK:
        seen: set[int] = set()
        for row in rows:
            for c in row:
                if c in seen:
                    raise ValueError(f"card {CARD_STR[c]} is dealt twice")
                seen.add(c)
    return rows, (m0, m1, m2, m3)


def _card_in_deal(text: object, seat: int) -> int:
    idx = CARD_INDEX.get(str(text).strip().upper().replace("10", "T"))
    if idx is None:
        raise ValueError(f"unknown card {text!r} in seat {seat}'s deal")
    return idx


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
    The first chooser (the caller unless they pass) is the seat after the dealer. The hand
    keeps the cards, never the seed."""
    if not isinstance(rules, Rules):
        raise TypeError("rules must be a courtpiece.Rules")
    if dealer not in (0, 1, 2, 3):
        raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
    if (deal is None) == (seed is None):
        raise ValueError("give exactly one of deal= or seed=")
    if seed is not None:
        deal = fair.deal(seed, list(client_seeds), n)
    assert deal is not None
    deals, hands = _check_deal(deal)
    h = object.__new__(Hand)
    values = h.__dict__
    values.update(_INITIAL)
    values["rules"] = rules
    values["dealer"] = dealer
    values["deals"] = deals
    values["hands"] = hands
    values["to_move"] = (dealer + 1) % 4  # CP-3: the first chooser (CP-BR-2: the leader)
    values["phase"] = rules.calling.first_phase  # call, bid (CP-HK-1) or play (CP-BR-2)
    return h
