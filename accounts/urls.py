"""Account pages, under /<lang>/accounts/: ours first, then allauth's."""

from django.urls import include, path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("", include("allauth.urls")),
]
