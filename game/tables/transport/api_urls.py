"""/api/…: the live tables' JSON API (docs/TABLE_PROTOCOL.md). Paths take no trailing slash,
as the protocol writes them; one is accepted too."""

from django.urls import URLPattern, path, re_path

from game.tables.transport import api

_ROUTES = [
    ("tables", api.tables, "api_tables"),
    ("tables/<int:table_id>", api.table, "api_table"),
    ("tables/<int:table_id>/seats/<int:number>", api.seat, "api_seat"),
    ("tables/<int:table_id>/seed", api.seed, "api_seed"),
    ("tables/<int:table_id>/leave", api.leave, "api_leave"),
    ("tables/<int:table_id>/start", api.start, "api_start"),
    ("tables/<int:table_id>/record", api.record, "api_record"),
    ("tables/<int:table_id>/analysis", api.analysis_view, "api_analysis"),
]

urlpatterns: list[URLPattern] = [path(route, view, name=name) for route, view, name in _ROUTES]
urlpatterns += [path(route + "/", view) for route, view, _name in _ROUTES]
urlpatterns += [re_path(r"^(?P<rest>.*)$", api.not_found)]  # the rest: 404, in JSON too
