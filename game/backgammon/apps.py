from django.apps import AppConfig


class BackgammonConfig(AppConfig):
    """Backgammon's pages, its GNU Backgammon bot and its registration (no models of its
    own: the tables' are game's)."""

    name = "game.backgammon"
    label = "backgammon"
    verbose_name = "Backgammon"

    def ready(self) -> None:
        from game.backgammon.spec import BACKGAMMON
        from game.tables import registry

        registry.register(BACKGAMMON)
