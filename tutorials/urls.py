"""Lesson URLs, inside i18n_patterns: /<lang>/learn/…"""

from django.urls import path

from tutorials import views

app_name = "tutorials"

urlpatterns = [
    path("", views.index, name="index"),
    path("practice/<slug:skill>/", views.practice, name="practice"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/restart/", views.restart, name="restart"),
    path("<slug:slug>/board/", views.board, name="board"),
]
