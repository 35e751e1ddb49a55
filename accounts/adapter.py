"""allauth hooks: where players land after signing in, and how emails greet and sign off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext


def preferred_language(user: Any) -> str | None:
    language = getattr(getattr(user, "profile", None), "language", None)
    return language if language in dict(settings.LANGUAGES) else None


@dataclass(frozen=True)
class _Site:
    """What allauth's email templates read as `current_site`."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def post_login(
        self, request: HttpRequest, user: Any, *, redirect_url: str | None, **kwargs: Any
    ) -> HttpResponse:
        # Without an explicit destination the player lands in their own language; switch
        # to it now so the "signed in" message is in that language too.
        language = preferred_language(user)
        if language and not redirect_url and not request.GET.get("next") and not (
            request.method == "POST" and request.POST.get("next")
        ):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return super().post_login(request, user, redirect_url=redirect_url, **kwargs)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        language = preferred_language(request.user) or translation.get_language()
        with translation.override(language):
            return reverse(settings.LOGIN_REDIRECT_URL)

    def format_email_subject(self, subject: str) -> str:
        return f"{gettext('Baithak')}: {subject}"

    def render_mail(
        self,
        template_prefix: str,
        email: str | list[str],
        context: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> EmailMessage:
        # Without django.contrib.sites allauth names the site by its host ("Hello from
        # baithak.example!"); the emails greet from Baithak, in the reader's language, and
        # every one ends with where to write to us.
        site = context.get("current_site")
        request = context.get("request")
        context = {
            **context,
            "current_site": _Site(gettext("Baithak"), getattr(site, "domain", "")),
            "contact_email": settings.CONTACT_EMAIL,
        }
        if request is not None:
            context["contact_url"] = request.build_absolute_uri(reverse("guide:contact"))
        return super().render_mail(template_prefix, email, context, headers)
