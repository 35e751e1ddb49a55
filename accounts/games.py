"""The games a player has statistics for: every Court Piece variant, and Backgammon.

Codes are the engine's variant names (``game.engine.courtpiece.VARIANTS``) so a live table
can pass ``rules.variant`` straight to :func:`accounts.services.record_result`.
``tests/accounts/test_games.py`` keeps this list in step with the engine.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

BACKGAMMON = "backgammon"

# Labels are the names players use; the glossary words (rung, hukum, sar) are not
# translated into bridge jargon.
GAME_CHOICES: list[tuple[str, str]] = [
    ("rung", _("Rung")),
    ("single_sar", _("Single Sar")),
    ("hidden", _("Hidden Rung")),
    ("double_sar", _("Double Sar")),
    ("be_ranga", _("Be-Ranga")),
    ("mendikot", _("Mendikot")),
    ("hukum", _("Hukum")),
    (BACKGAMMON, _("Backgammon")),
]
GAME_CODES: frozenset[str] = frozenset(code for code, _label in GAME_CHOICES)


def game_label(code: str) -> str:
    return str(dict(GAME_CHOICES)[code])
