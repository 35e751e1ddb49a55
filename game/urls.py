"""Pages of the live tables, under the language prefix: /<lang>/play/…: the pages every
game shares (game.tables.pages), then each registered game's own (``GamePages.routes``)."""

from django.urls import URLPattern, path

from game.tables import pages, registry

app_name = "game"

urlpatterns: list[URLPattern] = [
    path("", pages.lobby, name="lobby"),
    path("now/", pages.play_now, name="play_now"),
    path("<int:table_id>/", pages.table_page, name="table"),
    path("<int:table_id>/seats/", pages.seats_part, name="seats"),
    path("<int:table_id>/sit/", pages.sit, name="sit"),
    path("<int:table_id>/leave/", pages.leave, name="leave"),
    path("<int:table_id>/start/", pages.start, name="start"),
    path("<int:table_id>/seed/", pages.set_seed, name="seed"),
    path("<int:table_id>/replay/<int:hand>/", pages.replay, name="replay"),
]
for _game in registry.games():
    urlpatterns += _game.pages.routes
