"""sitemap.xml entries for the lessons, with hreflang alternates (as guide.sitemaps)."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from tutorials.content import available_languages
from tutorials.lessons import LESSONS


class LearnSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"
    priority = 0.7

    def items(self) -> list[str]:
        return ["index", *(lesson.slug for lesson in LESSONS)]

    def location(self, item: str) -> str:
        if item == "index":
            return reverse("tutorials:index")
        return reverse("tutorials:lesson", kwargs={"slug": item})

    def get_languages_for_item(self, item: str) -> list[str]:
        if item == "index":
            return super().get_languages_for_item(item)
        return available_languages(item)
