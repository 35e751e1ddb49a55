"""Template helpers for the guide."""

from __future__ import annotations

from django import template
from django.utils import translation

from guide.content import get_page
from guide.pages import GUIDE_PAGES

register = template.Library()


@register.simple_tag
def guide_links(current: str = "") -> list[dict[str, str]]:
    """Every guide page written in the current language but `current` (the slug of the page
    being read: a list of where to go next never offers where you are): title and URL."""
    lang = translation.get_language()
    links = []
    for spec in GUIDE_PAGES:
        if spec.slug == current:
            continue
        page = get_page(lang, spec.slug)
        if page is None:
            continue
        links.append({"title": page.title, "url": page.url})
    return links
