"""Make the folder ``site/`` importable as ``baithak`` without an install.

``pip install -e .`` already maps the name (see ``[tool.setuptools]`` in pyproject.toml);
this covers running ``manage.py`` or pytest from a bare checkout.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def ensure_baithak_importable() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    if "baithak" in sys.modules or importlib.util.find_spec("baithak") is not None:
        return
    spec = importlib.util.spec_from_file_location(
        "baithak", ROOT / "site" / "__init__.py", submodule_search_locations=[str(ROOT / "site")]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baithak"] = module
    spec.loader.exec_module(module)


# Loaded by pytest as a plugin (``-p bootstrap`` in pyproject.toml) before pytest-django
# sets Django up, which is too early for the root conftest in a bare checkout.
ensure_baithak_importable()
