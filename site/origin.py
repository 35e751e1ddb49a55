"""Which pages may open the site's WebSockets: those of the site's own origins only, compared
as scheme + host + port (docs/TABLE_PROTOCOL.md: "A program sends ``Origin`` with the
site's own scheme, host and port (as a browser does); any other origin is refused").

A browser sends a signed-in player's cookies with a socket opened from any page, so a
socket from another origin (another port or scheme on the same host included) could act
for them: Channels' ``AllowedHostsOriginValidator`` compared the host only. The site's
origins are ``CSRF_TRUSTED_ORIGINS`` and the request's own: the scheme of the socket
(``wss`` is https; behind a proxy, as ``SECURE_PROXY_SSL_HEADER`` says) with its ``Host``
header, if that is one of ``ALLOWED_HOSTS``. A handshake without ``Origin``, or with any
other, is refused (HTTP 403), before the application sees it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse(text: str) -> Origin | None:
    """``scheme://host[:port]`` as (scheme, host, port), the port made explicit; None for
    anything else (``null``, another scheme, a path, user info, a bad port)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:  # ("HTTP_X_FORWARDED_PROTO", "https"): the header's name as Django spells it
        name, wanted = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        given = _header(scope, header)
        return given is not None and given.split(",")[0].strip() == wanted
    return False


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin the socket was opened at, if its ``Host`` is an allowed host."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return parse(f"{'https' if _secure(scope) else 'http'}://{host}")


def allowed(scope: dict[str, Any]) -> bool:
    """Whether the handshake's ``Origin`` is one of the site's origins."""
    given = _header(scope, b"origin")
    origin = parse(given) if given is not None else None
    if origin is None:
        return False
    trusted = {parse(o) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    return origin in trusted or origin == own_origin(scope)


class SameOriginOnly:
    """ASGI middleware: WebSocket handshakes from the site's own origins only (HTTP and
    anything else pass through)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and not allowed(scope):
            return await WebsocketDenier.as_asgi()(scope, receive, send)
        return await self.application(scope, receive, send)
