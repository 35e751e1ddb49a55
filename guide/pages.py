"""The guide's pages: which slugs exist, what kind each is, and the URL part it gets.

One table, so that views, URLs, the sitemap, the nav and the tests agree on the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# "site": about, privacy, terms and contact. Prose in three languages like the rest of the
# guide, so they share its content files, tests and sitemap; they are left out of the
# guide's index and its "More from the guide" list (the footer links them).
Kind = Literal["rules", "faq", "glossary", "house-rules", "site"]


@dataclass(frozen=True)
class PageSpec:
    slug: str  # the content file's name (guide/content/<lang>/<slug>.md)
    kind: Kind
    url_part: str  # the last URL segment; FAQ slugs drop their "faq-" prefix


RULES_SLUGS = (
    "rung",
    "single-sar",
    "hidden-rung",
    "double-sar",
    "be-ranga",
    "mendikot",
    "hukum",
    "backgammon",
)
FAQ_SLUGS = ("faq-court-piece", "faq-hukum", "faq-backgammon")
SITE_SLUGS = ("about", "privacy", "terms", "contact")

PAGES: tuple[PageSpec, ...] = (
    *(PageSpec(slug, "rules", slug) for slug in RULES_SLUGS),
    *(PageSpec(slug, "faq", slug.removeprefix("faq-")) for slug in FAQ_SLUGS),
    PageSpec("glossary", "glossary", "glossary"),
    PageSpec("house-rules", "house-rules", "house-rules"),
    *(PageSpec(slug, "site", slug) for slug in SITE_SLUGS),
)
BY_SLUG: dict[str, PageSpec] = {p.slug: p for p in PAGES}
FAQ_BY_URL_PART: dict[str, PageSpec] = {p.url_part: p for p in PAGES if p.kind == "faq"}
ALL_SLUGS: tuple[str, ...] = tuple(p.slug for p in PAGES)
GUIDE_PAGES: tuple[PageSpec, ...] = tuple(p for p in PAGES if p.kind != "site")


def url_name_and_kwargs(spec: PageSpec) -> tuple[str, dict[str, str]]:
    """The URL name and kwargs that `reverse` needs for a page."""
    if spec.kind == "rules":
        return "guide:rules", {"slug": spec.url_part}
    if spec.kind == "faq":
        return "guide:faq", {"topic": spec.url_part}
    if spec.kind == "glossary":
        return "guide:glossary", {}
    if spec.kind == "site":
        return f"guide:{spec.slug}", {}
    return "guide:house_rules", {}
