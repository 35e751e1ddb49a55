"""Two daphne processes on the machine's real PostgreSQL and Redis share live tables.

- Players connected to different processes play one hand together (JSON clients over
  real sockets, with the ``websockets`` package).
- One process is killed with SIGKILL mid-hand and started again: the hand resumes, no
  action is lost or applied twice, every deadline (the bots' moves) fires once.

Run: ``.venv/bin/python -m pytest tests/tables/test_scaleout.py -m scaleout``
(CI's ``.ci/run`` starts PostgreSQL and Redis; without them these tests skip, saying why).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.scaleout

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/13"

DAPHNE = (
    "import bootstrap; bootstrap.ensure_baithak_importable(); "
    "from daphne.cli import CommandLineInterface; CommandLineInterface.entrypoint()"
)

# Run inside a process configured like the servers: users, sessions, tables.
SETUP = r"""
import json
from django.contrib.auth import get_user_model
from django.test import Client
from game.tables import access, lifecycle

User = get_user_model()
users = [User.objects.create_user(f"far{i}", password="pw") for i in range(4)]
cookies = []
for u in users:
    c = Client()
    c.force_login(u)
    cookies.append(c.cookies["sessionid"].value)
own = [access.Owner(u, None) for u in users]
# Table A: four people. Table B: two people and two bots (the bots' moves are deadlines).
a = lifecycle.create_table(game="courtpiece", owner=own[0], variant="rung", move_seconds=600)
for n in (1, 2, 3):
    lifecycle.take_seat(table_id=a.pk, owner=own[n], seat=n)
lifecycle.start_table(table_id=a.pk, owner=own[0])
b = lifecycle.create_table(
    game="courtpiece", owner=own[0], variant="rung", move_seconds=600, bots=[2, 3]
)
lifecycle.take_seat(table_id=b.pk, owner=own[1], seat=1)
lifecycle.start_table(table_id=b.pk, owner=own[0])
print("RESULT:" + json.dumps({"cookies": cookies, "a": a.pk, "b": b.pk}))
"""

INSPECT = r"""
import json
from game.tables.store import replay
from game.models import Action, Connection, Seat, Table
t = Table.objects.get(pk=TABLE_ID)
open_sockets = Connection.objects.filter(table=t).count()
counts = list(Seat.objects.filter(table=t).order_by("number").values_list("connections", flat=True))
rows = list(Action.objects.filter(table=t).order_by("number").values_list(
    "number", "seat", "action", "source"))
