"""URL configuration. Pages people read live under /ur/, /hi/ and /en/."""

from baithak import views
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),  # set_language for the switcher
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("players/<str:username>/", accounts_views.player, name="player"),
    prefix_default_language=True,
)
