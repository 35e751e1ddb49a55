"""Root conftest: make ``baithak`` importable before pytest-django configures Django."""

from bootstrap import ensure_baithak_importable

ensure_baithak_importable()
