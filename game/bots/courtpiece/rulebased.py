"""The rule-based Court Piece bot as it played before the levels (RULES.md Part 1, every
variant): the benchmarks' "today's bot", and the base that ``medium`` corrects.

It reads nothing but the seat's view (``cp.Match.view(seat)`` or ``cp.Hand.view(seat)``), a
JSON-shaped dict, so it cannot cheat: it knows its own cards, the cards that have fallen,
the public cards (13th card, turned card, an opened hand) and, as the Hidden Rung caller,
its face-down card. From those it keeps count the way a careful player does:

* **unseen cards**: what is neither in its hand nor played nor shown; a card is a *boss*
  when no unseen card of its suit is higher (so its holder wins with it unless trumped);
* **voids**: a seat that did not follow a suit has none of it (the Hidden Rung caller's
  face-down card is the one exception, CP-HID-2, so that inference is skipped for them);
* **trumps out**: unseen trumps, as ``cp.trumps_out`` counts them (a public trump in an
  opponent's hand, such as the revealed Hidden Rung card, still counts as a threat).

Play is a small set of card-player's rules, in this order: a partner who is surely winning
is left alone (and gets a Mendikot ten thrown on the trick); otherwise the bot wins as
cheaply as it surely can (lowest boss of the led suit, lowest trump that holds), plays
"second hand low, third hand high" when nothing is sure, and otherwise throws its least
useful card. Leads cash bosses, draw trumps when the hand is strong in them, give partner
a ruff, and otherwise lead low from the longest side suit. Variant purpose sits on top:
Double Sar values each trick by the pile it would take (CP-DS-1/4): a partner on a
run is never overtaken, an opponent on a run is stopped, trumps are kept for the last
seat, a run is pressed with a non-ace under the ace rule; Mendikot by its tens (CP-MK-1):
thrown on partner's sure trick, kept off the opponents', won with when sure; Hidden Rung
decides when to ask and when to reveal (CP-HID-4/5/6), Be-Ranga and
Mendikot fix trump with the bot's best suit (CP-BR-1), Rung claims all 13 only when it is
certain (CP-RUNG-5), Hukum bids from a five-card point count (CP-HK-1/2/6). Thresholds
were set by duplicate self-play (each deal played twice, the teams swapped); the comments
beside them give the figures.

What a variant is for comes from its rule facts (``cp.Rules``: ``trump_known``, ``piles``,
``tens_count``, the piles' ace rule), built from the view's variant and options, never
from comparing the variant's name.

Everything is deterministic: ties are broken by a fixed order (higher rank, then suit
order S H D C), so the same view always gives the same action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from game.engine.courtpiece import Rules, TrumpKnown
from game.engine.courtpiece.cards import ACE_RANK, CARD_INDEX, CARD_STR, SUIT_MASK, SUITS, TEN_RANK

FULL = (1 << 52) - 1
# High-card points (A 4, K 3, Q 2, J 1), indexed by rank 2..A = 0..12.
HCP = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4)

# Hukum (CP-HK-1/6): five-card points needed for each bid. The count is high-card points
# (A 4, K 3, Q 2, J 1) + 3 per card of the suit + the suit's own high-card points again
# (trump honours win twice: as winners and as control). Measured in bot-against-bot play:
# from about 9 points a team makes 7 at least half the time (+7 against -7), and the
# contract is worth taking anyway, since its holder names trump and leads; raising the
# bar to 15 lost 56% of duplicate hands against this one. A bid of 8 pays only above 2/3
# (+8 against -16), which takes about 26 points; 9 about 32. The bot bids the lowest
# number that takes the contract and never goes past its level.
HUKUM_BID_STEPS = ((9, 7), (26, 8), (32, 9))


def choose(view: Mapping[str, Any], play: type[Play] | None = None) -> str:
    """An action for the seat whose view this is: one of its ``legal_actions``.

    ``view`` is ``cp.Match.view(seat)`` (the hand's view is under ``"hand"``) or
    ``cp.Hand.view(seat)``. Raises ValueError when the seat has nothing to do, or when
    the view names a variant or options ``cp.Rules`` does not know. Never returns
    ``timeout`` (it is never among a seat's legal actions). ``play``: the class that
    decides the card play (``medium`` passes its corrected one)."""
    hv = view["hand"] if isinstance(view.get("hand"), Mapping) else view
    legal: list[str] = list(hv.get("legal_actions") or [])
    if not legal:
        raise ValueError("the bot was asked to move when it is not its turn")
    if len(legal) == 1:
        return legal[0]
    phase = hv.get("phase")
    if phase == "bid":
        action = bid(hv, legal)
    elif phase == "call":
        action = call(hv, legal)
    else:
        action = (play or Play)(hv, legal).choose()
    # Every rule above picks from ``legal``; a slip is a bug to hear about, not to hide
    # behind a silent first-legal move (the playout tests rely on this being strict).
    if action not in legal:
        raise RuntimeError(f"bot chose {action!r}, which is not among {legal}")
    return action


def unseen_trumps(view: Mapping[str, Any]) -> int | None:
    """How many trumps the seat whose view this is has not seen, as the bot counts them
    when it plays (see the module docstring: a public trump in an opponent's hand counts,
    one in partner's does not), or None while the seat knows no trump suit. ``view`` is
    what :func:`choose` takes."""
    hv = view["hand"] if isinstance(view.get("hand"), Mapping) else view
    play = Play(hv, list(hv.get("legal_actions") or []))
    return play.unseen_trumps() if play.my_trump >= 0 else None


# ---------------------------------------------------------------------------- helpers
@lru_cache(maxsize=64)
def rules_for(variant: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    """The rules a view names. Built once per variant and option set: every decision
    asks them for the variant's facts, and the bot must stay cheap."""
    return Rules(variant, **dict(options))


def card_mask(cards: Sequence[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << CARD_INDEX[c]
    return m


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_cards(mask: int, suit: int) -> list[int]:
    """The cards of ``suit`` in ``mask``, low to high."""
    return cards_of(mask & SUIT_MASK[suit])


def above(card: int) -> int:
    """Mask of the cards of the same suit higher than ``card``."""
    return SUIT_MASK[card // 13] & ~((2 << card) - 1)


# ---------------------------------------------------------------------------- calling
def _five(hv: Mapping[str, Any]) -> list[int]:
    return [CARD_INDEX[c] for c in hv["hand"]]


def _suit_score(five: Sequence[int], suit: int) -> int:
    """How good ``suit`` is as trump from these cards: length first, then honours (a
    doubleton beats a bare ace; A-K doubleton beats three small)."""
    mine = [c for c in five if c // 13 == suit]
    return 5 * len(mine) + sum(HCP[c % 13] for c in mine)


def best_suit(five: Sequence[int], suits: Sequence[int]) -> int:
    # Ties: the suit with the higher top card, then the fixed order S H D C.
    def key(s: int) -> tuple[int, int, int]:
        tops = [c % 13 for c in five if c // 13 == s]
        return (_suit_score(five, s), max(tops, default=-1), -s)

    return max(suits, key=key)


def call(hv: Mapping[str, Any], legal: list[str]) -> str:
    """Trump from the first five (CP-4, CP-11a): name the longest strong suit; Rung's redeal
    or thirteenth card when the five are poor (CP-RUNG-1); pass to partner when weak in the
    Single Sar family (CP-SS-4); in Hidden Rung hide the lowest card of the chosen suit."""
    five = _five(hv)
    hides = [a for a in legal if a.startswith("hide:")]
    calls = [a for a in legal if a.startswith("call:")]
    suits = sorted({CARD_INDEX[a[5:]] // 13 for a in hides} or {SUITS.index(a[5]) for a in calls})
    if not suits:
        return legal[0]
    best = best_suit(five, suits)
    length = sum(1 for c in five if c // 13 == best)
    suit_hcp = sum(HCP[c % 13] for c in five if c // 13 == best)
    total_hcp = sum(HCP[c % 13] for c in five)
    # Redeal is only offered when no card is above a ten; with no three-card suit there
    # is nothing to call on, and a redeal costs nothing (CP-RUNG-5a).
    if "redeal" in legal and length <= 2:
        return "redeal"
    if "pass" in legal and length <= 2 and total_hcp <= 9:
        # No three-card suit: partner's five are as likely to hold one, and they cannot
        # pass back. (Self-play: passing these rather than only the poorest fives won
        # 52-53% of duplicate hands in Single Sar, Hidden Rung and Double Sar.)
        return "pass"
    if "thirteenth" in legal and length <= 2 and suit_hcp == 0:
        return "thirteenth"  # two small cards are no better than the 13th card's suit
    if hides:
        low = min(c for c in five if c // 13 == best)
        # The lowest: the high ones stay playable while the card is face down (CP-HID-2).
        return "hide:" + CARD_STR[low]
    return "call:" + SUITS[best]


def _hukum_level(five: Sequence[int], suit: int) -> int:
    """The highest bid (0: none) the five justify with ``suit`` as trump (CP-HK-1)."""
    mine = [c for c in five if c // 13 == suit]
    points = sum(HCP[c % 13] for c in five) + 3 * len(mine) + sum(HCP[c % 13] for c in mine)
    level = 0
    for need, bid in HUKUM_BID_STEPS:
        if points >= need:
            level = bid
    return level


def bid(hv: Mapping[str, Any], legal: list[str]) -> str:
    """Hukum bidding (CP-HK-1..6): bid the best suit's level when it beats the contract;
    never raise a partner's bid unless two tricks better; otherwise pass."""
    five = _five(hv)
    seat = hv["seat"]
    best = best_suit(five, range(4))
    level = _hukum_level(five, best)
    contract = hv.get("contract")
    high = 6
    if contract:
        high = contract[0]
        if (contract[1] - seat) % 2 == 0 and level < high + 2:
            return "pass" if "pass" in legal else legal[0]
    if level > high:
        bid = f"bid:{high + 1}{SUITS[best]}"
        if bid in legal:
            return bid
    return "pass" if "pass" in legal else legal[0]


# ---------------------------------------------------------------------------- play
class Play:
    """One decision in the play phase, from a hand view."""

    def __init__(self, hv: Mapping[str, Any], legal: list[str]) -> None:
        self.hv = hv
        self.legal = legal
        options: Mapping[str, Any] = hv.get("options") or {}
        rules = rules_for(hv.get("variant", ""), tuple(sorted(options.items())))
        # The variant's purpose, from its facts (see the module docstring).
        self.by_first_void = rules.trump_known is TrumpKnown.BY_FIRST_VOID  # CP-BR-1
        self.tens_game = rules.tens_count  # CP-MK-1
        self.piles = rules.piles  # CP-DS-1
        self.ace_keeps_pile = rules.collect is not None and rules.collect.ace_rule  # CP-DS-4
        self.seat: int = hv["seat"]
        self.partner = (self.seat + 2) % 4
        self.hand = card_mask(hv["hand"])
        hidden = hv.get("hidden") or {}
        self.caller: int | None = hv.get("caller")
        trump = hv.get("trump")
        self.trump = SUITS.index(trump) if trump else -1
        # The Hidden Rung caller knows the suit of the card they hid (CP-HID-1).
        self.hidden_card = -1
        self.my_trump = self.trump
        if hidden.get("card") and not hidden.get("revealed") and self.caller == self.seat:
            self.hidden_card = CARD_INDEX[hidden["card"]]
            self.my_trump = self.hidden_card // 13

        played = 0
        voids = [0, 0, 0, 0]  # per seat, a 4-bit set of suits it is known to lack
        for t in hv.get("completed_tricks") or []:
            played |= self._scan(t["cards"], voids)
        self.trick: list[tuple[int, int]] = [
            (e["seat"], CARD_INDEX[e["card"]]) for e in hv.get("trick") or []
        ]
        played |= self._scan(hv.get("trick") or [], voids)
        if self.caller is not None and hidden.get("placed") and self.trump >= 0:
            voids[self.caller] &= ~(1 << self.trump)  # CP-HID-2: the face-down card
        self.voids = voids
        self.played = played
        known = self.hand | played
        if self.hidden_card >= 0:
            known |= 1 << self.hidden_card
        self.unseen = FULL & ~known
        # Public cards still held (CP-RUNG-1 13th card, CP-SS-4 turned card, the Hidden
        # Rung card once revealed, an opened claim hand): one in partner's hand is no
        # threat to our cards. (cp.trumps_out counts all of them as seen; for an
        # opponent's we do not, since that opponent can still play it against us.)
        for holder, mask in self._public(hv):
            if holder == self.partner:
                self.unseen &= ~mask
        tf = hv.get("trump_from")
        self.trump_from: int = tf if isinstance(tf, int) else 0
        self.led = self.trick[0][1] // 13 if self.trick else -1
        self.pos = len(self.trick)

    def _public(self, hv: Mapping[str, Any]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        if self.caller is not None:
            for key in ("thirteenth_card", "turned_card"):
                if hv.get(key):
                    out.append((self.caller, 1 << CARD_INDEX[hv[key]]))
            hidden = hv.get("hidden") or {}
            if hidden.get("revealed") and hidden.get("card"):
                out.append((self.caller, 1 << CARD_INDEX[hidden["card"]]))  # CP-HID-4
        for opened in hv.get("open_hands") or []:
            out.append((opened["seat"], card_mask(opened["cards"])))
        return [(holder, mask & ~self.played) for holder, mask in out]

    @staticmethod
    def _scan(entries: Sequence[Mapping[str, Any]], voids: list[int]) -> int:
        played = 0
        led = -1
        for i, e in enumerate(entries):
            c = CARD_INDEX[e["card"]]
            played |= 1 << c
            if i == 0:
                led = c // 13
            elif c // 13 != led:
                voids[e["seat"]] |= 1 << led
        return played

    # -- small facts
    def plays(self) -> list[int]:
        return [CARD_INDEX[a[5:]] for a in self.legal if a.startswith("play:")]

    def friend(self, seat: int) -> bool:
        return (seat - self.seat) % 2 == 0

    def later(self) -> list[int]:
        """Seats still to play in this trick after us."""
        return [(self.seat + k) % 4 for k in range(1, 4 - self.pos)]

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def is_boss(self, card: int) -> bool:
        """No unseen card of the suit is higher: its holder wins unless it is trumped."""
        return not (self.unseen & above(card))

    def unseen_trumps(self) -> int:
        t = self.my_trump
        return (self.unseen & SUIT_MASK[t]).bit_count() if t >= 0 else 0

    def may_hold_trumps(self, seat: int) -> bool:
        t = self.trump
        if t < 0:
            # Be-Ranga/Mendikot before trump is fixed: any void card becomes a trump.
            return self.by_first_void
        return not self.void(seat, t) and bool(self.unseen & SUIT_MASK[t])

    def may_be_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` might not follow ``suit``: known void, or few of it are left."""
        if self.void(seat, suit):
            return True
        return (self.unseen & SUIT_MASK[suit]).bit_count() <= 2

    # -- who wins the trick
    def winner(self, trick: Sequence[tuple[int, int]]) -> tuple[int, int, bool]:
        """(seat, card, won by a trump) for the cards played so far (CP-7, CP-HID-3)."""
        led = trick[0][1] // 13
        trump, tf = self.trump, self.trump_from
        if trump < 0 and self.by_first_void:
            for i, (_, c) in enumerate(trick):
                if c // 13 != led:  # CP-BR-1: the first void card fixes trump
                    trump, tf = c // 13, i
                    break
        best = -1
        who = -1
        if trump >= 0 and trump != led:
            for i in range(tf, len(trick)):
                s, c = trick[i]
                if c // 13 == trump and c > best:
                    best, who = c, s
            if who >= 0:
                return who, best, True
        for s, c in trick:
            if c // 13 == led and c > best:
                best, who = c, s
        return who, best, False

    def beaten_later(self, card: int, by_trump: bool, trick: list[tuple[int, int]]) -> bool:
        """Whether an opponent still to play may beat ``card``, the trick's winning card."""
        opponents = [s for s in self.later() if not self.friend(s)]
        if not opponents:
            return False
        led = trick[0][1] // 13
        trump = self.trump
        if trump < 0 and self.by_first_void and by_trump:
            trump = card // 13
        for s in opponents:
            if by_trump:
                # Over-trumping needs a higher trump and no card of the led suit.
                if (
                    self.unseen & above(card)
                    and self.may_be_void(s, led)
                    and (not self.void(s, card // 13))
                ):
                    return True
                continue
            if self.unseen & above(card) and not self.void(s, led):
                return True
            if self.may_be_void(s, led) and self.may_hold_trumps(s) and trump != led:
                return True
        return False

    # -- what a trick is worth to us (positive: good for our team)
    def worth(self, seat: int) -> float:
        """The value for our team of ``seat`` winning the current trick."""
        sign = 1.0 if self.friend(seat) else -1.0
        if self.piles:
            # CP-DS-1: the pile goes to a *player* who wins two in a row.
            run = self.hv.get("run") or {}
            pile = int(self.hv.get("pile") or 0) + 1
            if run.get("seat") == seat and int(run.get("length") or 0) >= 1:
                return sign * pile
            return sign * 0.5
        value = 1.0
        if self.tens_game:
            tens = sum(1 for _, c in self.trick if c % 13 == TEN_RANK)
            value += 3.0 * tens
        return sign * value

    # -- decisions
    def choose(self) -> str:
        if "claim" in self.legal and self.sure_of_all():
            return "claim"
        if "reveal" in self.legal and self.should_reveal():
            return "reveal"
        if self.trick:
            if "ask" in self.legal and self.should_ask():
                return "ask"
            card = self.follow()
        else:
            card = self.lead()
        return "play:" + CARD_STR[card]

    def sure_of_all(self) -> bool:
        """CP-RUNG-5: claim only a certainty. Every card we hold is a top card of its suit
        and we hold at least 7 trumps, so leading trumps first draws every other trump
        (no one can hold more than 13 - 7) before the side suits are cashed."""
        if self.trump < 0:
            return False
        # Every card not ours and not played counts, partner's too: a trick partner wins
        # hands them the lead, and their play is not ours to promise.
        others = FULL & ~self.hand & ~self.played
        for s in range(4):
            mine = self.hand & SUIT_MASK[s]
            if not mine:
                continue
            lowest = mine & -mine
            if others & SUIT_MASK[s] & ~(lowest - 1):
                return False  # some card of this suit beats our lowest
        trumps = (self.hand & SUIT_MASK[self.trump]).bit_count()
        return trumps >= 7 or trumps == 13 - (self.played & SUIT_MASK[self.trump]).bit_count()

    def should_reveal(self) -> bool:
        """CP-HID-6: the caller reveals when leading with trumps strong enough to draw."""
        if self.hidden_card < 0:
            return False
        t = self.my_trump
        mine = (self.hand & SUIT_MASK[t]) | (1 << self.hidden_card)
        count = mine.bit_count()
        top = max(cards_of(mine))
        has_boss = not (self.unseen & above(top))
        side = self.hand & ~SUIT_MASK[t]
        if not side:
            return True  # nothing else to lead
        return count >= 5 or (count >= 4 and has_boss)

    def should_ask(self) -> bool:
        """CP-HID-4: void in the led suit, ask for the reveal when the trick is going to
        the other side; asking forces us to trump (CP-HID-5), so leave a partner's trick
        alone."""
        who, card, by_trump = self.winner(self.trick)
        if self.friend(who) and not self.beaten_later(card, by_trump, self.trick):
            return False
        # The caller knows the trump and gets the face-down card back to play with; a
        # partner whose card may yet be beaten is left to it rather than over-trumped.
        return self.caller == self.seat or not self.friend(who)

    def follow(self) -> int:
        trick = self.trick
        who, card, by_trump = self.winner(trick)
        options = self.plays()
        if not options:
            raise ValueError("no card to play")
        if self.trump < 0 and self.by_first_void and not any(c // 13 == self.led for c in options):
            # CP-BR-1: whatever we throw names trump and wins the trick as it stands, so the
            # only choice is which suit becomes trump.
            return self.fix_trump(options)
        winners = [c for c in options if self.winner([*trick, (self.seat, c)])[0] == self.seat]
        mine_worth = self.worth(self.seat)
        now_worth = self.worth(who)
        partner_holds = self.friend(who) and not self.beaten_later(card, by_trump, trick)
        if partner_holds and now_worth >= mine_worth:
            return self.give(options, ours=True)
        if self.friend(who) and now_worth >= mine_worth:
            # Partner is winning but may be beaten: secure it only with a sure card -
            # unless partner's winning it is worth more than our winning it (Double Sar:
            # partner on a run takes the pile; our card would only start our own run).
            sure = [c for c in winners if self.holds(c)]
            if sure and now_worth <= mine_worth + 0.5:
                return self.cheapest(sure)
            return self.give(options, ours=False)
        # The trick is going against us (or, in Double Sar, to the wrong one of us).
        if not winners:
            return self.give(options, ours=False)
        sure = [c for c in winners if self.holds(c)]
        if self.tens_game and not sure:
            # Mendikot: every trick may carry a ten later, so win it now with any card
            # but a ten (a ten that may be beaten stays home). Self-play preferred this
            # to second-hand-low.
            sure = [c for c in winners if c % 13 != TEN_RANK]
        if sure:
            pick = self.cheapest(sure)
            if self.worth_spending(pick):
                return pick
            return self.give(options, ours=False)
        if self.piles and now_worth <= -1.5:
            # CP-DS-1: the trick is going to the opponent who won the last one, which
            # gives them the whole pile: stop them now, sure or not (second hand low
            # would leave it to partner, who may not be able to).
            return self.cheapest(winners)
        partner_to_come = self.partner in self.later()
        if partner_to_come:
            # Second hand low: partner plays last and may win it cheaply.
            return self.give(options, ours=False)
        # Third hand high: make the last player pay for the trick.
        led_winners = [c for c in winners if c // 13 == self.led]
        if led_winners:
            return self.top_of_sequence(max(led_winners))
        return self.cheapest(winners)

    def holds(self, card: int) -> bool:
        """Whether ``card``, played now, surely wins the trick."""
        trick = [*self.trick, (self.seat, card)]
        who, c, by_trump = self.winner(trick)
        return who == self.seat and not self.beaten_later(c, by_trump, trick)

    def worth_spending(self, card: int) -> bool:
        """Double Sar: a trump is spent only by the last player, who then surely wins.
        Earlier in the trick an over-trump can take it and the trump is gone; kept, it
        stops or takes a pile later. (Measured in self-play: trumping second or third to
        stop a run, even for a big pile, loses more hands than it saves.)"""
        if not self.piles:
            return True
        return card // 13 != self.trump or self.trump == self.led or self.pos == 3

    def cheapest(self, cards: Sequence[int]) -> int:
        """The card that costs least: a non-trump before a trump, then the lowest."""
        return min(
            cards, key=lambda c: (c // 13 == self.my_trump and self.led != c // 13, c % 13, c // 13)
        )

    def top_of_sequence(self, card: int) -> int:
        """The lowest card we hold that is as strong as ``card``: walking down, cards that
        have fallen do not count, our own are equivalent, an unseen one stops us (so from
        A-K we lead the K, which is as good as the ace)."""
        low = card
        below = card - 1
        while below >= (card // 13) * 13:
            if self.hand >> below & 1:
                low = below
            elif not self.played >> below & 1:
                break
            below -= 1
        return low

    def keep_value(self, card: int, ours: bool) -> float:
        """How much we would rather keep ``card`` (the lowest is thrown)."""
        suit, rank = card // 13, card % 13
        value = float(rank)
        if suit == self.my_trump:
            value += 14.0
        if self.is_boss(card):
            value += 6.0
        length = (self.hand & SUIT_MASK[suit]).bit_count()
        value += 0.4 * length  # throw from short suits: a void lets us trump later
        if self.tens_game and rank == TEN_RANK:
            # CP-MK-1: a ten on a trick we win is one captured; on theirs, one lost.
            value += -30.0 if ours else 30.0
        return value

    def give(self, options: Sequence[int], ours: bool) -> int:
        """A card for a trick we are not trying to win (``ours``: partner is winning it)."""
        follow = [c for c in options if c // 13 == self.led]
        if self.trump < 0 and self.by_first_void and not follow:
            return self.fix_trump(options)
        pool = follow or list(options)
        if not follow and not ours and self.trump >= 0:
            # Do not waste a trump on a lost trick.
            side = [c for c in pool if c // 13 != self.trump]
            pool = side or pool
        return min(pool, key=lambda c: (self.keep_value(c, ours), c // 13))

    def fix_trump(self, options: Sequence[int]) -> int:
        """Be-Ranga/Mendikot: our first void card names trump (CP-BR-1): make it our best
        suit, and play its lowest card, which wins unless someone over-trumps it."""
        suits = sorted({c // 13 for c in options})

        def strength(s: int) -> tuple[int, int, int]:
            mine = suit_cards(self.hand, s)
            return (3 * len(mine) + sum(HCP[c % 13] for c in mine), mine[-1], -s)

        best = max(suits, key=strength)
        mine = [c for c in options if c // 13 == best]
        if self.tens_game:
            tens = [c for c in mine if c % 13 == TEN_RANK]
            if tens and self.pos == 3:
                return tens[0]  # last to play: our ten is a trump that cannot be beaten
        return min(mine)

    # -- leading
    def lead(self) -> int:
        options = self.plays()
        if not options:
            raise ValueError("no card to play")
        t = self.trump
        trumps = [c for c in options if c // 13 == t] if t >= 0 else []
        side = [c for c in options if c // 13 != t] if t >= 0 else list(options)
        if trumps and self.draw_trumps(trumps):
            return self.lead_from_trumps(trumps)
        if self.tens_game:
            side_safe = [c for c in side if c % 13 != TEN_RANK or self.is_boss(c)]
            side = side_safe or side
        # Cash a boss where no opponent can trump it.
        bosses = [c for c in side if self.is_boss(c) and self.safe_lead(c // 13)]
        if self.hidden_card >= 0:
            # The face-down suit is no trump yet: keep its cards for after the reveal.
            others = [c for c in bosses if c // 13 != self.my_trump]
            bosses = others or bosses
        if bosses and self.piles and self.ace_keeps_pile and self.on_run():
            # CP-DS-4: a trick won with an ace takes no pile; win it with something else.
            bosses = [c for c in bosses if c % 13 != ACE_RANK] or bosses
        if bosses:
            if self.tens_game:
                # An ace or king that may pull an opponent's ten out first.
                return max(bosses, key=lambda c: (self.unseen_ten(c // 13), c % 13, -(c // 13)))
            return self.top_of_sequence(max(bosses, key=lambda c: (c % 13, -(c // 13))))
        # A suit partner is void in and can trump, opponents not known to be void.
        if t >= 0:
            for c in sorted(side, key=lambda c: (c % 13, c // 13)):
                s = c // 13
                if (
                    self.void(self.partner, s)
                    and self.may_hold_trumps(self.partner)
                    and self.safe_lead(s)
                ):
                    return c
        if trumps and not side:
            return self.lead_from_trumps(trumps)
        pool = side or options
        return self.lead_low(pool)

    def on_run(self) -> bool:
        run = self.hv.get("run") or {}
        return run.get("seat") == self.seat and int(run.get("length") or 0) >= 1

    def unseen_ten(self, suit: int) -> bool:
        return bool(self.unseen >> (suit * 13 + TEN_RANK) & 1)

    def safe_lead(self, suit: int) -> bool:
        """No opponent is known void in ``suit`` while it might still hold a trump."""
        for s in ((self.seat + 1) % 4, (self.seat + 3) % 4):
            if self.void(s, suit) and self.may_hold_trumps(s) and suit != self.trump:
                return False
        return True

    def draw_trumps(self, trumps: Sequence[int]) -> bool:
        """Lead trumps while they are out and we hold the top one or more than them."""
        out = self.unseen_trumps()
        if out == 0:
            return False
        opponents_trumpless = all(
            self.void(s, self.trump) for s in ((self.seat + 1) % 4, (self.seat + 3) % 4)
        )
        if opponents_trumpless:
            return False  # only partner can hold them: do not pull partner's trumps
        top = max(trumps)
        if self.is_boss(top) and len(trumps) >= 2:
            return True
        return len(trumps) >= out + 1

    def lead_from_trumps(self, trumps: Sequence[int]) -> int:
        top = max(trumps)
        if self.is_boss(top):
            return self.top_of_sequence(top)
        return min(trumps)

    def lead_low(self, pool: Sequence[int]) -> int:
        """Low from the longest suit (ties: the stronger suit), avoiding suits an opponent
        can trump and, in Mendikot, our tens."""

        def suit_key(s: int) -> tuple[int, int, int]:
            mine = suit_cards(self.hand, s)
            return (len(mine), sum(HCP[c % 13] for c in mine), -s)

        suits = sorted({c // 13 for c in pool}, key=suit_key, reverse=True)
        safe = [s for s in suits if self.safe_lead(s)] or suits
        for s in safe:
            cards = [c for c in pool if c // 13 == s]
            if self.tens_game:
                cards = [c for c in cards if c % 13 != TEN_RANK] or cards
            if cards:
                return min(cards)
        return min(pool)
