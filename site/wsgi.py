"""WSGI entry point (the site is normally served by daphne over ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baithak.settings")
application = get_wsgi_application()
