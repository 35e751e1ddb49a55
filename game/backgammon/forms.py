"""The "new backgammon table" form: what ``game.backgammon.spec`` accepts (the engine's
Rules options, the bot and its level, the length in points, 0 for a money game)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.backgammon.bot import DEFAULT_LEVEL, LEVELS
from game.backgammon.words import LEVEL_NAMES
from game.tables import fairbox, timers

#: Match lengths offered (0 = a money game); the backend takes any 0..25.
BG_LENGTHS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)
#: Move timers offered; the default is USUAL_TIMER with a person at the table, and against
#: the bot none on a private table, the longest offered on a public one (game.tables.timers).
TIMERS = (30, 45, 60, 90, 120)
USUAL_TIMER = 60


class BgTableForm(forms.Form):
    """A new backgammon table: what ``game.backgammon.spec`` accepts (Rules options, bot level,
    length in points, 0 for a money game)."""

    length = forms.TypedChoiceField(label=_("Money game or match"), coerce=int, initial="0")
    cube = forms.BooleanField(label=_("Play with the doubling cube"), required=False, initial=True)
    crawford = forms.BooleanField(
        label=_("Crawford rule (matches): no doubling in the first game at match point"),
        required=False,
        initial=True,
    )
    jacoby = forms.BooleanField(
        label=_("Jacoby rule (money): gammons count only after a double"), required=False
    )
    beaver = forms.BooleanField(
        label=_("Beavers (money): the doubled player may redouble at once"), required=False
    )
    auto_doubles = forms.TypedChoiceField(
        label=_("Automatic doubles (money): equal opening dice double the cube"),
        coerce=int,
        initial="0",
    )
    start = forms.ChoiceField(label=_("Starting position"), initial="standard")
    bot = forms.BooleanField(
        label=_("Play against GNU Backgammon (otherwise wait for a person)"),
        required=False,
        initial=True,
    )
    bot_level = forms.ChoiceField(label=_("Bot strength"), initial=DEFAULT_LEVEL)
    private = forms.BooleanField(
        label=_("Private (only people with the invite link)"), required=False
    )
    spectators = forms.BooleanField(label=_("Others may watch"), required=False, initial=True)
    move_seconds = forms.ChoiceField(label=_("Time for each move"), required=False)
    client_seed = fairbox.seed_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["length"].choices = [("0", _("Money game"))] + [
            (str(n), ngettext("Match to %(n)s point", "Match to %(n)s points", n) % {"n": n})
            for n in BG_LENGTHS[1:]
        ]
        self.fields["auto_doubles"].choices = [("0", _("Never"))] + [
            (str(n), ngettext("At most %(n)s time", "At most %(n)s times", n) % {"n": n})
            for n in (1, 2, 3)
        ]
        self.fields["start"].choices = [
            ("standard", _("Standard")),
            ("nackgammon", _("Nackgammon (money games)")),
        ]
        self.fields["bot_level"].choices = [(level, LEVEL_NAMES[level]) for level in LEVELS]
        self.fields["move_seconds"].choices = timers.choices(TIMERS, USUAL_TIMER)
        self.fields["move_seconds"].initial = timers.AUTO
        self.relaxed_timer = max(TIMERS)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        length = data.get("length") or 0
        if length:
            for name in ("jacoby", "beaver"):
                if data.get(name):
                    self.add_error(name, _("This rule is for money games only."))
            if data.get("auto_doubles"):
                self.add_error("auto_doubles", _("This rule is for money games only."))
            if data.get("start") == "nackgammon":
                self.add_error("start", _("A match starts from the standard position."))
        if data.get("beaver") and not data.get("cube"):
            self.add_error("beaver", _("Beavers need the doubling cube."))
        data["options"] = {
            "cube": bool(data.get("cube")),
            "crawford": bool(data.get("crawford")),
            "jacoby": bool(data.get("jacoby")),
            "beaver": bool(data.get("beaver")),
            "auto_doubles": int(data.get("auto_doubles") or 0),
            "start": data.get("start") or "standard",
            "bot_level": data.get("bot_level") or DEFAULT_LEVEL,
        }
        data["bots"] = [1] if data.get("bot") else []
        data["move_seconds"] = timers.chosen(
            data.get("move_seconds"),
            private=bool(data.get("private")),
            bots_only=data["bots"] == [1],
            usual=USUAL_TIMER,
            relaxed=max(TIMERS),
        )
        if data["move_seconds"] is None and not data.get("private"):
            self.add_error("move_seconds", _("Only a private table may play without a timer."))
        return data
