"""The profile page (your own settings) and a player's statistics page (public)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import history
from accounts.forms import ProfileForm
from accounts.games import game_choices
from accounts.models import GameStats, Profile
from accounts.templatetags.accounts_tags import display_name


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    profile_obj, _created = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=profile_obj)
        if form.is_valid():
            form.save()
            # The site switches to the chosen language at once: the message and the
            # page we redirect to are both in it.
            language = form.cleaned_data["language"]
            translation.activate(language)
            messages.success(request, _("Your profile has been saved."))
            return redirect(reverse("profile"))
    else:
        form = ProfileForm(instance=profile_obj)
    return render(request, "accounts/profile.html", {"form": form, "profile": profile_obj})


def player(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(
        get_user_model().objects.select_related("profile"), username=username, is_active=True
    )
    by_game = {row.game: row for row in GameStats.objects.filter(user=user)}
    unrated = history.unrated_counts(user)
    rows = [
        {"code": code, "label": label, "stats": by_game.get(code), "unrated": unrated.get(code)}
        for code, label in game_choices()
    ]
    is_self = request.user == user
    return render(
        request,
        "accounts/player.html",
        {
            "player": user,
            "player_name": display_name(user),
            "shows_username": display_name(user) != user.get_username(),
            "rows": rows,
            "played_rated": sum(r["stats"].played for r in rows if r["stats"]),
            "played_unrated": sum(r["unrated"]["played"] for r in rows if r["unrated"]),
            "recent": history.recent(user, is_self=is_self),
            "courses": history.rating_courses(user),
            "is_self": is_self,
        },
    )