match = replay.at_version(t, t.version)   # a full replay from the log: every action legal
print("RESULT:" + json.dumps({
    "version": t.version, "numbers": [r[0] for r in rows],
    "log": [[r[1], r[2], r[3]] for r in rows], "hands": len(match.hands),
    "to_move": match.to_move, "deadline_kind": t.deadline_kind,
    "deadline_version": t.deadline_version, "open": open_sockets, "counts": counts,
}))
"""


def services_up() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        return f"PostgreSQL at 127.0.0.1:5432 is not reachable ({exc})"
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_timeout=3).ping()
    except Exception as exc:
        return f"Redis at 127.0.0.1:6379 is not reachable ({exc})"
    try:
        import websockets  # noqa: F401
    except ImportError:
        return "the websockets package is not installed (pip install '.[test]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """Two daphne processes on one database and one Redis database."""

    def __init__(self, database_url: str, logs: Path) -> None:
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        self.env.update(
            DATABASE_URL=database_url,
            REDIS_URL=REDIS_URL,
            TABLES_BOT_PAUSE="0.05,0.1",
            TABLES_TRICK_PAUSE="0.1",
            TABLES_HAND_PAUSE="0.1",
            TABLES_PROCESS_TIMEOUT="6",  # a killed process's sockets are closed after 6 s
            PYTHONPATH=str(ROOT),
        )
        self.logs = logs
        self.ports = [_free_port(), _free_port()]
        self.procs: list[subprocess.Popen[bytes] | None] = [None, None]

    def manage(self, *args: str, code: str | None = None) -> dict[str, Any]:
        cmd = [sys.executable, "manage.py", *args] + (["-c", code] if code else [])
        done = subprocess.run(cmd, cwd=ROOT, env=self.env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        for line in done.stdout.splitlines():
            if line.startswith("RESULT:"):
                return dict(json.loads(line[len("RESULT:"):]))
        return {}

    def start(self, i: int) -> None:
        log = open(self.logs / f"daphne{i}.log", "ab")  # noqa: SIM115 - lives with the process
        self.procs[i] = subprocess.Popen(
            [sys.executable, "-c", DAPHNE, "--websocket_timeout", "-1", "-b", "127.0.0.1",
             "-p", str(self.ports[i]), "baithak.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                # The first request also starts this process's clock (game.clock).
                with urllib.request.urlopen(f"http://127.0.0.1:{self.ports[i]}/healthz",
                                            timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            assert self.procs[i].poll() is None, (self.logs / f"daphne{i}.log").read_text()
            assert time.monotonic() < deadline, "daphne did not come up"
            time.sleep(0.2)

    def kill(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        self.procs[i] = None

    def stop(self) -> None:
        for i, proc in enumerate(self.procs):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                self.procs[i] = None

    def inspect(self, table_id: int) -> dict[str, Any]:
        return self.manage("shell", code=INSPECT.replace("TABLE_ID", str(table_id)))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    reason = services_up()
    if reason:
        pytest.skip(reason)
    import psycopg
    import redis

    name = f"baithak_tables_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(REDIS_URL).flushdb()
    group = Cluster(f"postgres://postgres@127.0.0.1:5432/{name}", tmp_path)
    try:
        group.manage("migrate", "--noinput")
        yield group
    finally:
        group.stop()
        redis.Redis.from_url(REDIS_URL).flushdb()
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Player:
    """A JSON client: plays a random legal action whenever its frame offers one."""

    def __init__(self, port: int, table: int, cookie: str, seat: int) -> None:
        self.port, self.table, self.cookie, self.seat = port, table, cookie, seat
        self.rng = random.Random(seat)
        self.seen: dict[int, Any] = {}  # version -> this seat's view, as received
        self.errors: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}

    async def play(self, stop: Callable[[dict[str, Any]], bool], timeout: float = 120) -> None:
        from websockets.asyncio.client import connect

        uri = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table}/?format=json"
        async with connect(uri, origin=f"http://127.0.0.1:{self.port}",  # type: ignore[arg-type]
                           additional_headers={"Cookie": f"sessionid={self.cookie}"}) as ws:
            sent_at = -1
            async with asyncio.timeout(timeout):
                async for text in ws:
                    frame = json.loads(text)
                    if frame["type"] == "error":
                        self.errors.append(frame)
                        continue
                    if frame["type"] != "state":
                        continue
                    assert frame["seat"] == self.seat
                    version = frame["version"]
                    if version in self.seen:
                        # One version, one state: nothing was applied twice or lost.
                        assert self.seen[version] == frame["view"], version
                    self.seen[version] = frame["view"]
                    self.last = frame
                    if stop(frame):
                        return
                    if frame["legal"] and sent_at != version:
                        sent_at = version
                        await ws.send(json.dumps({
                            "type": "action", "action": self.rng.choice(frame["legal"]),
                            "version": version,
                        }))


def _hand_over(frame: dict[str, Any]) -> bool:
    return bool(frame["view"]["match"]["hands_played"])


def test_players_on_two_processes_play_one_hand_together(cluster: Cluster) -> None:
    setup = cluster.manage("shell", code=SETUP)
    cluster.start(0)
    cluster.start(1)
    players = [
        Player(cluster.ports[seat % 2], setup["a"], setup["cookies"][seat], seat)
        for seat in range(4)
    ]

    async def main() -> None:
        await asyncio.gather(*(p.play(_hand_over) for p in players))

    asyncio.run(main())
    found = cluster.inspect(setup["a"])
    assert found["hands"] >= 1
    assert found["numbers"] == list(range(1, found["version"] + 1))
    assert {source for _s, _a, source in found["log"]} == {"player"}
    assert all(e["code"] == "stale" for p in players for e in p.errors)
    for p in players:
        assert p.last["version"] >= found["version"] - 1


def test_a_process_killed_mid_hand_restarts_and_the_hand_resumes(cluster: Cluster) -> None:
    setup = cluster.manage("shell", code=SETUP)
    cluster.start(0)
    cluster.start(1)
    table = setup["b"]
    # Seat 0 plays through process 0, seat 1 through process 1; seats 2 and 3 are bots,
    # moved by whichever process's clock fires their deadline first.
    first = Player(cluster.ports[0], table, setup["cookies"][0], 0)
    other = Player(cluster.ports[1], table, setup["cookies"][1], 1)

    async def before_kill() -> None:
        # Seat 0 leaves once a dozen actions are in; seat 1 plays on meanwhile.
        other_task = asyncio.create_task(other.play(_hand_over, timeout=300))
        await first.play(lambda f: f["version"] >= 12)
        cluster.kill(0)  # SIGKILL: no clean shutdown, no disconnect handlers
        await asyncio.sleep(1.0)  # process 1's clock keeps the bots playing
        cluster.start(0)
        resumed = Player(cluster.ports[0], table, setup["cookies"][0], 0)
        resumed.seen = dict(first.seen)  # what seat 0 saw before must still hold
        await resumed.play(_hand_over, timeout=300)
        await other_task
        first.last = resumed.last

    asyncio.run(before_kill())
    found = cluster.inspect(table)
    assert found["hands"] >= 1
    assert found["numbers"] == list(range(1, found["version"] + 1))  # nothing lost or doubled
    log = found["log"]
    assert {seat for seat, _a, source in log if source == "bot"} <= {2, 3}
    assert all(source == "bot" for seat, _a, source in log if seat in (2, 3))
    assert all(source == "player" for seat, _a, source in log if seat in (0, 1))
    assert [e for e in first.errors + other.errors if e["code"] != "stale"] == []
    # The deadline left is the one of the state now: for the seat to move at this version.
    if found["deadline_kind"]:
        assert found["deadline_version"] == found["version"]
    # Every socket is closed now, the killed process's too (its heartbeat stopped and a
    # live clock closed them for it), so no seat still counts as connected.
    deadline = time.monotonic() + 60
    while found["open"] and time.monotonic() < deadline:
        time.sleep(1)
        found = cluster.inspect(table)
    assert found["open"] == 0 and found["counts"] == [0, 0, 0, 0]
