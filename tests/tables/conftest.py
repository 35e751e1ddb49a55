"""The live-table fixtures (tests/tables/live.py) for every test here."""

from tests.tables.live import tables_env, users  # noqa: F401
