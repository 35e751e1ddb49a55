"""Fixtures for the tests of "Learn from your mistakes": accounts and the live tables'
settings (tests/tables/live.py), bots without a pause (tests/courtpiece/play.py)."""

from tests.courtpiece.play import bots_without_pause  # noqa: F401
from tests.people import clean_cache  # noqa: F401
from tests.tables.live import tables_env, users  # noqa: F401
