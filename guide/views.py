"""The guide's pages. Every page is plain HTML: nothing here needs JavaScript."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_safe

from guide.content import Page, get_page
from guide.pages import BY_SLUG, FAQ_BY_URL_PART, GUIDE_PAGES, RULES_SLUGS, SITE_SLUGS


def _page_or_404(slug: str) -> Page:
    page = get_page(translation.get_language(), slug)
    if page is None:
        raise Http404("This page is not written in this language yet.")
    return page


def _render_page(request: HttpRequest, page: Page) -> HttpResponse:
    return render(request, "guide/page.html", {"page": page})


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    lang = translation.get_language()
    sections: dict[str, list[Page]] = {"rules": [], "faq": [], "other": []}
    for spec in GUIDE_PAGES:
        page = get_page(lang, spec.slug)
        if page is None:
            continue
        key = spec.kind if spec.kind in ("rules", "faq") else "other"
        sections[key].append(page)
    return render(request, "guide/index.html", {"sections": sections})


@require_safe
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in RULES_SLUGS:
        raise Http404("No such rules page.")
    return _render_page(request, _page_or_404(slug))


@require_safe
def faq_index(request: HttpRequest) -> HttpResponse:
    """Every FAQ page (Court Piece, Hukum, Backgammon) with each of its questions."""
    lang = translation.get_language()
    pages = [get_page(lang, spec.slug) for spec in GUIDE_PAGES if spec.kind == "faq"]
    return render(request, "guide/faq_index.html", {"pages": [p for p in pages if p]})


@require_safe
def faq(request: HttpRequest, topic: str) -> HttpResponse:
    spec = FAQ_BY_URL_PART.get(topic)
    if spec is None:
        raise Http404("No such FAQ page.")
    return _render_page(request, _page_or_404(spec.slug))


@require_safe
def glossary(request: HttpRequest) -> HttpResponse:
    return _render_page(request, _page_or_404(BY_SLUG["glossary"].slug))


@require_safe
def house_rules(request: HttpRequest) -> HttpResponse:
    return _render_page(request, _page_or_404(BY_SLUG["house-rules"].slug))



@require_safe
def site_page(request: HttpRequest, slug: str) -> HttpResponse:
    """About, privacy, terms, contact. The contact address comes from the environment
    (settings.CONTACT_EMAIL), so the content files never hold it."""
    if slug not in SITE_SLUGS:
        raise Http404("No such page.")
    page = _page_or_404(slug)
    return render(
        request, "guide/page.html", {"page": page, "contact_email": settings.CONTACT_EMAIL}
    )
