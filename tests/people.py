"""Fixtures for tests that need real accounts: users with verified addresses, a fast
password hasher and a clean cache. A folder's conftest imports them (pytest finds a
fixture through the conftest's names)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def clean_cache() -> Iterator[None]:
    # allauth keeps its rate-limit counters in the cache; one test's attempts must not
    # count against the next.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    # Django's real hasher takes a large share of a second per password on this machine;
    # the flows under test are the same with a fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    def make(
        username: str = "alice",
        email: str | None = None,
        password: str = PASSWORD,
        verified: bool = True,
        **extra: Any,
    ) -> Any:
        email = email or f"{username}@example.com"
        user = get_user_model().objects.create_user(
            username=username, email=email, password=password, **extra
        )
        EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
        return user

    return make
