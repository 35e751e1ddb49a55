"""WebSocket routes. The live tables add theirs here."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
