"""Staff manage players from the user page: profile and statistics are inlines on it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from accounts.games import game_choices
from accounts.models import GameResult, GameStats, Profile

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ("display_name", "language")


class GameStatsForm(forms.ModelForm):
    # The games' own list (accounts.games), read when the form is built.
    game = forms.ChoiceField(choices=game_choices)

    class Meta:
        model = GameStats
        fields = "__all__"


class GameStatsInline(admin.TabularInline):
    model = GameStats
    form = GameStatsForm
    extra = 0
    fields = ("game", "played", "won", "lost", "mu", "sigma", "rating", "updated_at")
    readonly_fields = ("rating", "updated_at")

    @admin.display(description="rating (mu - 3 sigma)")
    def rating(self, obj: GameStats) -> str:
        return f"{obj.rating:.1f}"


class PlayerAdmin(UserAdmin):
    inlines = (ProfileInline, GameStatsInline)
    list_display = (*UserAdmin.list_display, "date_joined", "last_login")

    def get_inline_instances(
        self, request: HttpRequest, obj: Any | None = None
    ) -> list[InlineModelAdmin]:
        # On the add page the new user's profile is made by a signal; an inline there
        # would try to create a second one.
        return super().get_inline_instances(request, obj) if obj is not None else []


admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)


@admin.register(GameStats)
class GameStatsAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "played", "won", "lost", "rating", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__email", "user__profile__display_name")
    list_select_related = ("user",)

    @admin.display(description="rating (mu - 3 sigma)")
    def rating(self, obj: GameStats) -> str:
        return f"{obj.rating:.1f}"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language")
    list_filter = ("language",)
    search_fields = ("user__username", "display_name")


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    """Finished games as the players played them: written by the tables only
    (accounts.services.record_game), so read here, never changed."""

    list_display = ("user", "game", "table", "rated", "won", "abandoned", "rating", "finished_at")
    list_filter = ("game", "rated")
    search_fields = ("user__username", "user__profile__display_name")
    list_select_related = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any | None = None) -> bool:
        return False
