"""The fair deal in the player's hands, on the table page: before the first card the
table shows its commitment (a short form, the whole of it on demand) and the player's
own seed, which a seated player may change until the table starts (POST
``…/play/<id>/seed/``: ``pages.set_seed``, checked by ``lifecycle.set_client_seed``).
After each hand the replay page checks the deal again, in the browser
(static/js/fair_check.js)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from game.models import Seat, Table
from game.tables import lifecycle

SHORT = 12  # the commitment's short form: its first hex digits


def fair_context(table: Table, seat: int | None) -> dict[str, Any]:
    """What the table page's fairness box shows the viewer at ``seat`` (None: a
    spectator, who sees the commitment only)."""
    mine = ""
    if seat is not None:
        if table.status == Table.WAITING:
            row = Seat.objects.filter(table=table, number=seat).only("client_seed").first()
            mine = row.client_seed if row is not None else ""
        elif seat < len(table.client_seeds):
            mine = table.client_seeds[seat]
    return {
        "commitment": table.commitment,
        "short": table.commitment[:SHORT],
        "my_seed": mine,
        "seated": seat is not None,
        "may_change": seat is not None and table.status == Table.WAITING,
        # lifecycle.CLIENT_SEED for the browser: its pattern attribute compiles with the
        # `v` flag, where a class's "-" must be escaped.
        "pattern": lifecycle.CLIENT_SEED.pattern.replace("_-]", "_\\-]"),
    }


def seed_field() -> forms.CharField:
    """The new-table forms' optional field for the creator's own seed: a table against
    bots starts the moment it is made, so this is where its player chooses it."""
    return forms.CharField(
        label=_("Your seed for the shuffles (optional)"),
        help_text=_(
            "1 to 64 letters (a–z, A–Z), digits, - or _. Empty: one is chosen for you."
        ),
        required=False,
        max_length=64,
        validators=[
            RegexValidator(
                f"^{lifecycle.CLIENT_SEED.pattern}$",
                _("A seed is 1 to 64 letters (a–z, A–Z), digits, - or _."),
            )
        ],
    )
