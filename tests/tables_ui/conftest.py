from tests.accounts.conftest import _clean_cache, _fast_hashing, make_user  # noqa: F401
