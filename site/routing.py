"""WebSocket routes."""

from django.urls import URLPattern, path

from game.tables.transport.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
