"""A finished backgammon game move by move, for the replay's stepper
(static/js/bg_replay.js): the game played again from its first throw through the engine,
and the board (game.backgammon.board's own SVG) after each checker play, seen from the
viewer's side, with what the page says of it in the active language."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from game.backgammon import analysis
from game.backgammon import render as bgrender
from game.backgammon.board import board_svg
from game.backgammon.words import action_label, describe_play
from game.engine import backgammon as bg


def _svg(state: bg.Game, viewer: int, home: str) -> str:
    # board_svg escapes every text it puts in the drawing: the markup is safe as it is
    return mark_safe(board_svg(state.view(viewer), home=home))


def boards(game: bg.Game, me: int | None, names: dict[int, str], home: str) -> list[dict[str, Any]]:
    """The start, then one step per checker play: its number (the analysis' ``move``),
    the sentence that says it and the board it leaves."""
    state = analysis.start_of(game)
    viewer = 0 if me is None else me
    out = [{"move": 0, "say": _("Starting position"), "svg": _svg(state, viewer, home)}]
    number = 0
    for seat, action in game.history:
        dice = state.view(seat).get("dice")
        state = state.apply(action, seat)
        if not action.startswith("move:"):
            continue
        number += 1
        values = {
            "who": bgrender.who(seat, me, names),
            "dice": f"{dice[0]}-{dice[1]}" if dice else "",
            "play": describe_play(action[5:]) if action[5:] else _("No legal move"),
        }
        out.append(
            {
                "move": number,
                "seat": seat,
                "say": _("%(who)s rolls %(dice)s and plays %(play)s.") % values,
                "svg": _svg(state, viewer, home),
            }
        )
    return out


def words() -> dict[str, Any]:
    """The analysis' words for the page's script."""
    return {
        "step": _("Step %(n)s of %(total)s"),
        "best": _("The best play (GNU Backgammon, 2-ply)."),
        "loss": _("Equity lost: %(loss)s. Best: %(best)s."),
        "blunder": _("A blunder."),
        "error": _("An error."),
        "rating": _("Performance rating of %(who)s: %(pr)s (lower is better; 0 is perfect)."),
        "loading": _("Working out the analysis…"),
        "failed": _("The analysis could not be loaded. Try again later."),
        # the cube decisions (the analysis' "cube" list)
        "actions": {
            "double": action_label("double"),
            "no_double": pgettext("cube", "No double"),
            "take": action_label("take"),
            "pass": action_label("drop"),
        },
        "cube_best": _("%(who)s: %(action)s, the right cube decision."),
        "cube_loss": _("%(who)s: %(action)s. Right: %(best)s. Equity lost: %(loss)s."),
        "right": _("Right: %(best)s"),
    }
