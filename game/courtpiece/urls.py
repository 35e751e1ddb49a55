"""Court Piece's own pages under /<lang>/play/ (in the "game" URL namespace, beside the
shared table pages: game/urls.py)."""

from django.urls import URLPattern, path

from game.courtpiece import views

routes: list[URLPattern] = [
    path("new/", views.new_table, name="new"),
    path("<int:table_id>/replay/<int:hand>/again/", views.deal_again_page, name="again"),
    path("<int:table_id>/summary/<int:hand>/", views.summary_page, name="summary"),
]
