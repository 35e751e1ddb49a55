"""Variants are data: a :class:`Variant` says how trump is decided, when a hand ends and
how it scores; :class:`Rules` is a variant plus its table options.

The hand state machine in ``hand.py`` reads these fields instead of testing variant names,
so a new variant is a new ``Variant`` entry, not new branches scattered through play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Calling = Literal["rung", "single_sar", "hidden", "none", "hukum"]
Ending = Literal["rung", "seven", "piles", "thirteen"]
Scoring = Literal["rung", "hands", "mendikot", "hukum"]


@dataclass(frozen=True)
class Option:
    default: Any
    choices: tuple[Any, ...]
    help: str


@dataclass(frozen=True)
class Variant:
    name: str
    calling: Calling  # how trump is decided before play
    ending: Ending  # when the hand stops
    scoring: Scoring
    rule_ids: str  # the RULES.md section, for messages and docs
    timers: bool = False  # CP-SS-4a: `timeout` has a meaning while calling
    may_pass: bool = False  # CP-SS-4: the one pass to partner
    trump_by_first_void: bool = False  # CP-BR-1 / CP-MK-2
    piles: bool = False  # CP-DS-1
    options: dict[str, Option] = field(default_factory=dict)


_BOOL = (True, False)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "rung", calling="rung", ending="rung", scoring="rung", rule_ids="CP-RUNG",
            options={
                "redeal": Option(True, _BOOL, "redeal when no first-five card beats a ten"),
                "thirteenth": Option(True, _BOOL, "caller may take the suit of their 13th card"),
                "court": Option("all13", ("all13", "first7"), "what counts as court"),
                "claim82": Option(True, _BOOL, "the leader may open their hand and claim all 13"),
            },
        ),
        Variant(
            "single_sar", calling="single_sar", ending="seven", scoring="hands",
            rule_ids="CP-SS", timers=True, may_pass=True,
        ),
        Variant(
            "hidden", calling="hidden", ending="seven", scoring="hands",
            rule_ids="CP-HID", timers=True, may_pass=True,
        ),
        Variant(
            "double_sar", calling="single_sar", ending="piles", scoring="hands",
            rule_ids="CP-DS", timers=True, may_pass=True, piles=True,
            options={
                "ace_rule": Option(False, _BOOL, "a trick won with an ace never takes the pile"),
            },
        ),
        Variant(
            "be_ranga", calling="none", ending="seven", scoring="hands",
            rule_ids="CP-BR", trump_by_first_void=True,
        ),
        Variant(
            "mendikot", calling="none", ending="thirteen", scoring="mendikot",
            rule_ids="CP-MK", trump_by_first_void=True,
        ),
        Variant(
            "hukum", calling="hukum", ending="thirteen", scoring="hukum", rule_ids="CP-HK",
            options={
                "bidding": Option(True, _BOOL, "bid for trump (off: the old way, caller names it)"),
                "kot_both_sides": Option(False, _BOOL, "no-bid: the other side's kot counts"),
            },
        ),
    )
}


class Rules:
    """A variant and its options: ``Rules(variant="rung", court="first7")``.

    Immutable and hashable. Unknown variants, unknown options and bad values raise
    ValueError naming what is wrong.
    """

    __slots__ = (
        "_options",
        "_values",
        "claim_allowed",
        "court_all13",
        "ending",
        "hukum_bidding",
        "spec",
        "variant",
    )

    def __init__(self, variant: str = "rung", **options: Any) -> None:
        if variant not in VARIANTS:
            raise ValueError(
                f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}"
            )
        spec = VARIANTS[variant]
        values: dict[str, Any] = {}
        for name, value in options.items():
            if name not in spec.options:
                known = ", ".join(spec.options) or "none"
                raise ValueError(f"unknown option {name!r} for {variant} (options: {known})")
            opt = spec.options[name]
            # bool is an int subclass: insist on the exact type so 1 is not True.
            if not any(value == c and type(value) is type(c) for c in opt.choices):
                raise ValueError(
                    f"bad value {value!r} for option {name!r} of {variant}; "
                    f"choose one of {', '.join(map(repr, opt.choices))}"
                )
            values[name] = value
        for name, opt in spec.options.items():
            values.setdefault(name, opt.default)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "spec", spec)
        object.__setattr__(self, "_options", tuple(sorted(values.items())))
        object.__setattr__(self, "_values", values)
        # Derived switches the state machine asks about on every trick: computed once.
        court_all13 = variant == "rung" and values["court"] == "all13"
        object.__setattr__(self, "court_all13", court_all13)
        # CP-RUNG-5: the 82 claim exists only when court means all 13 tricks.
        object.__setattr__(self, "claim_allowed", court_all13 and values["claim82"])
        bidding = variant == "hukum" and values["bidding"]
        object.__setattr__(self, "hukum_bidding", bidding)
        # CP-HK-9: Hukum's old no-bid way stops at 7 tricks.
        ending = "seven" if variant == "hukum" and not bidding else spec.ending
        object.__setattr__(self, "ending", ending)

    def __setattr__(self, name: str, value: Any) -> None:
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
            and self.variant == other.variant
            and self._options == other._options
        )

    def __hash__(self) -> int:
        return hash((self.variant, self._options))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self._options)
        return f"Rules(variant={self.variant!r}{opts})"
