"""Counts said with gettext plurals (issue 27: "1 points"): a single game's point, a match
to one point, a cube turned at most once, in English and in Hindi, whose noun changes
with the count (अंक / अंकों)."""

from __future__ import annotations

import pytest
from django.utils import translation

from game.backgammon.board import render_board
from game.backgammon.forms import BgTableForm
from game.backgammon.render import result_of
from game.backgammon.views import options_text
from tests.backgammon import payloads as P


def _result(points: int) -> str:
    view = {"result": {"winner": 0, "points": points, "kind": "single", "how": "resign"}}
    found = result_of(view, 0, {0: "asma", 1: "Bot"})
    assert found is not None
    return str(found["text"])


def test_a_single_point_is_one_point_not_one_points() -> None:
    with translation.override("en"):
        assert _result(1).endswith(": 1 point.")
        assert _result(2).endswith(": 2 points.")
        assert "Match to 1 point" in options_text("money", {}, 1)
        assert "Match to 5 points" in options_text("money", {}, 5)
        form = BgTableForm()
        lengths = dict(form.fields["length"].choices)
        assert lengths["1"] == "Match to 1 point" and lengths["3"] == "Match to 3 points"
        doubles = dict(form.fields["auto_doubles"].choices)
        assert doubles["1"] == "At most 1 time" and doubles["2"] == "At most 2 times"
        one = str(render_board(P.match(1).view(0)))
        assert "Match to 1 point." in one and "1 points" not in one


@pytest.mark.parametrize(("lang", "one", "many"), [("hi", "1 अंक का", "5 अंकों का"),
                                                  ("ur", "1 پوائنٹ کا", "5 پوائنٹ کا")])
def test_the_plural_forms_in_urdu_and_hindi(lang: str, one: str, many: str) -> None:
    with translation.override(lang):
        assert one in options_text("money", {}, 1)[0]
        assert many in options_text("money", {}, 5)[0]
