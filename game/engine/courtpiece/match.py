"""A match: the toss, dealer rotation, trump-caller succession, running scores, the end.

``Match.apply`` returns a new Match and starts the next hand by itself when one ends, so
a match, like a hand, is a replay of its action log from ``(rules, seed)``. Who deals
next and how the match is won are the variant's pieces (``rules.succession``,
``rules.measure``); the match never asks which variant it plays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .. import fair
from ..protocol import IllegalAction
from .cards import RANKS
from .hand import Hand, new_hand, unwind
from .results import MatchResult
from .rules import Rules


def toss(
    seed: str, client_seeds: Sequence[str] = ()
) -> tuple[int, list[dict[int, str]]]:
    """CP-11: every player draws a card; the highest wins; ties among the highest redraw.

    Returns the winning seat and the draws, round by round ({seat: card})."""
    contenders = [0, 1, 2, 3]
    rounds: list[dict[int, str]] = []
    n = 0
    while True:
        cards = fair.draw(seed, client_seeds, n, len(contenders))
        drawn = dict(zip(contenders, cards, strict=True))
        rounds.append(drawn)
        best = max(RANKS.index(c[0]) for c in drawn.values())
        contenders = [s for s, c in drawn.items() if RANKS.index(c[0]) == best]
        if len(contenders) == 1:
            return contenders[0], rounds
        n += 1


def _positive(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")
    return value


class Match:
    """``Match(rules, seed=…)``: a whole match. Immutable (its mappings are read-only
    views); ``apply`` returns a new one."""

    __slots__ = (
        "_given",
        "_log",
        "_seeds",
        "client_seeds",
        "deal_count",
        "hand",
        "hands",
        "rules",
        "scores",
        "seed",
        "tally",
        "target",
        "toss",
        "toss_winner",
        "winner",
    )
    rules: Rules
    seed: str  # server side only: shown in the view once safe (see fairness())
    _seeds: tuple[str, ...] | None  # with chain=N: the server seed of every hand
    client_seeds: tuple[str, ...]
    target: int
    toss: tuple[Mapping[int, str], ...]  # CP-11: the draws, round by round ({seat: card})
    toss_winner: int | None  # None: no toss, the first hand was given (first_hand=)
    scores: tuple[int, int]
    tally: Mapping[str, tuple[int, int]]  # result kind -> hands of that kind won per team
    hands: tuple[Hand, ...]  # the finished hands, redeals included
    winner: int | None
    deal_count: int  # hands dealt so far, the current one included
    hand: Hand  # the current hand (the last one once the match is over)
    _log: Any  # persistent log of (seat, action), see hand.unwind
    _given: bool  # the first hand was given (first_hand=), not dealt from a seed

    def __init__(
        self,
        rules: Rules,
        seed: str,
        client_seeds: Sequence[str] = (),
        target: int | None = None,
        chain: int | None = None,
        first_hand: tuple[int, Sequence[Sequence[str]]] | None = None,
    ) -> None:
        """``chain=N``: ``seed`` is the top of a hash chain of N server seeds (see
        ``fair.chain``); hand k is dealt from the k-th and its seed is shown in the view as
        soon as the hand ends. Without it one seed deals every hand (counter = hand number)
        and is shown when the match ends.

        ``first_hand=(dealer, deal)``: the first hand is not dealt from a seed but given
        (a deal played again): that dealer and those cards (``new_hand``'s ``deal``). No
        toss is drawn (the dealer is already fixed); every later hand is dealt from the
        seeds as usual, and ``fairness()`` lists counter 0 under ``given``."""
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a courtpiece.Rules")
        if not isinstance(seed, str) or not seed:
            raise ValueError("a match needs a non-empty seed string")
        target = _positive("target", rules.measure.default_target if target is None else target)
        seeds = None if chain is None else tuple(fair.chain(seed, _positive("chain", chain)))
        given: Hand | None = None
        winner_seat: int | None = None
        rounds: list[dict[int, str]] = []
        if first_hand is None:
            winner_seat, rounds = toss(seeds[0] if seeds else seed, client_seeds)
        else:
            if not isinstance(first_hand, tuple) or len(first_hand) != 2:
                raise ValueError("first_hand is (dealer, deal)")
            given = new_hand(rules, first_hand[0], deal=first_hand[1])  # checks both
        self._set(
            rules=rules,
            seed=seed,
            _seeds=seeds,
            client_seeds=tuple(client_seeds),
            target=target,
            toss=tuple(MappingProxyType(r) for r in rounds),
            toss_winner=winner_seat,
            scores=(0, 0),
            tally=MappingProxyType({}),
            hands=(),
            winner=None,
            deal_count=0,
            _log=None,
            _given=given is not None,
        )
        if given is not None:
            self._set(hand=given, deal_count=1)
        else:
            assert winner_seat is not None
            self._deal(rules.succession.first_dealer(winner_seat))  # CP-11

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Match is immutable: apply() returns a new state")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Match is immutable: apply() returns a new state")

    def _set(self, **values: Any) -> None:
        # Only on a Match being built (in __init__ or apply), never one anyone holds.
        for name, value in values.items():
            object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ surface
    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.hand.to_move

    @property
    def history(self) -> list[tuple[int, str]]:
        return unwind(self._log)

    @property
    def measure(self) -> str:
        """How the match is won: "points", "difference" or "hands"."""
        return self.rules.measure.name

    @property
    def difference(self) -> int:
        """Team 0's lead over team 1 (CP-HK-7 shows the score this way)."""
        return self.scores[0] - self.scores[1]

    @property
    def result(self) -> MatchResult | None:
        """None until the match is over; then who won, the final scores and the measure."""
        if self.winner is None:
            return None
        return MatchResult(self.winner, self.scores, self.measure, self.target, len(self.hands))

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else self.hand.legal_actions()

    def apply(self, action: object, seat: int | None = None) -> Match:
        if self.is_over:
            raise IllegalAction("the match is over")
        hand = self.hand.apply(action, seat)  # the turn check; raises, nothing changes
        new = object.__new__(Match)
        for name in Match.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        new._set(_log=(self._log, hand.last_action), hand=hand)
        if hand.is_over:
            new._hand_ended(hand)
        return new

    # ------------------------------------------------------------------ steps
    def _server_seed(self, n: int) -> str:
        if self._seeds is None:
            return self.seed
        if n >= len(self._seeds):
            raise IllegalAction("the match has used every seed of its chain")
        return self._seeds[n]

    def _deal(self, dealer: int) -> None:
        n = self.deal_count
        seed = self._server_seed(n)
        hand = new_hand(self.rules, dealer, seed=seed, client_seeds=self.client_seeds, n=n)
        self._set(hand=hand, deal_count=n + 1)

    def _hand_ended(self, hand: Hand) -> None:
        result = hand.result
        assert result is not None
        self._set(hands=(*self.hands, hand))
        if result.winner is None:  # a redeal: nothing scores, the same dealer deals again
            self._deal(hand.dealer)  # CP-RUNG-5a: so the same caller gets a new deal
            return
        self._score(result.kind, result.winner, result.points)
        if self.winner is None:
            self._deal(self.rules.succession.next_dealer(hand))

    def _score(self, kind: str, winner: int, points: tuple[int, int]) -> None:
        scores = (self.scores[0] + points[0], self.scores[1] + points[1])
        won = self.tally.get(kind, (0, 0))
        won = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
        self._set(
            scores=scores,
            tally=MappingProxyType({**self.tally, kind: won}),
            winner=self.rules.measure.winner(scores, self.target),
        )

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """The current hand's view plus what everyone knows about the match."""
        return self.views((seat,))[seat]

    def views(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(seat)`` for each of ``seats``, built together: the match's part once
        and the hand's common parts once (``Hand.views``), shared by the views (read
        them, do not change them; they are for encoding)."""
        hands = self.hand.views(seats)
        result = self.result
        match = {
            "scores": list(self.scores),
            "difference": self.difference,
            "measure": self.measure,
            "target": self.target,
            "tally": {k: list(v) for k, v in self.tally.items()},
            "hands_played": len(self.hands),
            "toss": [{str(s): c for s, c in r.items()} for r in self.toss],
            "is_over": self.is_over,
            "winner": self.winner,
            "result": result.to_dict() if result else None,
        }
        fairness = self.fairness()
        return {seat: {"hand": hands[seat], "match": match, "fairness": fairness} for seat in seats}

    def fairness(self) -> dict[str, Any]:
        """What a player needs to check the deals, and never a seed before it is safe.

        ``server_seeds[k]`` is hand k's server seed (counter ``k``), listed once hand k
        is over; with a chain, ``commitment`` is of the first seed and each later seed
        hashes to the one before it. ``hand`` is the counter of the hand being played."""
        done = len(self.hands)
        chained = self._seeds is not None
        if self._seeds is not None:
            commitment = fair.commitment(self._seeds[0])
            revealed = list(self._seeds[:done])
        else:
            commitment = fair.commitment(self.seed)
            revealed = [self.seed] * done if self.is_over else []
        block: dict[str, Any] = {
            "scheme": "chain" if chained else "single",
            "commitment": commitment,
            "client_seeds": list(self.client_seeds),
            "hand": self.deal_count - 1,
            "server_seeds": revealed,
            "server_seed": self.seed if self.is_over and not chained else None,
        }
        if self._given:
            block["given"] = [0]
        return block

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.variant} scores={self.scores} hands={len(self.hands)} "
            f"winner={self.winner}>"
        )
