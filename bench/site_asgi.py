"""The site's ASGI application for the benchmarks' daphne: ``baithak.asgi`` made
importable first (a checkout without ``pip install -e .`` has no ``baithak`` on the path;
see bootstrap.py)."""

import bootstrap

bootstrap.ensure_baithak_importable()  # before the import below, which needs the name

from baithak.asgi import application  # noqa: E402

__all__ = ["application"]
