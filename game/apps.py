from typing import Any

from django.apps import AppConfig


def _forget_name(sender: Any, instance: Any, **kwargs: Any) -> None:
    from game import services

    services.forget_name(instance.user_id)


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.models import Profile

        # The tables keep players' names for a few seconds (services._names_of); a
        # name saved in this process shows at once.
        post_save.connect(_forget_name, sender=Profile, dispatch_uid="game-forget-name")
