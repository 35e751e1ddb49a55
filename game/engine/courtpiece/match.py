"""A match: the toss, dealer rotation, trump-caller succession, running scores, the end.

``Match.apply`` returns a new Match and starts the next hand by itself when one ends, so
a match, like a hand, is a replay of its action log from ``(rules, seed)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import fair
from .cards import RANKS
from .hand import Hand, IllegalAction, new_hand, unwind
from .rules import Rules

# CP-RUNG-7 / CP-SS-5 / CP-HK-7 defaults. Rung counts points, Hukum with bidding the
# difference between the teams, everything else hands won.
DEFAULT_TARGET = {"points": 52, "difference": 52, "hands": 10}


def _measure(rules: Rules) -> str:
    if rules.variant == "rung":
        return "points"
    if rules.hukum_bidding:
        return "difference"
    return "hands"


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


class Match:
    """``Match(rules, seed=…)``: a whole match. Immutable; ``apply`` returns a new one."""

    __slots__ = (
        "_log",
        "_seeds",
        "client_seeds",
        "deal_count",
        "hand",
        "hands",
        "measure",
        "rules",
        "scores",
        "seed",
        "tally",
        "target",
        "toss",
        "toss_winner",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        seed: str,
        client_seeds: Sequence[str] = (),
        target: int | None = None,
        chain: int | None = None,
    ) -> None:
        """``chain=N``: ``seed`` is the top of a hash chain of N server seeds (see
        ``fair.chain``); hand k is dealt from the k-th and its seed is shown in the view as
        soon as the hand ends. Without it one seed deals every hand (counter = hand number)
        and is shown when the match ends."""
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a courtpiece.Rules")
        if not isinstance(seed, str) or not seed:
            raise ValueError("a match needs a non-empty seed string")
        measure = _measure(rules)
        if target is None:
            target = DEFAULT_TARGET[measure]
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"target must be a positive whole number, not {target!r}")
        if chain is not None and (
            not isinstance(chain, int) or isinstance(chain, bool) or chain < 1
        ):
            raise ValueError(f"chain must be a positive whole number, not {chain!r}")
        seeds = tuple(fair.chain(seed, chain)) if chain is not None else None
        winner_seat, rounds = toss(seeds[0] if seeds else seed, client_seeds)
        # CP-11: the toss winner calls first and the dealer sits before them; in Hukum the
        # toss picks the dealer. Be-Ranga and Mendikot have no caller: the toss winner leads.
        dealer = winner_seat if rules.variant == "hukum" else (winner_seat - 1) % 4
        self.rules = rules
        self.seed = seed
        self._seeds = seeds
        self.client_seeds = tuple(client_seeds)
        self.target = target
        self.measure = measure
        self.toss = rounds
        self.toss_winner = winner_seat
        self.scores = (0, 0)
        self.tally: dict[str, tuple[int, int]] = {}
        self.hands: tuple[Hand, ...] = ()
        self.winner: int | None = None
        self.deal_count = 0
        self._log: Any = None
        self.hand = self._deal(dealer)

    def _server_seed(self, n: int) -> str:
        if self._seeds is None:
            return self.seed
        if n >= len(self._seeds):
            raise IllegalAction("the match has used every seed of its chain")
        return self._seeds[n]

    def _deal(self, dealer: int) -> Hand:
        hand = new_hand(
            self.rules,
            dealer,
            seed=self._server_seed(self.deal_count),
            client_seeds=self.client_seeds,
            n=self.deal_count,
        )
        self.deal_count += 1
        return hand

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
    def difference(self) -> int:
        """Team 0's lead over team 1 (CP-HK-7 shows the score this way)."""
        return self.scores[0] - self.scores[1]

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else self.hand.legal_actions()

    def apply(self, action: object, seat: int | None = None) -> Match:
        if self.is_over:
            raise IllegalAction("the match is over")
        hand = self.hand.apply(action, seat)  # raises IllegalAction, nothing changes
        new = object.__new__(Match)
        for name in Match.__slots__:
            setattr(new, name, getattr(self, name))
        new._log = (self._log, hand.last_action)
        new.hand = hand
        if hand.is_over:
            new._hand_ended(hand)
        return new

    def _hand_ended(self, hand: Hand) -> None:
        result = hand.result
        assert result is not None
        self.hands = (*self.hands, hand)
        if result.kind != "redeal":
            s0, s1 = self.scores
            p0, p1 = result.points
            self.scores = (s0 + p0, s1 + p1)
            t = self.tally.get(result.kind, (0, 0))
            self.tally = {
                **self.tally,
                result.kind: (t[0] + 1, t[1]) if result.winner == 0 else (t[0], t[1] + 1),
            }
            self.winner = self._match_winner()
        if self.winner is None:
            self.hand = self._deal(self._next_dealer(hand))

    def _match_winner(self) -> int | None:
        s0, s1 = self.scores
        if self.measure == "difference":  # CP-HK-7: 52 behind loses
            if s0 - s1 >= self.target:
                return 0
            if s1 - s0 >= self.target:
                return 1
            return None
        if s0 >= self.target:  # only one team scores in a hand, so no ties
            return 0
        if s1 >= self.target:
            return 1
        return None

    def _next_dealer(self, hand: Hand) -> int:
        result = hand.result
        assert result is not None
        dealer = hand.dealer
        variant = self.rules.variant
        if result.kind == "redeal":
            return dealer  # CP-RUNG-5a: the same caller gets a new deal
        if variant == "rung":
            caller = hand.caller
            assert caller is not None
            if result.winner != caller % 2:
                nxt = (caller + 1) % 4  # CP-RUNG-6: the right passes to the next seat
            elif result.kind in ("court", "biyasi"):
                nxt = (caller + 2) % 4  # all 13: the caller's partner calls
            else:
                nxt = caller
            return (nxt - 1) % 4  # CP-11: the dealer sits before the caller
        if variant == "hukum":
            losers = 1 - result.winner  # CP-HK-8: the losing team deals
            return dealer if dealer % 2 == losers else (dealer + 1) % 4
        return (dealer + 1) % 4  # CP-SS-1: the deal passes on one seat each hand

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """The current hand's view plus what everyone knows about the match."""
        return {
            "hand": self.hand.view(seat),
            "match": {
                "scores": list(self.scores),
                "difference": self.difference,
                "measure": self.measure,
                "target": self.target,
                "tally": {k: list(v) for k, v in self.tally.items()},
                "hands_played": len(self.hands),
                "toss": [{str(s): c for s, c in r.items()} for r in self.toss],
                "is_over": self.is_over,
                "winner": self.winner,
            },
            "fairness": self.fairness(),
        }

    def fairness(self) -> dict[str, Any]:
        """What a player needs to check the deals, and never a seed before it is safe.

        ``server_seeds[k]`` is hand k's server seed (counter ``k``), listed once hand k
        is over; with a chain, ``commitment`` is of the first seed and each later seed
        hashes to the one before it."""
        done = len(self.hands)
        if self._seeds is not None:
            commitment = fair.commitment(self._seeds[0])
            revealed = list(self._seeds[:done])
        else:
            commitment = fair.commitment(self.seed)
            revealed = [self.seed] * done if self.is_over else []
        return {
            "scheme": "chain" if self._seeds is not None else "single",
            "commitment": commitment,
            "client_seeds": list(self.client_seeds),
            "hand": self.deal_count - 1,
            "server_seeds": revealed,
            "server_seed": self.seed if self.is_over and self._seeds is None else None,
        }

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.variant} scores={self.scores} hands={len(self.hands)} "
            f"winner={self.winner}>"
        )

