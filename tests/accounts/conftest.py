"""Account fixtures for these tests (tests/people.py)."""

from tests.people import clean_cache, fast_hashing, make_user  # noqa: F401
