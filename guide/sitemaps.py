"""sitemap.xml: every guide page in every language it exists in, with hreflang alternates."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from guide.content import available_languages
from guide.pages import PAGES, PageSpec, url_name_and_kwargs


class GuideSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True  # points at settings.LANGUAGE_CODE (English)
    changefreq = "monthly"

    def items(self) -> list[PageSpec | str]:
        return ["home", "index", "faq_index", *PAGES]

    def location(self, item: PageSpec | str) -> str:
        if item == "home":
            return reverse("home")
        if item == "index":
            return reverse("guide:index")
        if item == "faq_index":
            return reverse("guide:faq_index")
        assert isinstance(item, PageSpec)
        name, kwargs = url_name_and_kwargs(item)
        return reverse(name, kwargs=kwargs)

    def get_languages_for_item(self, item: PageSpec | str) -> list[str]:
        # A page whose file is missing in a language is not listed in that language.
        if isinstance(item, PageSpec):
            return available_languages(item.slug)
        return super().get_languages_for_item(item)

    def priority(self, item: PageSpec | str) -> float:
        if isinstance(item, PageSpec) and item.kind == "rules":
            return 0.8
        return 0.6
