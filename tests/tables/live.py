"""Helpers of the live-table tests: they run through the whole ASGI application
(``baithak.asgi.application``) with Channels' WebsocketCommunicator and the in-memory
channel layer. A test folder's conftest imports the fixtures (``tables_env``, ``users``).

Async bodies run under ``asgiref``'s ``async_to_sync`` (no pytest-asyncio needed): the
database work the consumers hand to ``database_sync_to_async`` then runs in the test's
own thread, against pytest-django's test database.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.test import Client

from game.engine import fair
from game.models import Action, Table
from game.tables import access, lifecycle, presence
from game.tables.store import replay
from game.tables.transport import clock, consumers

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")  # the socket's own origin is its Host's (baithak.origin)
CARD = re.compile(r"(?<![A-Za-z0-9])[AKQJT98765432][SHDC](?![A-Za-z0-9])")


@pytest.fixture(autouse=True)
def tables_env(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0
    settings.TABLES_MIN_MOVE_SECONDS = 1
    # Random play must never race a calling timer; tests of the timers set their own.
    settings.TABLES_CALL_SECONDS = 3600
    settings.TABLES_FIRST_CALL_SECONDS = 3600
    monkeypatch.setenv("TABLES_CLOCK", "on")
    channel_layers.backends.clear()  # a fresh in-memory layer for each test's event loop
    replay.clear_cache()
    presence.forget_own_sockets()  # this process's open sockets: none at the start
    cache.clear()
    yield
    channel_layers.backends.clear()
    replay.clear_cache()
    presence.forget_own_sockets()
    cache.clear()


# No test body takes a tenth of this: past it, it is stuck.
BODY_SECONDS = float(os.environ.get("TEST_BODY_SECONDS", "180"))


def _stacks() -> str:
    out = io.StringIO()
    for task in asyncio.all_tasks():
        task.print_stack(file=out)
    return out.getvalue()


def run(body: Callable[[], Awaitable[Any]]) -> Any:
    """Run an async test body to the end, then stop the clock it may have started. A body
    that does not finish in BODY_SECONDS fails with every task's stack (a hang is a
    failure that says where, not a CI run that never ends)."""

    async def wrapped() -> Any:
        task = asyncio.ensure_future(body())
        try:
            done, _pending = await asyncio.wait({task}, timeout=BODY_SECONDS)
            if not done:
                stacks = _stacks()
                task.cancel()
                raise AssertionError(f"the test body hung; its tasks:\n{stacks}")
            return task.result()
        finally:
            await asyncio.wait_for(clock.stop(), 30)

    return async_to_sync(wrapped)()


@pytest.fixture
def users(transactional_db: Any) -> list[Any]:
    User = get_user_model()
    return [User.objects.create_user(f"player{i}", password="pw") for i in range(4)]


def owner(user: Any) -> access.Owner:
    return access.Owner(user=user, guest_key=None)


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def guest_session() -> tuple[str, bytes]:
    """A guest's session holding a guest key, as ``owner_from_request`` makes one."""
    store = SessionStore()
    key = "guest-" + "k" * 20
    store["guest_key"] = key
    store.create()
    return key, f"sessionid={store.session_key}".encode()


def socket(table_id: int, cookie: bytes | None = None, fmt: str = "json", extra: str = "") -> Any:
    from baithak.asgi import application

    headers = [HOST, ORIGIN] + ([(b"cookie", cookie)] if cookie else [])
    path = f"/ws/tables/{table_id}/?format={fmt}{extra}"
    return WebsocketCommunicator(application, path, headers=headers)


async def frames(comm: Any, quiet: float = 0.3) -> list[Any]:
    """At least one frame, then every frame until the socket is quiet for ``quiet`` s."""
    first = await comm.receive_from(timeout=10)
    out = [json.loads(first) if first.lstrip().startswith("{") else first]
    while not await comm.receive_nothing(timeout=quiet):
        text = await comm.receive_from()
        out.append(json.loads(text) if text.lstrip().startswith("{") else text)
    return out


async def settle(comm: Any, timeout: float = 10) -> list[dict[str, Any]]:
    """Frames until one shows every human seat connected (the connect notices are over)."""
    out = []
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        out.append(frame)
        if frame.get("type") == "state" and all(s["connected"] for s in frame["seats"]):
            return out


class Pace:
    """Keep one socket within the consumer's rate limit (a burst of consumers.BURST
    frames, then consumers.RATE a second), as a person's clicks are: a random player
    answering every frame at once would otherwise be refused with rate_limited."""

    def __init__(self) -> None:
        self.tokens = consumers.BURST - 2.0  # a margin for the server's own clock
        self.at = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(consumers.BURST - 2.0, self.tokens + (now - self.at) * consumers.RATE)
        self.at = now

    async def wait(self) -> None:
        self._refill()
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / consumers.RATE * 1.1)
            self._refill()
        self.tokens -= 1


