"""Site-wide views: the `/` language redirect, the home page, robots.txt, a health check,
and our own 404 and 500 pages."""

from __future__ import annotations

from baithak import home as home_parts
from baithak.language import preferred_language
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.views import defaults
from django.views.decorators.http import require_safe

from game.tables import access, mine


@require_safe
def root(request: HttpRequest) -> HttpResponseRedirect:
    """`/`: send the visitor to the home page in their language (baithak.language)."""
    lang = preferred_language(request)
    with translation.override(lang):
        url = reverse("home")
    response = HttpResponseRedirect(url)
    # The answer depends on who asks; caches must not share it.
    response["Vary"] = "Accept-Language, Cookie"
    return response


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front door: Play now, the visitor's own games, the lessons with their progress,
    play with friends, the rules, and the live figures (baithak.home)."""
    owner = access.owner_of_request(request)
    live = home_parts.live_figures()
    live["players"] = home_parts.players_with_visitor(live["players"], owner)
    context = {
        "live": live,
        "lessons": home_parts.lesson_progress(request),
        # The way back to a game: the visitor's own tables, account or guest session.
        "your_games": mine.your_games(owner),
        "picture": mark_safe(home_parts.picture()),  # drawn by us, every word escaped
    }
    return render(request, "home.html", context)


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    sitemap = request.build_absolute_uri(reverse("sitemap"))
    body = f"User-agent: *\nDisallow: /admin/\n\nSitemap: {sitemap}\n"
    return HttpResponse(body, content_type="text/plain; charset=utf-8")


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})


def _error_language(request: HttpRequest) -> str:
    """The language of an error page: the address's prefix (`/ur/…`) if it has one, else
    what `/` would choose (baithak.language). Never fails: a 500 page must always render."""
    from_path = translation.get_language_from_path(request.path_info)
    if from_path:
        return from_path
    try:
        return preferred_language(request)
    except Exception:  # e.g. the database is down while reading the saved preference
        return translation.get_language() or "en"


def _api(request: HttpRequest) -> bool:
    """An /api/ request: its errors are JSON, as every answer there (docs/TABLE_PROTOCOL.md)."""
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: Django's own page, but JSON under /api/."""
    if _api(request):
        return JsonResponse({"error": "bad request", "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: our own page, in the visitor's language, with the site's layout (JSON
    under /api/)."""
    if _api(request):
        return JsonResponse({"error": "not found", "code": "not_found"}, status=404)
    with translation.override(_error_language(request)):
        return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a page that needs neither the database nor the session.

    Rendered without context processors (as Django's own handler is): whatever broke the
    page may be what they would call. 500.html therefore stands alone, not on base.html,
    and its language comes from the address, then the cookie and Accept-Language (reading
    a saved preference needs the database, which may be what failed). Under /api/ the
    answer is JSON, in production too.
    """
    if _api(request):
        return JsonResponse(
            {"error": "something went wrong on our side", "code": "server_error"}, status=500
        )
    try:
        lang = translation.get_language_from_path(
            request.path_info
        ) or translation.get_language_from_request(request, check_path=False)
    except Exception:
        lang = "en"
    with translation.override(lang):
        body = loader.get_template("500.html").render(
            {
                "LANGUAGE_CODE": lang,
                "LANGUAGE_BIDI": translation.get_language_bidi(),
                "contact_email": settings.CONTACT_EMAIL,
                # The page's one <style> runs only with this response's CSP nonce.
                "csp_nonce": getattr(request, "csp_nonce", ""),
            }
        )
    return HttpResponse(body, status=500)
