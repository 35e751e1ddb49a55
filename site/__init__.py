"""The Django project for Baithak.

The folder is ``site/`` but the import name is ``baithak``: Python's standard library
already owns ``site`` (it is imported at interpreter start-up), so a package by that name
could never be imported. ``pyproject.toml`` maps the folder to the name; ``manage.py`` and
the test configuration fall back to :func:`baithak_bootstrap` when the project is not
installed.
"""
