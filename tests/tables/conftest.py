"""The live-table fixtures (tests/tables/live.py) for every test here, and accounts with
verified addresses (tests/people.py) for the sign-in tests."""

from tests.people import make_user  # noqa: F401
from tests.tables.live import tables_env, users  # noqa: F401
