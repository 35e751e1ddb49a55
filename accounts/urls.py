"""The accounts app's URLs, included inside i18n_patterns: /<lang>/accounts/… (ours first,
then allauth's) and the public player pages, /<lang>/players/<username>/."""

from django.urls import include, path

from accounts import views

account_pages = [
    path("profile/", views.profile, name="profile"),
    path("", include("allauth.urls")),
]

urlpatterns = [
    path("accounts/", include(account_pages)),
    path("players/<str:username>/", views.player, name="player"),
]
