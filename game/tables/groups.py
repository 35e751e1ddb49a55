"""The channel layer's groups the tables speak through (one per table, the lobby's and the
clocks'), so every process names them alike."""

from __future__ import annotations

LOBBY_GROUP = "tables-lobby"
CLOCK_GROUP = "tables-clock"


def group_name(table_id: int) -> str:
    return f"table-{table_id}"
