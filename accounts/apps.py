from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Signal receivers (profile on user creation, language on sign-up) and checks.
        from accounts import checks, receivers  # noqa: F401
