"""URL configuration. Pages people read live under /ur/, /hi/ and /en/.

Site-wide routes (`/`, robots.txt, the health check, the home page) are the project's own
(baithak.views); each app brings its pages through its urls module.
"""

from baithak import views
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from guide.sitemaps import GuideSitemap
from tutorials.sitemaps import LearnSitemap

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),  # set_language for the switcher
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    # The live tables' JSON API (docs/TABLE_PROTOCOL.md).
    path("api/", include("game.tables.transport.api_urls")),
    # `/`: saved preference, then Accept-Language (baithak.language), not only the cookie.
    path("", views.root, name="root"),
    path(
        "sitemap.xml",
        sitemap,
        {"sitemaps": {"guide": GuideSitemap, "learn": LearnSitemap}},
        name="sitemap",
    ),
    path("robots.txt", views.robots_txt, name="robots_txt"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    # /<lang>/accounts/… and /<lang>/players/<username>/
    path("", include("accounts.urls")),
    path("play/", include("game.urls")),  # live tables: lobby, Play now, table, replay
    path("", include("guide.urls")),
    path("learn/", include("tutorials.urls")),
    prefix_default_language=True,
)

# Our own error pages, in the visitor's language (baithak.views), also with DEBUG off.
handler404 = "baithak.views.page_not_found"
handler500 = "baithak.views.server_error"
handler400 = "baithak.views.bad_request"
