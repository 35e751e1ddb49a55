"""The games players have statistics for are the ones the games declare (game.tables.registry
passes each registered game's rating families to accounts.games)."""

from django.utils import translation

from accounts.games import game_choices, game_codes, game_label
from game.engine.courtpiece import VARIANTS


def test_every_engine_variant_and_backgammon_has_a_record() -> None:
    assert set(VARIANTS) | {"backgammon"} == game_codes()


def test_the_games_come_in_the_order_they_registered() -> None:
    assert [code for code, _label in game_choices()] == [*VARIANTS, "backgammon"]


def test_labels_are_the_players_names() -> None:
    with translation.override("en"):
        assert game_label("hidden") == "Hidden Rung"
    with translation.override("ur"):
        assert game_label("hidden") == "بند رنگ"
    with translation.override("hi"):
        assert game_label("backgammon") == "बैकगैमन"
