"""What the site asks of daphne's WebSocket server that daphne has no option for.

Daphne's WebSocket library (autobahn) fails a connection by dropping its TCP connection
unless told otherwise (``failByDrop``): a frame over daphne's ``websocket_max_message_size``
(1 MiB by default) then ended the socket with no close frame, and a client could not tell it
from a network fault. With ``failByDrop`` off it gets the close frame the protocol names
(1009, "message too big"), and any other failure its own code. Daphne makes its factory
after importing the application, so this is set from ``baithak.asgi`` on import, whoever
starts daphne (``make run``'s scripts/serve.py, the tests' servers, a service unit).
"""

from __future__ import annotations

from typing import Any


def close_frames_on_failure() -> None:
    """Daphne's WebSocket factory fails connections with a close frame, not a dropped TCP
    connection (a no-op without daphne, or if already done)."""
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:  # pragma: no cover - served by something else
        return
    if getattr(WebSocketFactory, "closes_with_a_frame", False):
        return
    set_options = WebSocketFactory.setProtocolOptions

    def with_close_frames(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("failByDrop", False)
        set_options(self, *args, **kwargs)

    WebSocketFactory.setProtocolOptions = with_close_frames  # type: ignore[method-assign]
    WebSocketFactory.closes_with_a_frame = True  # type: ignore[attr-defined]
