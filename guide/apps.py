from django.apps import AppConfig


class GuideConfig(AppConfig):
    name = "guide"
    verbose_name = "Guide"

    def ready(self) -> None:
        from guide import checks  # noqa: F401  (registers the contact-address check)
