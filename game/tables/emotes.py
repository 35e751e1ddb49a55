"""The fixed emotes seated players may send (no free text at a table)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

from game.models import Table
from game.tables import access
from game.tables.errors import TableError
from game.tables.groups import group_name

EMOTES = ("hello", "well_played", "oops", "thanks", "wow", "good_game")


def send_emote(*, table_id: int, owner: access.Owner, emote: str) -> None:
    """One of the fixed emotes from a seated player, at most one per seat every 2 s
    (counted in the shared cache, so every server process sees the same limit)."""
    if emote not in EMOTES:
        raise TableError("malformed", f"emote must be one of {', '.join(EMOTES)}")
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("not_found", f"no table {table_id}") from None
    seat = access.seat_of(table, owner)
    if seat is None:
        raise TableError("not_seated", "only seated players send emotes")
    if not cache.add(f"tables:emote:{table_id}:{seat}", 1, timeout=2):
        raise TableError("rate_limited", "one emote every 2 seconds")
    message = {"type": "table.emote", "seat": seat, "emote": emote}
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(table_id), message)
