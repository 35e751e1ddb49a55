"""Backgammon's own pages under /<lang>/play/ (in the "game" URL namespace, beside the
shared table pages: game/urls.py)."""

from django.urls import URLPattern, path

from game.backgammon import views

routes: list[URLPattern] = [
    path("<int:table_id>/board/", views.board_partial, name="bg_board"),
    path("<int:table_id>/replay/<int:hand>/mat/", views.mat_file, name="bg_mat"),
    path("new/backgammon/", views.new_table, name="new_bg"),
]
