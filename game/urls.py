"""Pages of the live tables, under the language prefix: /<lang>/play/…"""

from django.urls import path

from game import views

app_name = "game"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("now/", views.play_now, name="play_now"),
    path("new/", views.new_table, name="new"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/sit/", views.sit, name="sit"),
    path("<int:table_id>/leave/", views.leave, name="leave"),
    path("<int:table_id>/start/", views.start, name="start"),
    path("<int:table_id>/replay/<int:hand>/", views.replay, name="replay"),
    path("<int:table_id>/replay/<int:hand>/again/", views.deal_again, name="again"),
    path("<int:table_id>/summary/<int:hand>/", views.hand_summary, name="summary"),
    path("<int:table_id>/board/", views.bg_board, name="bg_board"),
    path("<int:table_id>/replay/<int:hand>/mat/", views.bg_mat, name="bg_mat"),
    path("new/backgammon/", views.new_bg_table, name="new_bg"),
]
