"""What the pages know of each Court Piece variant, beside the engine's own facts.

The engine's ``cp.VARIANTS`` says how a variant plays (its pieces, its options and the
rule facts derived from them); this adds what players read: its title, the labels of its
table options, and where its rules page says how trump is chosen. Render, forms, the
lobby and the ratings read these instead of matching variant names, so a new variant is
one engine entry and one entry here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from game.engine import courtpiece as cp


@dataclass(frozen=True)
class VariantPage:
    code: str
    title: Promise
    # the labels of the engine's table options (cp.Variant.options), by option name
    option_labels: Mapping[str, Promise] = field(default_factory=dict)
    # where its rules page says how trump is chosen: (guide slug, anchor); None: nobody
    # chooses (trump is fixed during play)
    call_rules: tuple[str, str] | None = None

    @property
    def engine(self) -> cp.Variant:
        return cp.VARIANTS[self.code]


# The titles are the names players use; the glossary words (rung, hukum, sar) are not
# translated into bridge jargon.
VARIANTS: dict[str, VariantPage] = {
    v.code: v
    for v in (
        VariantPage(
            "rung",
            _("Rung"),
            {
                "redeal": _("A redeal when no first-five card beats a ten"),
                "thirteenth": _("The caller may take the suit of the thirteenth card"),
                "court": _("What counts as court"),
                "claim82": _("The leader may open the hand and claim all thirteen (82)"),
            },
            ("rung", "deal"),
        ),
        VariantPage("single_sar", _("Single Sar"), call_rules=("single-sar", "who-calls")),
        VariantPage("hidden", _("Hidden Rung"), call_rules=("hidden-rung", "hiding")),
        VariantPage(
            "double_sar",
            _("Double Sar"),
            {"ace_rule": _("A trick won with an ace never takes the pile")},
            ("double-sar", "same"),
        ),
        VariantPage("be_ranga", _("Be-Ranga")),
        VariantPage("mendikot", _("Mendikot")),
        VariantPage(
            "hukum",
            _("Hukum"),
            {
                "bidding": _("Bid for trump"),
                "kot_both_sides": _("Without bidding: the other side's kot counts too"),
            },
            ("hukum", "no-bidding"),
        ),
    )
}


def title(variant: str) -> str:
    """The variant's name for players (the code itself for an unknown one)."""
    found = VARIANTS.get(variant)
    return str(found.title) if found is not None else variant


def option_label(variant: str, name: str) -> str:
    found = VARIANTS.get(variant)
    label = found.option_labels.get(name) if found is not None else None
    return str(label) if label is not None else name


_CHOICES: dict[Any, Promise] = {
    True: _("Yes"),
    False: _("No"),
    "all13": _("All thirteen tricks"),
    "first7": _("The first seven tricks in a row"),
}


def choice_label(value: Any) -> str:
    """A table option's value in words (Yes, No, "All thirteen tricks" …)."""
    label = _CHOICES.get(value)
    return str(label) if label is not None else str(value)


def rules_url(slug: str, anchor: str) -> str:
    return reverse("guide:rules", kwargs={"slug": slug}) + "#" + anchor


def call_rules_url(variant: str) -> str:
    """The rules section that says how this variant's trump is chosen (Rung's when the
    variant has none of its own)."""
    found = VARIANTS.get(variant)
    call = found.call_rules if found is not None else None
    return rules_url(*(call or VARIANTS["rung"].call_rules or ("rung", "deal")))
