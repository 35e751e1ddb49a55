"""The variants (docs/RULES.md Part 1) and :class:`Rules`, a variant with its options.

A :class:`Variant` is made of the pieces in ``behaviour.py``: how trump is decided, when
a hand stops, how tricks are collected, how a hand scores, who deals next and how the
match is won. A piece that depends on a table option is a :class:`Choose` (or
:func:`by_option`), resolved once when ``Rules`` is built. The hand and the match only
call the resolved pieces, so **a new variant is one more entry in** :data:`VARIANTS`::

    Variant(
        "sar_to_the_end",
        calling=NameSuit(may_pass=True, timers=True),
        ending=all_thirteen,
        scoring=HandsScore(),
        succession=DEAL_PASSES_ON,
        measure=HANDS,
    )

``Rules(variant=...)`` also takes a ``Variant`` object, so one can be tried out without
being listed.

**Rule facts.** Pages, forms and bots ask a few questions of a game: when is trump known,
do tricks pile up, do the tens count, is the card play plain trick-taking, how is the
match measured. ``Rules`` answers them for its options (``rules.trump_known``,
``rules.piles``, ``rules.tens_count``, ``rules.plain_trick_taking``,
``rules.match_measure``) and ``Variant`` for every option set at once (the same names;
None where the answer depends on the options). Both work them out from the pieces, never
from the variant's name, so a new variant made of pieces knows its facts too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Any, Generic, TypeVar

from .behaviour import (
    CALLER_KEEPS_WINNING,
    DEAL_PASSES_ON,
    DIFFERENCE,
    HANDS,
    LOSERS_DEAL,
    POINTS,
    Bidding,
    ContractScore,
    Ending,
    HandsScore,
    HideCard,
    Measure,
    MendikotScore,
    NameSuit,
    NoCall,
    Piles,
    RungScore,
    Scoring,
    Succession,
    TrumpKnown,
    all_thirteen,
    court_needs_all_13,
    first_to_seven,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Option:
    """A table option: its default and every value it may take."""

    default: Any
    choices: tuple[Any, ...]

    def ordered(self) -> tuple[Any, ...]:
        """The choices, default first."""
        return (self.default, *(c for c in self.choices if c != self.default))


@dataclass(frozen=True)
class Choose(Generic[T]):
    """A piece that depends on the table options: ``pick(options)`` gives the piece."""

    pick: Callable[[Mapping[str, Any]], T]


def by_option(name: str, cases: Mapping[Any, T]) -> Choose[T]:
    """The piece ``cases[value of option name]``."""
    return Choose(lambda options: cases[options[name]])


@dataclass(frozen=True, eq=False)  # compared by identity: pieces hold functions
class Variant:
    name: str
    calling: NameSuit | Choose[NameSuit]
    ending: Ending | Choose[Ending]
    scoring: Scoring | Choose[Scoring]
    succession: Succession | Choose[Succession]
    measure: Measure | Choose[Measure]
    collect: Piles | Choose[Piles | None] | None = None  # None: one trick counts one
    claim: bool | Choose[bool] = False  # CP-RUNG-5: the 82 claim is offered
    options: Mapping[str, Option] = field(default_factory=dict)

    def option_sets(self) -> Iterator[dict[str, Any]]:
        """Every combination of this variant's option values, defaults first."""
        names = list(self.options)
        choices = [self.options[n].ordered() for n in names]
        for values in product(*choices):
            yield dict(zip(names, values, strict=True))

    @property
    def kinds(self) -> frozenset[str]:
        """Every result kind a hand of this variant can end with, over all its options."""
        out: frozenset[str] = frozenset()
        for rules in self._every_rules:
            out |= rules.kinds
        return out

    # Rule facts that hold for every option set (see Rules for their meaning); None
    # where the options change the answer.
    @property
    def trump_known(self) -> TrumpKnown | None:
        return self._same(lambda r: r.trump_known)

    @property
    def piles(self) -> bool | None:
        return self._same(lambda r: r.piles)

    @property
    def tens_count(self) -> bool | None:
        return self._same(lambda r: r.tens_count)

    @property
    def plain_trick_taking(self) -> bool | None:
        return self._same(lambda r: r.plain_trick_taking)

    @property
    def match_measure(self) -> str | None:
        """Hukum: None ("difference" with bidding, "hands" without)."""
        return self._same(lambda r: r.match_measure)

    @cached_property
    def _every_rules(self) -> tuple[Rules, ...]:
        # Kept on the instance (cached_property writes __dict__ directly, which a frozen
        # dataclass allows): a variant's option sets never change.
        return tuple(Rules(self, **options) for options in self.option_sets())

    def _same(self, fact: Callable[[Rules], T]) -> T | None:
        values = {fact(rules) for rules in self._every_rules}
        return values.pop() if len(values) == 1 else None


