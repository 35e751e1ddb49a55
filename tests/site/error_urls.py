"""A URLconf for tests/site/test_error_pages.py: the site's own, plus one view that fails."""

from baithak.urls import *  # noqa: F403  (every route and the handler404/handler500 names)
from baithak.urls import urlpatterns as site_patterns
from django.conf.urls.i18n import i18n_patterns
from django.http import HttpRequest, HttpResponse
from django.urls import path


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a fault in a view")


urlpatterns = [
    path("broken/", broken),
    *i18n_patterns(path("broken/", broken), prefix_default_language=True),
    *site_patterns,
]
