"""The "new table" form, built from the engine's own variants and options (with their
defaults), so a new engine option shows up here without touching this file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from game.engine import courtpiece as cp
from game.render import variant_name

#: Move timer choices in seconds ("" = no timer, private tables only).
TIMERS = (15, 30, 45, 60, 90)


def option_label(variant: str, name: str) -> str:
    labels = {
        ("rung", "redeal"): _("A redeal when no first-five card beats a ten"),
        ("rung", "thirteenth"): _("The caller may take the suit of the thirteenth card"),
        ("rung", "court"): _("What counts as court"),
        ("rung", "claim82"): _("The leader may open the hand and claim all thirteen (82)"),
        ("double_sar", "ace_rule"): _("A trick won with an ace never takes the pile"),
        ("hukum", "bidding"): _("Bid for trump"),
        ("hukum", "kot_both_sides"): _("Without bidding: the other side's kot counts too"),
    }
    return str(labels.get((variant, name), name))


def choice_label(value: Any) -> str:
    labels = {
        True: _("Yes"),
        False: _("No"),
        "all13": _("All thirteen tricks"),
        "first7": _("The first seven tricks in a row"),
    }
    return str(labels.get(value, value))


def field_name(variant: str, option: str) -> str:
    return f"{variant}__{option}"


class NewTableForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"))
    private = forms.BooleanField(
        label=_("Private (only people with the invite link)"), required=False
    )
    spectators = forms.BooleanField(label=_("Others may watch"), required=False, initial=True)
    move_seconds = forms.ChoiceField(label=_("Time for each move"), required=False)
    bots = forms.MultipleChoiceField(
        label=_("Bots in these seats"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v, variant_name(v)) for v in cp.VARIANTS]
        self.fields["move_seconds"].choices = [
            (str(s), _("%(n)s seconds") % {"n": s}) for s in TIMERS
        ] + [("", _("No timer (private tables only)"))]
        self.fields["move_seconds"].initial = "30"
        self.fields["bots"].choices = [
            ("1", _("East")),
            ("2", _("North (your partner)")),
            ("3", _("West")),
        ]
        self.option_groups: list[tuple[str, str, list[str]]] = []
        for variant, spec in cp.VARIANTS.items():
            names = []
            for option, opt in spec.options.items():
                name = field_name(variant, option)
                self.fields[name] = forms.TypedChoiceField(
                    label=option_label(variant, option),
                    choices=[(str(c), choice_label(c)) for c in opt.choices],
                    initial=str(opt.default),
                    coerce=str,
                    required=False,  # only the chosen variant's options are read
                )
                names.append(name)
            if names:
                self.option_groups.append((variant, variant_name(variant), names))

    def groups(self) -> list[dict[str, Any]]:
        return [
            {"variant": v, "name": n, "fields": [self[f] for f in names]}
            for v, n, names in self.option_groups
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        variant = data.get("variant")
        if variant in cp.VARIANTS:
            options: dict[str, Any] = {}
            for option, opt in cp.VARIANTS[variant].options.items():
                raw = data.get(field_name(variant, option)) or str(opt.default)
                options[option] = next(c for c in opt.choices if str(c) == raw)
            data["options"] = options
        seconds = data.get("move_seconds")
        data["move_seconds"] = int(seconds) if seconds else None
        if data["move_seconds"] is None and not data.get("private"):
            self.add_error("move_seconds", _("Only a private table may play without a timer."))
        data["bots"] = sorted(int(b) for b in data.get("bots") or [])
        return data
