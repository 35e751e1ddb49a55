"""URL configuration. Pages people read live under /ur/, /hi/ and /en/."""

from baithak import views
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from accounts import views as accounts_views
from guide import views as guide_views
from guide.sitemaps import GuideSitemap

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),  # set_language for the switcher
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    path("api/", include("game.api_urls")),  # live tables' JSON API (TABLE_PROTOCOL.md)
    # `/`: saved preference, then Accept-Language (guide.language), not only the cookie.
    path("", guide_views.root, name="root"),
    path("sitemap.xml", sitemap, {"sitemaps": {"guide": GuideSitemap}}, name="sitemap"),
    path("robots.txt", guide_views.robots_txt, name="robots_txt"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("players/<str:username>/", accounts_views.player, name="player"),
    path("play/", include("game.urls")),  # live tables: lobby, Play now, table, replay
    path("", include("guide.urls")),
    prefix_default_language=True,
)
