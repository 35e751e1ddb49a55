"""Signal receivers: every user has a profile; a new player's language is the one they
signed up in."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation

from accounts.models import Profile


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts_create_profile")
def create_profile(sender: type, instance: Any, created: bool, raw: bool = False, **_: Any) -> None:
    # Users made any way (sign-up, admin, createsuperuser) get one; fixtures (raw) bring theirs.
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


@receiver(user_signed_up, dispatch_uid="accounts_language_from_signup")
def language_from_signup(request: HttpRequest, user: Any, **_: Any) -> None:
    language = translation.get_language()
    if language in dict(settings.LANGUAGES):
        Profile.objects.update_or_create(user=user, defaults={"language": language})
