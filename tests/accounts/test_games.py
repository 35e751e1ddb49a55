"""The games players have statistics for follow the engine's variants."""

from django.utils import translation

from accounts.games import BACKGAMMON, GAME_CODES, game_label
from game.engine.courtpiece import VARIANTS


def test_every_engine_variant_and_backgammon_has_a_record() -> None:
    assert set(VARIANTS) | {BACKGAMMON} == GAME_CODES


def test_labels_are_the_players_names() -> None:
    with translation.override("en"):
        assert game_label("hidden") == "Hidden Rung"
    with translation.override("ur"):
        assert game_label("hidden") == "بند رنگ"
    with translation.override("hi"):
        assert game_label("backgammon") == "बैकगैमन"