async def until_version(comm: Any, version: int, timeout: float = 10) -> list[dict[str, Any]]:
    """Frames up to and including the first state frame at ``version`` or later."""
    out = []
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        out.append(frame)
        if frame.get("type") == "state" and frame["version"] >= version:
            return out


def four_player_table(users: list[Any], **kwargs: Any) -> Table:
    kwargs.setdefault("move_seconds", 600)
    kwargs.setdefault("game", "courtpiece")
    table = lifecycle.create_table(owner=owner(users[0]), **kwargs)
    for n in (1, 2, 3):
        lifecycle.take_seat(
            table_id=table.pk, owner=owner(users[n]), seat=n, invite=table.invite
        )
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    table.refresh_from_db()
    return table


# ---------------------------------------------------------------------------- secrecy
def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere in ``obj`` (values, inside action strings). Hukum bids
    ("7H": seven tricks, hearts) look like cards and are left out."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in ("bids", "contract"):
                    walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)
        elif isinstance(x, str) and not x.startswith("bid:"):
            found.update(CARD.findall(x))

    walk(obj)
    return found


def strings_in(obj: Any) -> set[str]:
    return set(re.findall(r"[0-9a-f]{64}", json.dumps(obj)))


class Reference:
    """The test's own replay of a table's log, to say what each frame may contain."""

    def __init__(self, table: Table) -> None:
        self.table = Table.objects.get(pk=table.pk)
        self.states = [replay.initial(self.table)]

    def at(self, version: int) -> Any:
        while len(self.states) <= version:
            row = Action.objects.get(table=self.table, number=len(self.states))
            self.states.append(self.states[-1].apply(row.action, row.seat))
        return self.states[version]

    def secret_cards(self, version: int, seat: int | None) -> set[str]:
        """Cards ``seat`` must not be shown at ``version``: what others still hold, its
        own cards not yet received (first five while calling), a blind or hidden card
        it may not know; minus whatever a spectator may see."""
        match = self.at(version)
        hand = match.hand
        played = {a.split(":")[1] for _s, a in hand.history if a.startswith("play:")}
        secret: set[str] = set()
        for s in range(4):
            dealt = set(hand.deal[s])
            if s == seat:
                own = set(hand.view(s)["hand"])
                hidden = hand.view(s).get("hidden") or {}
                if hidden.get("card"):
                    own.add(hidden["card"])
                secret |= dealt - own - played
            else:
                secret |= dealt - played
        return secret - cards_in(match.view(None))

    def unrevealed_seeds(self, version: int) -> set[str]:
        done = len(self.at(version).hands)
        chain = fair.chain(self.table.seed_top, self.table.chain_length)
        return {self.table.seed_top, *chain[done:]}

    def check_frame(self, frame: dict[str, Any], seat: int | None) -> None:
        """The frame is exactly the engine's view for its seat, and leaks nothing."""
        assert frame["type"] == "state"
        assert frame["seat"] == seat
        version = frame["version"]
        match = self.at(version)
        assert frame["view"] == match.view(seat)
        assert frame["to_move"] == match.to_move
        expected_legal = match.legal_actions() if seat is not None and seat == match.to_move else []
        assert frame["legal"] == expected_legal
        assert not cards_in(frame) & self.secret_cards(version, seat)
        rest = {k: v for k, v in frame.items() if k not in ("view", "legal")}
        assert not cards_in(rest), "cards outside the view"
        assert not strings_in(frame) & self.unrevealed_seeds(version)


def pick(frame: dict[str, Any], rng: random.Random) -> str:
    """A random legal action that plays the hand on: a redeal (CP-RUNG-4) or a claim
    would end it before any bot had moved, so they are taken only when nothing else is
    legal (tests that want them send them on purpose)."""
    legal = frame["legal"]
    onward = [a for a in legal if a not in ("redeal", "claim")]
    return rng.choice(onward or legal)


def snapshot(table_id: int) -> tuple[int, int]:
    """The table's version and the length of its log (a refusal changes neither)."""
    table = Table.objects.get(pk=table_id)
    return table.version, Action.objects.filter(table_id=table_id).count()


async def refused(table: Table, sender: Any, others: list[Any], frame: Any, code: str) -> dict:
    before = await database_sync_to_async(snapshot)(table.pk)
    if isinstance(frame, bytes):
        await sender.send_to(bytes_data=frame)
    else:
        await sender.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))
    answer = await sender.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert isinstance(answer["message"], str) and answer["message"]
    assert await sender.receive_nothing(timeout=0.05)
    for comm in others:
        assert await comm.receive_nothing(timeout=0.05)
    assert await database_sync_to_async(snapshot)(table.pk) == before
    return answer
