"""The production recipe runs (issue #26): Debian's nginx with deploy/nginx/baithak.conf
itself (its names, ports, certificate and static folder replaced) in front of two daphne
processes started as deploy/systemd/baithak-web@.service starts them, on the machine's
PostgreSQL and Redis.

Two players play a hand through nginx over TLS (wss); one daphne is killed with SIGKILL
mid-hand; the players' sockets that it held close, they reconnect through the same
address, nginx sends them to the live process, and the hand goes on: every action is in
the log once, in order, and every version a player saw twice was the same state. nginx
also serves the static files itself, redirects plain HTTP, and hands daphne the client's
real address whatever X-Forwarded-For the client sends.

Skips, saying why, only when nginx is not installed (scripts/ensure_system_deps.sh
installs it as root) or PostgreSQL or Redis are not there (as the other scale-out tests).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tables.test_scaleout import (
    DAPHNE,
    PG_ADMIN,
    REDIS_URL,
    ROOT,
    SETUP,
    Cluster,
    services_up,
)

pytestmark = pytest.mark.scaleout

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
SITE_CONF = ROOT / "deploy" / "nginx" / "baithak.conf"
WEB_UNIT = ROOT / "deploy" / "systemd" / "baithak-web@.service"
SPOOFED = "203.0.113.77"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _daphne_arguments() -> list[str]:
    """The unit's daphne arguments, for a port the test chooses (``%i``)."""
    text = WEB_UNIT.read_text().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
    words = line.split()[1:]  # after the daphne program
    assert words[-1] == "baithak.asgi:application"
    return words


class Behind(Cluster):
    """The cluster's two daphnes, started with the unit's arguments."""

    def start(self, i: int) -> None:
        args = [str(self.ports[i]) if w == "%i" else w for w in _daphne_arguments()]
        log = open(self.logs / f"daphne{i}.log", "ab")  # noqa: SIM115 - lives with the process
        self.procs[i] = subprocess.Popen(
            [sys.executable, "-c", DAPHNE, *args], cwd=ROOT, env=self.env, stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.ports[i]}/healthz",
                                            timeout=2) as answer:  # fmt: skip
                    if answer.status == 200:
                        return
            except OSError:
                pass
            assert self.procs[i].poll() is None, (self.logs / f"daphne{i}.log").read_text()
            assert time.monotonic() < deadline, "daphne did not come up"
            time.sleep(0.2)


