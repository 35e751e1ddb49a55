"""The "new table" form, built from the engine's own variants and options (with their
defaults), so a new engine option shows up here without touching this file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from game.courtpiece.levels import BOT_LEVELS, DEFAULT_BOT_LEVEL, LEVEL_NAMES
from game.courtpiece.variants import choice_label, option_label
from game.courtpiece.variants import title as variant_name
from game.engine import courtpiece as cp
from game.tables import fairbox, timers

#: Move timer choices in seconds ("" = no timer, private tables only).
TIMERS = (15, 30, 45, 60, 90)
#: The default's timer with a person at the table; against bots only it is none on a
#: private table and the longest offered on a public one (game.tables.timers).
USUAL_TIMER = 30


def field_name(variant: str, option: str) -> str:
    return f"{variant}__{option}"


class NewTableForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"))
    private = forms.BooleanField(
        label=_("Private (only people with the invite link)"), required=False
    )
    spectators = forms.BooleanField(label=_("Others may watch"), required=False, initial=True)
    move_seconds = forms.ChoiceField(label=_("Time for each move"), required=False)
    client_seed = fairbox.seed_field()
    bots = forms.MultipleChoiceField(
        label=_("Bots in these seats"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    bot_level = forms.ChoiceField(
        label=_("Bot strength"),
        choices=[(level, LEVEL_NAMES[level]) for level in BOT_LEVELS],
        initial=DEFAULT_BOT_LEVEL,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v, variant_name(v)) for v in cp.VARIANTS]
        self.fields["move_seconds"].choices = timers.choices(TIMERS, USUAL_TIMER)
        self.fields["move_seconds"].initial = timers.AUTO
        self.relaxed_timer = max(TIMERS)
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

    def _refuse_other_variants(self, chosen: str) -> None:
        """Another game's house rule set away from its default is a contradiction (the
        page hides those with JavaScript; without it every game's rules are shown, at
        their defaults, and those are ignored): refused, and nothing is created."""
        for variant, spec in cp.VARIANTS.items():
            if variant == chosen:
                continue
            for option, opt in spec.options.items():
                name = field_name(variant, option)
                raw = self.data.get(name)
                if name not in self.errors and raw not in (None, "", str(opt.default)):
                    if not self.non_field_errors():
                        self.add_error(
                            None,
                            _("Some house rules below belong to another game: nothing was "
                              "created."),
                        )
                    self.add_error(
                        name,
                        _(
                            "This house rule belongs to %(other)s, but the game you chose "
                            "is %(chosen)s: set it back or choose %(other)s."
                        )
                        % {"other": variant_name(variant), "chosen": variant_name(chosen)},
                    )

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
            options["bot_level"] = data.get("bot_level") or DEFAULT_BOT_LEVEL
            data["options"] = options
            self._refuse_other_variants(variant)
        data["bots"] = sorted(int(b) for b in data.get("bots") or [])
        data["move_seconds"] = timers.chosen(
            data.get("move_seconds"),
            private=bool(data.get("private")),
            bots_only=data["bots"] == [1, 2, 3],
            usual=USUAL_TIMER,
            relaxed=max(TIMERS),
        )
        if data["move_seconds"] is None and not data.get("private"):
            self.add_error("move_seconds", _("Only a private table may play without a timer."))
        return data


class DealAgainForm(NewTableForm):
    """The table's own choices for a deal played again (seats, bots, timer, privacy):
    the game and its house rules are the copied hand's, so they are not asked.
    ``private_only``: the deal comes from a private table, so the new one is private too
    (the field is not offered)."""

    def __init__(self, *args: Any, private_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.private_only = private_only
        # The first hand is the copy (its seeds too); the later ones use server-chosen seeds.
        # The copied hand's table chose its bots' level too (its options are copied).
        copied = ("variant", "client_seed", "bot_level")
        for name in [n for n in self.fields if n in copied or "__" in n]:
            del self.fields[name]
        self.option_groups = []
        if private_only:
            del self.fields["private"]

    def clean(self) -> dict[str, Any]:
        if self.private_only:
            self.cleaned_data["private"] = True
        data = super().clean()
        data.pop("options", None)
        return data
