"""Template helpers for the guide."""

from __future__ import annotations

from django import template
from django.utils import translation

from guide.content import get_page
from guide.pages import PAGES

register = template.Library()


@register.simple_tag
def guide_links() -> list[dict[str, str]]:
    """Every guide page written in the current language: its title and URL."""
    lang = translation.get_language()
    links = []
    for spec in PAGES:
        page = get_page(lang, spec.slug)
        if page is None:
            continue
        links.append({"title": page.title, "url": page.url})
    return links
