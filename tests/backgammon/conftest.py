"""Fixtures for these tests: accounts (tests/people.py) and the live tables' settings
(tests/tables/live.py)."""

from tests.people import clean_cache, fast_hashing, make_user  # noqa: F401
from tests.tables.live import tables_env, users  # noqa: F401
