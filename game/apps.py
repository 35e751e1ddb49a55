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
        from allauth.account.signals import user_logged_in
        from django.db.models.signals import post_save

        from accounts.models import Profile
        from game.tables import signin

        # The tables keep players' names for a few seconds (game.tables.names); a name
        # saved in this process shows at once.
        post_save.connect(_forget_name, sender=Profile, dispatch_uid="game-forget-name")
        # Signing in keeps a guest's games and follows the invite they came by.
        user_logged_in.connect(signin.on_signed_in, dispatch_uid="game-signed-in")