def _resolve(piece: T | Choose[T], options: Mapping[str, Any]) -> T:
    return piece.pick(options) if isinstance(piece, Choose) else piece


_BOOL = (True, False)
SINGLE_SAR_CALL = NameSuit(may_pass=True, timers=True)  # CP-SS-4, CP-SS-4a

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(  # CP-RUNG
            "rung",
            calling=Choose(
                lambda o: NameSuit(thirteenth=o["thirteenth"], redeal=o["redeal"])
            ),
            ending=by_option("court", {"all13": court_needs_all_13, "first7": first_to_seven}),
            scoring=RungScore(),
            succession=CALLER_KEEPS_WINNING,
            measure=POINTS,
            claim=Choose(lambda o: o["court"] == "all13" and o["claim82"]),
            options={
                "redeal": Option(True, _BOOL),  # redeal when no first-five card beats a ten
                "thirteenth": Option(True, _BOOL),  # the caller may take their 13th's suit
                "court": Option("all13", ("all13", "first7")),  # what counts as court
                "claim82": Option(True, _BOOL),  # the leader may open their hand, claim 13
            },
        ),
        Variant(  # CP-SS
            "single_sar",
            calling=SINGLE_SAR_CALL,
            ending=first_to_seven,
            scoring=HandsScore(),
            succession=DEAL_PASSES_ON,
            measure=HANDS,
        ),
        Variant(  # CP-HID
            "hidden",
            calling=HideCard(may_pass=True, timers=True),
            ending=first_to_seven,
            scoring=HandsScore(),
            succession=DEAL_PASSES_ON,
            measure=HANDS,
        ),
        Variant(  # CP-DS
            "double_sar",
            calling=SINGLE_SAR_CALL,
            ending=first_to_seven,
            collect=by_option("ace_rule", {False: Piles(), True: Piles(ace_rule=True)}),
            scoring=HandsScore(),
            succession=DEAL_PASSES_ON,
            measure=HANDS,
            options={"ace_rule": Option(False, _BOOL)},  # an ace's trick never takes the pile
        ),
        Variant(  # CP-BR
            "be_ranga",
            calling=NoCall(),
            ending=first_to_seven,
            scoring=HandsScore(other_side="kot"),  # nobody calls: either side's 7 is kot
            succession=DEAL_PASSES_ON,
            measure=HANDS,
        ),
        Variant(  # CP-MK
            "mendikot",
            calling=NoCall(),
            ending=all_thirteen,
            scoring=MendikotScore(),
            succession=DEAL_PASSES_ON,
            measure=HANDS,
        ),
        Variant(  # CP-HK; bidding=False is CP-HK-9, the old household way
            "hukum",
            calling=by_option("bidding", {True: Bidding(), False: NameSuit()}),
            ending=by_option("bidding", {True: all_thirteen, False: first_to_seven}),
            scoring=Choose(
                lambda o: ContractScore()
                if o["bidding"]
                else HandsScore(other_side="kot" if o["kot_both_sides"] else "win")
            ),
            succession=LOSERS_DEAL,  # CP-HK-8, also without bidding
            measure=by_option("bidding", {True: DIFFERENCE, False: HANDS}),
            options={
                "bidding": Option(True, _BOOL),  # off: the caller names trump (CP-HK-9)
                "kot_both_sides": Option(False, _BOOL),  # no-bid: the other side's kot counts
            },
        ),
    )
}


