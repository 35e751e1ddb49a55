"""The move timer a "new table" form offers, and what its default means.

A person alone with bots should not be hurried: the default choice ("auto") gives a
table where every other seat is a bot no move timer when it is private, and the relaxed
timer (the longest the form offers) when it is public, since only a private table may
play without one (``lifecycle.create_table``, the same rule for ``POST /api/tables``,
whose ``move_seconds`` keeps its meaning: this is the forms' default only). A table with
a seat for a person keeps the usual timer.

The timers of the rules themselves are not this one and stay: Single Sar, Hidden Rung and
Double Sar give the caller 20 s to call (RULES.md CP-SS-4, CP-SS-4a), a practice table
too (``game.tables.deadlines``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

#: The default choice: the usual timer, or none / the relaxed one against bots only.
AUTO = "auto"


def choices(offered: Sequence[int], usual: int) -> list[tuple[str, object]]:
    """The select's choices: the default first, then each timer, then none."""
    return (
        [(AUTO, _("%(n)s seconds, no hurry against bots only") % {"n": usual})]
        + [(str(s), _("%(n)s seconds") % {"n": s}) for s in offered]
        + [("", _("No timer (private tables only)"))]
    )


def chosen(
    raw: str | None, *, private: bool, bots_only: bool, usual: int, relaxed: int
) -> int | None:
    """The move timer in seconds (None: no timer) for the form's value ``raw``."""
    if raw == AUTO:
        if not bots_only:
            return usual
        return None if private else relaxed
    return int(raw) if raw else None
