"""Profiles exist for every user; names and ratings read as players see them."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import GameStats, Profile
from accounts.templatetags.accounts_tags import display_name

pytestmark = pytest.mark.django_db


def test_every_new_user_gets_a_profile() -> None:
    user = get_user_model().objects.create_user("alice", "alice@example.com", "x")
    assert user.profile.language == "en"
    assert user.profile.display_name == ""
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    assert Profile.objects.filter(user=superuser).exists()


def test_name_is_the_display_name_or_the_username(make_user: Any) -> None:
    user = make_user("alice")
    assert user.profile.name == "alice" == display_name(user)
    user.profile.display_name = "Ali Baba"
    user.profile.save()
    assert user.profile.name == "Ali Baba" == display_name(user)
    assert str(user.profile) == "Ali Baba"


def test_display_name_filter_copes_with_guests() -> None:
    from django.contrib.auth.models import AnonymousUser

    assert display_name(AnonymousUser()) == ""


def test_a_new_stats_row_has_the_starting_rating(make_user: Any) -> None:
    row = GameStats.objects.create(user=make_user("alice"), game="rung")
    assert (row.mu, round(row.sigma, 4)) == (25.0, 8.3333)
    assert row.rating == pytest.approx(0.0)  # mu - 3 sigma at the start


@pytest.mark.django_db(transaction=True)
def test_migration_gives_existing_users_a_profile() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0001_initial")])
    # A user made with the models of that time: the historical model fires no signal, so
    # no profile is made (and today's Profile, with later columns, is never touched).
    old_apps = executor.loader.project_state([("accounts", "0001_initial")]).apps
    old_user = old_apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    user = old_user.objects.create(username="old", email="old@example.com", password="x")
    assert not old_apps.get_model("accounts", "Profile").objects.filter(user_id=user.pk).exists()
    call_command("migrate", "accounts", verbosity=0)
    assert Profile.objects.filter(user_id=user.pk).exists()
