"""A URLconf for tests/tables/test_api_errors.py: the site's own, plus /api/ views that fail
(one inside the API's wrapper, one outside it, which only the site's handler500 answers)."""

from baithak.urls import *  # noqa: F403  (every route and the handler names)
from baithak.urls import urlpatterns as site_patterns
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path

from game.tables.transport.api import api


@api("GET")
def broken_api(request: HttpRequest) -> JsonResponse:
    raise RuntimeError("a fault in an API view")


def broken_raw(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a fault outside the API's wrapper")


urlpatterns = [
    path("api/broken-view", broken_api),
    path("api/broken-raw", broken_raw),
    *site_patterns,
]
