"""The site's WebSockets open only from its own origins, compared as scheme + host + port
(docs/TABLE_PROTOCOL.md; issue 26): another port or scheme on the same host is refused,
as is a handshake without Origin; the request's own origin and CSRF_TRUSTED_ORIGINS are
accepted."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from game.tables import lifecycle
from game.tables.transport import clock
from tests.tables.live import owner

pytestmark = pytest.mark.django_db(transaction=True)


def _opens(path: str, headers: list[tuple[bytes, bytes]], scheme: str = "ws") -> bool:
    from baithak.asgi import application

    async def body() -> bool:
        comm = WebsocketCommunicator(application, path, headers=headers)
        comm.scope["scheme"] = scheme
        connected, _ = await comm.connect(timeout=10)
        await comm.disconnect()
        await clock.stop()
        return bool(connected)

    return bool(async_to_sync(body)())


@pytest.fixture
def table_path(users: list[Any]) -> str:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", bots=[1, 2, 3])
    return f"/ws/tables/{table.pk}/?format=json"


SAME = [(b"host", b"testserver"), (b"origin", b"http://testserver")]


@pytest.mark.parametrize(
    "host, origin, scheme, opens",
    [
        (b"testserver", b"http://testserver", "ws", True),
        (b"testserver", b"http://testserver:80", "ws", True),
        (b"testserver", b"HTTP://TestServer", "ws", True),
        (b"127.0.0.1:8000", b"http://127.0.0.1:8000", "ws", True),
        (b"localhost:8443", b"https://localhost:8443", "wss", True),
        (b"127.0.0.1:8000", b"http://127.0.0.1:9000", "ws", False),  # another port
        (b"127.0.0.1:8000", b"https://127.0.0.1:8000", "ws", False),  # another scheme
        (b"localhost:8443", b"http://localhost:8443", "wss", False),
        (b"testserver", b"http://testserver:8080", "ws", False),
        (b"testserver", b"http://evil.example", "ws", False),
        (b"testserver", b"http://testserver.evil.example", "ws", False),
        (b"evil.example", b"http://evil.example", "ws", False),  # not an allowed host
        (b"testserver", b"null", "ws", False),
        (b"testserver", b"http://testserver/path", "ws", False),
        (b"testserver", b"http://user@testserver", "ws", False),
        (b"testserver", b"http://testserver:99999", "ws", False),
        (b"testserver", b"ws://testserver", "ws", False),
        (b"testserver", b"http://testserver\xff", "ws", False),
    ],
)
def test_origin_is_scheme_host_and_port(
    table_path: str, host: bytes, origin: bytes, scheme: str, opens: bool
) -> None:
    headers = [(b"host", host), (b"origin", origin)]
    assert _opens(table_path, headers, scheme) is opens
    assert _opens("/ws/lobby/?format=json", headers, scheme) is opens


def test_a_handshake_without_origin_is_refused(table_path: str) -> None:
    assert not _opens(table_path, [(b"host", b"testserver")])
    assert not _opens(table_path, [])
    assert _opens(table_path, SAME)


def test_csrf_trusted_origins_are_the_sites_too(table_path: str, settings: Any) -> None:
    """Behind a proxy that ends TLS: the page's origin is https, the socket daphne sees ws."""
    headers = [(b"host", b"testserver"), (b"origin", b"https://play.example")]
    assert not _opens(table_path, headers)
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example"]
    assert _opens(table_path, headers)
    assert not _opens(table_path, [(b"host", b"testserver"), (b"origin", b"http://play.example")])
    assert not _opens(
        table_path, [(b"host", b"testserver"), (b"origin", b"https://play.example:8443")]
    )


def test_the_proxys_word_on_https_counts(table_path: str, settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = [(b"host", b"testserver"), (b"x-forwarded-proto", b"https")]
    assert _opens(table_path, [*proxied, (b"origin", b"https://testserver")])
    assert not _opens(table_path, [*proxied, (b"origin", b"http://testserver")])
