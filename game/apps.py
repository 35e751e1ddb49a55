from typing import Any

from django.apps import AppConfig


def _forget_name(sender: Any, instance: Any, **kwargs: Any) -> None:
    from game.tables import names

    names.forget_name(instance.user_id)


class GameConfig(AppConfig):
    """The live tables' models and shared pages; each game is an app of its own
    (game.courtpiece, game.backgammon) that registers itself in its ready()."""

    name = "game"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.models import Profile

        # The tables keep players' names for a few seconds (game.tables.names); a name
        # saved in this process shows at once.
        post_save.connect(_forget_name, sender=Profile, dispatch_uid="game-forget-name")
