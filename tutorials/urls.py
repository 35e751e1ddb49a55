"""Lesson URLs, inside i18n_patterns: /<lang>/learn/…"""

from django.urls import path

from tutorials import mistake_views, views

app_name = "tutorials"

urlpatterns = [
    path("", views.index, name="index"),
    path("practice/<slug:skill>/", views.practice, name="practice"),
    path("mine/", mistake_views.own_hands, name="own_hands"),
    path("mine/<int:table_id>/<int:hand>/", mistake_views.own_hand, name="own_hand"),
    path(
        "mine/<int:table_id>/<int:hand>/<int:number>/",
        mistake_views.own_mistake,
        name="own_mistake",
    ),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/restart/", views.restart, name="restart"),
    path("<slug:slug>/board/", views.board, name="board"),
]
