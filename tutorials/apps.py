from django.apps import AppConfig


class TutorialsConfig(AppConfig):
    name = "tutorials"
    verbose_name = "Lessons"

    def ready(self) -> None:
        from allauth.account.signals import user_signed_up
        from django.contrib.auth.signals import user_logged_in

        from tutorials import signals

        # Signing in (any way, allauth included) and signing up both carry a guest's stars
        # over; sign-up with email verification does not sign in, so both are needed.
        user_logged_in.connect(signals.merge_guest_progress, dispatch_uid="tutorials-login")
        user_signed_up.connect(signals.merge_guest_progress, dispatch_uid="tutorials-signup")
