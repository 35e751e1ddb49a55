"""The in-memory channel layer for one process (``make run``, tests), with a cheaper sweep.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group for expired
messages and memberships on each send and each receive: with a thousand sockets open that
sweep was a fifth of the server's time (bench/load.py --profile). Messages expire after a
minute and memberships after a day, so sweeping at most once a second changes nothing a
player or a test could notice. The load benchmark's anchor uses the same layer.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer

SWEEP_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryLayer):  # type: ignore[misc]
    _swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        super()._clean_expired()
