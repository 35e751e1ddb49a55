"""Template context shared by every page."""

from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.translation import get_language, get_language_info


def languages(request: HttpRequest) -> dict[str, object]:
    """Links to the current page in each language, for the switcher and hreflang.

    Plain links (not a POST form) so the switcher works without JavaScript and search
    engines can follow it.
    """
    current = get_language()
    path = request.get_full_path()
    # hreflang alternates and the canonical URL are absolute and carry no query string.
    bare = request.path
    links = []
    for code, _name in settings.LANGUAGES:
        info = get_language_info(code)
        links.append(
            {
                "code": code,
                "name_local": info["name_local"],
                "bidi": info["bidi"],
                "url": translate_url(path, code),
                "absolute_url": request.build_absolute_uri(translate_url(bare, code)),
                "active": code == current,
            }
        )
    return {
        "language_links": links,
        "canonical_url": request.build_absolute_uri(bare),
        # x-default is the page without a language prefix, which redirects each visitor to
        # their own language (the same URL the sitemap gives as x-default).
        "x_default_url": request.build_absolute_uri(
            translate_url(bare, settings.LANGUAGE_CODE).replace(
                f"/{settings.LANGUAGE_CODE}/", "/", 1
            )
        ),
    }
