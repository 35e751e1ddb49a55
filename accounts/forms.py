"""The profile form: display name and preferred language."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.utils.translation import get_language_info

from accounts.models import Profile


class LanguageSelect(forms.Select):
    """Each language is offered in its own name and marked with its ``lang``, so a reader
    of any of the three finds theirs whatever language the page is in."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = str(value)
        return option


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "language", "board_home")
        widgets: ClassVar = {"language": LanguageSelect}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            (code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES
        ]

    def clean_display_name(self) -> str:
        # Runs of spaces would let two players look alike; keep single inner spaces.
        return " ".join(self.cleaned_data["display_name"].split())