class Rules:
    """A variant and its options: ``Rules(variant="rung", court="first7")``.

    Immutable and hashable. Unknown variants, unknown options and bad values raise
    ValueError naming what is wrong. Options read as attributes (``rules.court``); the
    variant's pieces, resolved for these options, are ``calling``, ``ending``,
    ``collect``, ``scoring``, ``succession``, ``measure`` and ``claim``; ``kinds`` is
    every result kind a hand can end with.

    Rule facts, read from those pieces:

    - ``trump_known`` — when everyone knows trump (a :class:`~.behaviour.TrumpKnown`,
      a str): ``"from_start"``, named, turned up or bid before the first card (Rung,
      Single Sar, Double Sar, Hukum); ``"when_revealed"``, face down until turned up
      (Hidden Rung, CP-HID-1); ``"by_first_void"``, fixed in play by the first card of a
      player who cannot follow (Be-Ranga, Mendikot, CP-BR-1).
    - ``piles`` — won tricks pile up in the middle until a player takes them (Double
      Sar, CP-DS-1), so a trick won is not yet a trick counted.
    - ``tens_count`` — the tens decide the hand, not the number of tricks alone
      (Mendikot, CP-MK-1).
    - ``plain_trick_taking`` — the card play is plain trick-taking: one trump suit known
      to all from the first card, each trick counted to its winner's team, the hand
      decided by how many tricks each team takes (Rung, Single Sar, Hukum): what a
      double-dummy solver models.
    - ``match_measure`` — how the match is won: ``"points"`` (first to a target,
      CP-RUNG-7), ``"hands"`` (hands won, CP-SS-5) or ``"difference"`` (a lead,
      CP-HK-7); the same as ``Match.measure``.
    """

    __slots__ = (
        "_options",
        "_values",
        "calling",
        "claim",
        "collect",
        "ending",
        "kinds",
        "match_measure",
        "measure",
        "piles",
        "plain_trick_taking",
        "scoring",
        "spec",
        "succession",
        "tens_count",
        "trump_known",
        "variant",
    )
    variant: str
    spec: Variant
    calling: NameSuit
    ending: Ending
    collect: Piles | None
    scoring: Scoring
    succession: Succession
    measure: Measure
    claim: bool
    kinds: frozenset[str]
    trump_known: TrumpKnown
    piles: bool
    tens_count: bool
    plain_trick_taking: bool
    match_measure: str
    _options: tuple[tuple[str, Any], ...]
    _values: dict[str, Any]

    def __init__(self, variant: str | Variant = "rung", **options: Any) -> None:
        spec = variant if isinstance(variant, Variant) else self._known(variant)
        values = self._checked(spec, options)
        pieces: dict[str, Any] = {
            "calling": _resolve(spec.calling, values),
            "ending": _resolve(spec.ending, values),
            "collect": _resolve(spec.collect, values),
            "scoring": _resolve(spec.scoring, values),
            "succession": _resolve(spec.succession, values),
            "measure": _resolve(spec.measure, values),
            "claim": _resolve(spec.claim, values),
        }
        pieces["kinds"] = pieces["calling"].kinds | pieces["scoring"].kinds
        pieces.update(self._facts(pieces))
        for name, value in {
            "variant": spec.name,
            "spec": spec,
            "_options": tuple(sorted(values.items())),
            "_values": values,
            **pieces,
        }.items():
            object.__setattr__(self, name, value)

    @staticmethod
    def _facts(pieces: Mapping[str, Any]) -> dict[str, Any]:
        """The rule facts (see the class docstring), from the resolved pieces."""
        trump_known: TrumpKnown = pieces["calling"].trump_known
        piles = pieces["collect"] is not None
        tens_count: bool = pieces["scoring"].counts_tens
        return {
            "trump_known": trump_known,
            "piles": piles,
            "tens_count": tens_count,
            # A solver counts tricks as they are won, with trump fixed before the play.
            "plain_trick_taking": trump_known is TrumpKnown.FROM_START
            and not piles
            and not tens_count,
            "match_measure": pieces["measure"].name,
        }

    @staticmethod
    def _known(name: str) -> Variant:
        if name not in VARIANTS:
            raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")
        return VARIANTS[name]

    @staticmethod
    def _checked(spec: Variant, options: Mapping[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name, value in options.items():
            if name not in spec.options:
                known = ", ".join(spec.options) or "none"
                raise ValueError(f"unknown option {name!r} for {spec.name} (options: {known})")
            opt = spec.options[name]
            # bool is an int subclass: insist on the exact type so 1 is not True.
            if not any(value == c and type(value) is type(c) for c in opt.choices):
                raise ValueError(
                    f"bad value {value!r} for option {name!r} of {spec.name}; "
                    f"choose one of {', '.join(map(repr, opt.choices))}"
                )
            values[name] = value
        for name, opt in spec.options.items():
            values.setdefault(name, opt.default)
        return values

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Rules is immutable")

    def __getattr__(self, name: str) -> Any:
        # Options read as attributes: rules.court, rules.ace_rule, ...
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(name)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "options": self.options}

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rules)
            and self.spec is other.spec
            and self._options == other._options
        )

    def __hash__(self) -> int:
        return hash((self.variant, self._options))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self._options)
        return f"Rules(variant={self.variant!r}{opts})"
