"""The rules engines: pure Python, no Django, no I/O, no clock, no global random state.

Lessons, live tables, bots, replays and analysis all drive the games through the surface
described in ``protocol.py`` and the README's engine sections. ``tests/test_architecture.py`` and
import-linter keep this package free of Django, Channels and I/O.
"""

from .protocol import GameState, IllegalAction

__all__ = ["GameState", "IllegalAction"]
