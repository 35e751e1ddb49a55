"""Guide URLs, included inside i18n_patterns: /<lang>/rules/…, /<lang>/faq/…, …, and the
site pages /<lang>/about/, /<lang>/privacy/, /<lang>/terms/, /<lang>/contact/."""

from django.urls import path

from guide import views
from guide.pages import SITE_SLUGS

app_name = "guide"

urlpatterns = [
    path("rules/", views.index, name="index"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("faq/", views.faq_index, name="faq_index"),
    path("faq/<slug:topic>/", views.faq, name="faq"),
    path("glossary/", views.glossary, name="glossary"),
    path("house-rules/", views.house_rules, name="house_rules"),
    *(path(f"{slug}/", views.site_page, {"slug": slug}, name=slug) for slug in SITE_SLUGS),
]
