"""Site-wide views: the `/` language redirect, the home page, robots.txt and a health check."""

from __future__ import annotations

from baithak.language import preferred_language
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET


@require_GET
def root(request: HttpRequest) -> HttpResponseRedirect:
    """`/`: send the visitor to the home page in their language (baithak.language)."""
    lang = preferred_language(request)
    with translation.override(lang):
        url = reverse("home")
    response = HttpResponseRedirect(url)
    # The answer depends on who asks; caches must not share it.
    response["Vary"] = "Accept-Language, Cookie"
    return response


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    sitemap = request.build_absolute_uri(reverse("sitemap"))
    body = f"User-agent: *\nDisallow: /admin/\n\nSitemap: {sitemap}\n"
    return HttpResponse(body, content_type="text/plain; charset=utf-8")


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