class Nginx:
    """Debian's nginx in the foreground with the recipe's site file, on free ports."""

    def __init__(self, tmp: Path, upstreams: list[int]) -> None:
        self.tmp = tmp
        self.http, self.https = _free_port(), _free_port()
        key, cert = tmp / "key.pem", tmp / "cert.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )  # fmt: skip
        site = SITE_CONF.read_text()
        site = site.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}")
        site = site.replace("127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}")
        site = re.sub(r"listen 80;", f"listen 127.0.0.1:{self.http};", site)
        site = re.sub(r"listen 443 ssl http2;", f"listen 127.0.0.1:{self.https} ssl http2;", site)
        site = re.sub(r"\s*listen \[::\]:\d+[^;]*;", "", site)
        site = site.replace("/etc/letsencrypt/live/baithak.example.org/fullchain.pem", str(cert))
        site = site.replace("/etc/letsencrypt/live/baithak.example.org/privkey.pem", str(key))
        site = site.replace("/srv/baithak/app/staticfiles/", f"{ROOT / 'static'}/")
        site = site.replace("baithak.example.org", "127.0.0.1")
        assert "8001" not in site and "example.org" not in site and "/srv/" not in site
        (tmp / "baithak.conf").write_text(site)
        (tmp / "nginx.conf").write_text(
            # As root, the workers would be nobody, who may not enter pytest's folders.
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"worker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
            "events { worker_connections 256; }\n"
            "http {\n  include /etc/nginx/mime.types;\n"
            f"  access_log {tmp}/access.log;\n"
            f"  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;\n"
            f"  fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi;\n"
            f"  scgi_temp_path {tmp}/scgi;\n"
            f"  include {tmp}/baithak.conf;\n}}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert NGINX is not None
        test = subprocess.run([NGINX, "-t", "-e", str(self.tmp / "error.log"),
                               "-c", str(self.tmp / "nginx.conf")],
                              capture_output=True, text=True)  # fmt: skip
        assert test.returncode == 0, test.stderr
        self.proc = subprocess.Popen(
            [NGINX, "-e", str(self.tmp / "error.log"), "-c", str(self.tmp / "nginx.conf"),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/healthz")
                return
            except OSError:
                assert self.proc.poll() is None, (self.tmp / "error.log").read_text()
                assert time.monotonic() < deadline, "nginx did not come up"
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    @staticmethod
    def tls() -> ssl.SSLContext:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the test's own certificate
        return context

    def get(self, path: str, headers: dict[str, str] | None = None,
            secure: bool = True) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
        conn: http.client.HTTPConnection
        if secure:
            conn = http.client.HTTPSConnection("127.0.0.1", self.https, timeout=10,
                                               context=self.tls())  # fmt: skip
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.http, timeout=10)
        try:
            conn.request("GET", path, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[tuple[Behind, Nginx]]:
    """Two daphnes on a fresh PostgreSQL database and Redis (as tests/tables/
    test_scaleout.py's cluster), and nginx in front of them."""
    if NGINX is None:
        pytest.skip("nginx is not installed (scripts/ensure_system_deps.sh installs "
                    "Debian's nginx when run as root)")  # fmt: skip
    reason = services_up()
    if reason:
        pytest.skip(reason)
    import psycopg
    import redis

    name = f"baithak_nginx_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(REDIS_URL).flushdb()
    group = Behind(f"postgres://postgres@127.0.0.1:5432/{name}", tmp_path)
    front = Nginx(tmp_path, group.ports)
    # As docs/DEPLOY.md says: the public https:// origin is a trusted one, so its pages may
    # open sockets (compared as scheme + host + port, whatever daphne itself was reached by).
    group.env["CSRF_TRUSTED_ORIGINS"] = f"https://127.0.0.1:{front.https}"
    try:
        group.manage("migrate", "--noinput")
        yield group, front
    finally:
        front.stop()
        group.stop()
        redis.Redis.from_url(REDIS_URL).flushdb()
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Player:
    """A JSON client through nginx: plays a random legal action whenever its frame offers
    one, and opens its socket again, through the same address, when it closes."""

    def __init__(self, front: Nginx, table: int, cookie: str, seat: int) -> None:
        self.front, self.table, self.cookie, self.seat = front, table, cookie, seat
        self.rng = random.Random(seat)
        self.seen: dict[int, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0
        self.last: dict[str, Any] = {}

    async def play(self, stop: Any, timeout: float = 300) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        uri = f"wss://127.0.0.1:{self.front.https}/ws/tables/{self.table}/?format=json"
        origin = f"https://127.0.0.1:{self.front.https}"
        async with asyncio.timeout(timeout):
            while True:
                try:
                    async with connect(uri, origin=origin, ssl=self.front.tls(),  # type: ignore[arg-type]
                                       additional_headers={"Cookie": f"sessionid={self.cookie}"}
                                       ) as ws:  # fmt: skip
                        if await self._frames(ws, stop):
                            return
                except (ConnectionClosed, OSError):
                    pass
                self.reconnects += 1
                await asyncio.sleep(0.3)

    async def _frames(self, ws: Any, stop: Any) -> bool:
        sent_at = -1
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
                # One version, one state, before the kill and after: nothing lost or doubled.
                assert self.seen[version] == frame["view"], version
            self.seen[version] = frame["view"]
            self.last = frame
            if stop(frame):
                return True
            if frame["legal"] and sent_at != version:
                sent_at = version
                await ws.send(json.dumps({
                    "type": "action", "action": self.rng.choice(frame["legal"]),
                    "version": version,
                }))  # fmt: skip
        return False


def _hand_over(frame: dict[str, Any]) -> bool:
    return bool(frame["view"]["match"]["hands_played"])


def test_a_hand_through_nginx_goes_on_when_a_daphne_is_killed(
    nginx: tuple[Behind, Nginx],
) -> None:
    group, front = nginx
    setup = group.manage("shell", code=SETUP)
    group.start(0)
    group.start(1)
    front.start()
    table = setup["b"]  # seats 0 and 1 people, 2 and 3 bots
    players = [Player(front, table, setup["cookies"][seat], seat) for seat in (0, 1)]

    async def main() -> None:
        tasks = [asyncio.create_task(p.play(_hand_over)) for p in players]
        # Mid-hand: a dozen actions in, one daphne goes, with no clean shutdown.
        while max((p.last.get("version", 0) for p in players), default=0) < 12:
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.1)
        group.kill(0)
        await asyncio.gather(*tasks)

    asyncio.run(main())
    # The first two sockets through nginx went one to each process (round robin): the
    # killed one held a player, who came back through nginx to the live one.
    assert sum(p.reconnects for p in players) >= 1
    found = group.inspect(table)
    assert found["hands"] >= 1
    assert found["numbers"] == list(range(1, found["version"] + 1))  # none lost or doubled
    log = found["log"]
    assert all(source == "bot" for seat, _a, source in log if seat in (2, 3))
    assert all(source == "player" for seat, _a, source in log if seat in (0, 1))
    assert [e for p in players for e in p.errors if e["code"] != "stale"] == []


def test_nginx_serves_static_files_redirects_http_and_passes_the_real_client_address(
    nginx: tuple[Behind, Nginx],
) -> None:
    group, front = nginx
    group.start(0)
    group.start(1)
    front.start()
    status, headers, body = front.get("/static/css/site.css")
    assert status == 200 and body == (ROOT / "static" / "css" / "site.css").read_bytes()
    assert "immutable" in headers["cache-control"]
    status, headers, _ = front.get("/en/", secure=False)
    assert status == 301 and headers["location"].startswith("https://")
    assert front.get("/healthz", secure=False)[0] == 200  # a probe's plain HTTP
    # A page through nginx, its client claiming another address: daphne logs the real one.
    marker = f"/en/where-am-i-{random.randrange(10**9)}/"
    status, _headers, _ = front.get(marker, headers={"X-Forwarded-For": SPOOFED})
    assert status == 404
    time.sleep(0.5)
    logs = "".join((group.logs / f"daphne{i}.log").read_text() for i in (0, 1))
    lines = [line for line in logs.splitlines() if f'"GET {marker}"' in line]  # access log
    assert lines, logs[-2000:]
    # "127.0.0.1:0": the address nginx gave in X-Forwarded-For (daphne --proxy-headers,
    # with no port given), not the spoofed one and not nginx's own connection's.
    assert all(line.startswith("127.0.0.1:0 ") for line in lines), lines
    assert SPOOFED not in logs
    # Static files never reached daphne.
    assert "/static/css/site.css" not in logs
