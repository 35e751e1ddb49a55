"""Load benchmark of the live tables (issue #9), against a bare Channels anchor.

N tables of JSON WebSocket clients (docs/TABLE_PROTOCOL.md) play on one daphne process over
loopback: Court Piece tables of four clients, or with ``--game backgammon`` money games
of two (random legal plays, the cube taken when offered). Each table is paced: the seat
to move sends one action every ``1 / rate`` seconds at most (and never before it has seen
the previous one); the latency of an action is the time from sending it to the moment all
the table's sockets have received the state of the next version. The anchor
(``bench/anchor_asgi.py``, a bare group-broadcast consumer on the same channel layer,
frames of the same size) is measured in the same run with the same clients and pacing:
both servers are up at once and take turns under the load (``--window`` seconds each,
the first ``--settle`` of each turn not recorded), so that both meet the machine's
neighbours alike; each step of the saturation ramp is one turn each.

Figures: p50/p99 latency, actions per second achieved, errors, lost actions (seen applied
by the clients but missing from the table's log afterwards), unanswered ones (no answer
within 10 s: an overloaded server), and the saturation rate: the highest total rate at
which p99 stays within 250 ms, from a ramp of rates. Beside them, what an action costs:
the server's CPU and the whole machine's (the database, Redis and the clients too); and
each turn's own p99 with the CPU time the hypervisor gave to other machines meanwhile
(steal), so that a p99 made by one bad stretch shows as such.

    .venv/bin/python bench/load.py                       # SQLite + in-memory layer
    .venv/bin/python bench/load.py --backend postgres    # PostgreSQL + Redis
    .venv/bin/python bench/load.py --tables 20 --seconds 5 --ramp 20,40   # a quick look
    .venv/bin/python bench/load.py --game backgammon     # two clients a table
    .venv/bin/python bench/load.py --backend postgres --flush-probe 0.05   # the disk's flushes too
    .venv/bin/python bench/load.py --backend postgres --pg-waits 0.02   # moves waiting on the WAL

Writes bench/results/load-<backend>.json (load-<backend>-backgammon.json). Goals: at 250
tables, one action per second per table: p99 <= 1.5 x the anchor's and zero lost actions;
saturation >= 0.5 x anchor's.

Players are signed in by sessions written straight into the session store (a thousand
form log-ins would only measure allauth's password hashing); everything after that goes
through the public HTTP and WebSocket surface.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.client
import json
import math
import os
import platform
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import websockets

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PG_DB = "baithak_load"
REDIS_DB = 7
SATURATION_MS = 250.0


# ---------------------------------------------------------------------------- set-up
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(backend: str, tmp: Path, pg_host: str = "127.0.0.1") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="baithak.settings",
        DEBUG="false",
        SECRET_KEY="load-bench-" + secrets.token_hex(16),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "bench")]),
    )
    if backend == "postgres":
        # A directory is PostgreSQL's Unix socket (libpq's rule), given in the URL's
        # host part with its slashes quoted.
        host = quote(pg_host, safe="") if pg_host.startswith("/") else f"{pg_host}:5432"
        env["DATABASE_URL"] = f"postgres://postgres@{host}/{PG_DB}"
        env["REDIS_URL"] = f"redis://127.0.0.1:6379/{REDIS_DB}"
        env.setdefault("DB_POOL_MAX", "20")
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp / 'load.sqlite3'}"
    return env


def _reset_services(backend: str) -> None:
    if backend != "postgres":
        return
    for sql in (f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)", f"CREATE DATABASE {PG_DB}"):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True,
            capture_output=True,
        )
    subprocess.run(["redis-cli", "-n", str(REDIS_DB), "flushdb"], check=True,
                   capture_output=True)


_MAKE_PLAYERS = r"""
import importlib, json, sys
import bootstrap
import django
django.setup()
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
count = int(sys.argv[1])
User = get_user_model()
store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
backend = settings.AUTHENTICATION_BACKENDS[0]
users = User.objects.bulk_create(
    [User(username=f"load{i}", email=f"load{i}@example.com") for i in range(count)]
)
users = list(User.objects.filter(username__startswith="load").order_by("id"))
out = []
for user in users:
    s = store()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = backend
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    out.append(s.session_key)
# Players who have played before: a first game gives each call 10 s (CP-SS-4), and
# the tables sit idle through the anchor's 9 s ramp turns, so the clock would play
# calls for them then, while the anchor is measured. A past match each, recorded the
# way a real one is (teams of seats 0 and 2 against 1 and 3), gives them 20 s.
from accounts.services import record_result
for i in range(0, len(users) - 3, 4):
    record_result("rung", [[users[i], users[i + 2]], [users[i + 1], users[i + 3]]], 0)
print(json.dumps(out))
"""


def _prepare(env: dict[str, str], players: int) -> list[str]:
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True)
    done = subprocess.run([py, "-c", _MAKE_PLAYERS, str(players)], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


@contextlib.contextmanager
def _daphne(app: str, env: dict[str, str], log: Path):  # type: ignore[no-untyped-def]
    port = _free_port()
    daphne = str(Path(sys.executable).with_name("daphne"))
    with log.open("w") as out:
        proc = subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "--websocket_timeout", "-1", app],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", port), timeout=0.2
                ):
                    break
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne exited: see {log}")
                time.sleep(0.1)
            yield port, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _profile(pid: int, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """py-spy (pip install py-spy) sampling the tables' server for the nominal turns
    (the anchor's turns between them show as the loop waiting)."""
    spy = str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit(f"--profile needs py-spy next to {sys.executable}: pip install py-spy")
    form = "raw" if args.profile.endswith(".txt") else "flamegraph"
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--duration",
         str(int(2 * (args.seconds + math.ceil(args.seconds / args.window) * args.settle))),
         "--format", form, "--output", args.profile, "--nonblocking", "--threads"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


# A disk's flush, timed: 8 KiB written over the same block and fdatasync'd, as a
# PostgreSQL commit does to its WAL, every INTERVAL seconds; one line per flush
# (time.monotonic(), milliseconds), so each can be placed in the side's turn it fell in.
_FLUSH_PROBE = r"""
import os, sys, time
path, interval, out = sys.argv[1], float(sys.argv[2]), open(sys.argv[3], "w", buffering=1)
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
block = os.urandom(8192)
try:
    while True:
        os.pwrite(fd, block, 0)
        t = time.monotonic()
        os.fdatasync(fd)
        out.write(f"{t:.6f} {1000 * (time.monotonic() - t):.3f}\n")
        time.sleep(interval)
except KeyboardInterrupt:
    pass
finally:
    out.close()
    os.unlink(path)
"""


class _Sampler:
    """A probe in a process of its own, writing one line per sample (time.monotonic(),
    a value) to a file in ``folder``, all through the nominal turns."""

    def __init__(self, folder: Path, script: str, *args: str) -> None:
        self.folder = folder
        self.out = folder / "samples.txt"
        self.proc = subprocess.Popen([sys.executable, "-c", script, *args, str(self.out)])
        self.lines: list[tuple[float, float]] = []

    def stop(self) -> None:
        """Stop the probe, then read every sample it took (a slow last one included)."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        text = self.out.read_text() if self.out.exists() else ""
        self.lines = [(float(at), float(value)) for at, value in
                      (line.split() for line in text.splitlines() if " " in line)]
        shutil.rmtree(self.folder, ignore_errors=True)

    def within(self, windows: list[tuple[float, float]]) -> list[float]:
        """The samples taken within these windows (time.monotonic()), in order."""
        return [value for at, value in self.lines if any(a <= at < b for a, b in windows)]


class _FlushProbe(_Sampler):
    """``--flush-probe``: the disk's flushes timed (milliseconds), in a folder beside
    the results (on the repository's disk: a temporary folder may be in memory, where a
    flush waits for nothing)."""

    def __init__(self, interval: float) -> None:
        RESULTS.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="flush-probe-", dir=RESULTS))
        super().__init__(folder, _FLUSH_PROBE, str(folder / "probe"), str(interval))


def _flush_figures(flushes: list[float]) -> dict[str, Any]:
    def ms(value: float) -> float | None:  # None, not NaN, where there was no flush
        return None if math.isnan(value) else round(value, 2)

    return {
        "count": len(flushes),
        "p50_ms": ms(_percentile(flushes, 0.50)),
        "p99_ms": ms(_percentile(flushes, 0.99)),
        "max_ms": round(max(flushes), 2) if flushes else None,
    }


# PostgreSQL's own account of what the moves wait for: every INTERVAL seconds, how many
# of the benchmark database's client backends are waiting on the WAL's flush to the disk
# (IO:WALSync is the one flushing; LWLock:WALWrite, those queued behind it); one line
# per look (time.monotonic(), that count).
_PG_WAITS = r"""
import sys, time
import psycopg
dsn, database, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
out = open(sys.argv[4], "w", buffering=1)
sql = ("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
       "AND backend_type = 'client backend' AND wait_event IN ('WALSync', 'WALWrite')")
try:
    with psycopg.connect(dsn, autocommit=True) as conn:
        while True:
            # pg_stat_activity is read once a transaction: autocommit makes each look new.
            waiting = conn.execute(sql, [database]).fetchone()[0]
            out.write(f"{time.monotonic():.6f} {waiting}\n")
            time.sleep(interval)
except KeyboardInterrupt:
    pass
finally:
    out.close()
"""


class _PgWaits(_Sampler):
    """``--pg-waits``: PostgreSQL's backends waiting on the WAL's flush, counted. A
    tables turn whose p99 came from the disk (a move is told only once its commit is on
    it) shows here as a long run of looks that found moves waiting on the flush, many at
    once; the anchor writes nothing, so its turns show none."""

    def __init__(self, interval: float, pg_host: str) -> None:
        self.interval = interval
        super().__init__(Path(tempfile.mkdtemp(prefix="pg-waits-")), _PG_WAITS,
                         f"host={pg_host} user=postgres dbname=postgres", PG_DB,
                         str(interval))

    def figures(self, windows: list[tuple[float, float]]) -> dict[str, Any]:
        """Within these windows: the looks, the share of them that found a move waiting
        on the WAL's flush, the longest run of such looks (as time), and the most moves
        found waiting at once. Ordinary commits, each flushed in about a millisecond,
        are caught by a few looks in a row at most (60 ms in a quiet run, looking every
        0.02 s); a flush the disk holds up shows as a long run, with the fast moves'
        connections (16) all waiting behind it."""
        looks = [int(n) for n in self.within(windows)]
        waited = longest = run = 0
        for n in looks:
            run = run + 1 if n else 0
            waited += bool(n)
            longest = max(longest, run)
        return {
            "looks": len(looks),
            "waiting_share": round(waited / len(looks), 3) if looks else None,
            "longest_wait_ms": round(1000 * self.interval * longest),
            "most_waiting": max(looks, default=0),
        }


# ---------------------------------------------------------------------------- HTTP
CSRF = "loadbench" + "x" * 23  # any 32-character secret works as cookie and header


def _http(port: int, method: str, url: str, session: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "Content-Type": "application/json",
        "Origin": f"http://127.0.0.1:{port}",
        "Referer": f"http://127.0.0.1:{port}/",
    }
    conn.request(method, url, body=json.dumps(body) if body is not None else None,
                 headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    try:
        return resp.status, json.loads(data or b"null")
    except ValueError:
        return resp.status, data[:200]


GAMES = {  # what each table plays, and how many clients sit at it
    "courtpiece": ({"game": "courtpiece", "variant": "rung", "options": {}}, 4),
    "backgammon": ({"game": "backgammon", "options": {"cube": True}}, 2),
}


def _open_table(port: int, sessions: list[str], game: str) -> int:
    body, seats = GAMES[game]
    status, made = _http(port, "POST", "/api/tables", sessions[0], {
        **body, "private": False, "bots": [],
    })
    if status != 201:
        raise RuntimeError(f"POST /api/tables: {status} {made}")
    table = int(made["id"])
    for seat in range(1, seats):
        status, answer = _http(port, "POST", f"/api/tables/{table}/seats/{seat}",
                               sessions[seat], {})
        if status != 200:
            raise RuntimeError(f"take seat {seat}: {status} {answer}")
    status, info = _http(port, "GET", f"/api/tables/{table}", sessions[0])
    if info.get("status") != "playing":
        status, answer = _http(port, "POST", f"/api/tables/{table}/start", sessions[0], {})
        if status != 200:
            raise RuntimeError(f"start: {status} {answer}")
    return table


# ---------------------------------------------------------------------------- clients
@dataclass
class Table:
    id: str
    sockets: list[Any] = field(default_factory=list)
    seats: int = 4
    seen: list[int] = field(default_factory=list)
    frames: list[dict[str, Any] | None] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    errors: int = 0
    lost: int = 0
    accepted: int = 0
    latencies: list[float] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)


ERROR_CODES: dict[str, int] = {}  # error frames the clients received, by code


async def _reader(table: Table, seat: int, ws: Any) -> None:
    async for raw in ws:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "state":
            table.frame_bytes.append(len(raw))
            table.seen[seat] = int(msg["version"])
            table.frames[seat] = msg
            table.changed.set()
        elif kind == "error":
            table.errors += 1
            ERROR_CODES[str(msg.get("code"))] = ERROR_CODES.get(str(msg.get("code")), 0) + 1
            table.changed.set()


async def _connect(table: Table, port: int, sessions: list[str], query: str) -> None:
    table.seen, table.frames = [-1] * table.seats, [None] * table.seats
    for seat in range(table.seats):
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table.id}/{query}",
            additional_headers={"Cookie": f"sessionid={sessions[seat]}"},
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            max_size=2**22,
            open_timeout=60,
        )
        table.sockets.append(ws)
        asyncio.get_running_loop().create_task(_reader(table, seat, ws))


async def _wait(table: Table, cond: Any, timeout: float) -> bool:
    end = time.perf_counter() + timeout
    while not cond():
        left = end - time.perf_counter()
        if left <= 0:
            return False
        table.changed.clear()
        if cond():
            return True
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(table.changed.wait(), left)
    return True


def _over(table: Table) -> bool:
    """The match at this table has ended (a real table; the anchor never ends)."""
    frame = next((f for f in table.frames if f and f["version"] == min(table.seen)), None)
    return frame is not None and "to_move" in frame and frame["to_move"] is None


def _pick(legal: list[str], rng: random.Random) -> str:
    """A random legal action; in backgammon, the game played on (roll, move, take)
    rather than a resignation, so each table keeps playing for the whole window."""
    playing = [a for a in legal if a in ("roll", "take") or a.startswith("move:")]
    return rng.choice(playing or legal)


def _next_action(table: Table, anchor: bool, rng: random.Random) -> tuple[int, str, int] | None:
    """(seat, action, version) for whoever is to move, from that seat's last frame."""
    if anchor:
        version = min(table.seen)
        return version % table.seats, "play", version
    for seat, frame in enumerate(table.frames):
        if frame and frame.get("legal") and frame["version"] == min(table.seen):
            return seat, _pick(frame["legal"], rng), int(frame["version"])
    return None


async def _drive(table: Table, anchor: bool, rate: float, until: float, start: float,
                 rng: random.Random, record_from: float | None) -> None:
    """Play ``table`` at ``rate`` until ``until``; actions sent from ``record_from`` on
    (None: none) count for the figures."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    period = 1.0 / rate
    next_at = time.perf_counter()
    while time.perf_counter() < until:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        next_at += period
        ready = await _wait(
            table, lambda: _over(table) or _next_action(table, anchor, rng) is not None, 10
        )
        if ready and _over(table):
            return
        if not ready:
            table.lost += 1
            return
        seat, action, version = _next_action(table, anchor, rng)  # type: ignore[misc]
        errors = table.errors
        t0 = time.perf_counter()
        await table.sockets[seat].send(json.dumps(
            {"type": "action", "action": action, "version": version}))
        ok = await _wait(
            table, lambda v=version, e=errors: min(table.seen) > v or table.errors > e, 10
        )
        if not ok:
            table.lost += 1
            return
        if table.errors > errors:
            continue
        if record_from is not None and t0 >= record_from:
            table.accepted += 1
            table.latencies.append((time.perf_counter() - t0) * 1000)
        next_at = max(next_at, time.perf_counter())


def _cpu_seconds(pid: int | None) -> float:
    """The server process's CPU time so far (user + system, every thread)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_seconds() -> tuple[float, float]:
    """CPU time every process of this machine has used so far (all but idle and I/O
    wait, over every core: the server, its database and Redis, the clients, anything
    else), and the time the hypervisor gave this virtual machine's cores to others
    (steal): what the neighbours took, which moves latency without showing in the
    first figure."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = (
        int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Side:
    """The tables' server or the anchor's, with its clients and what its measured
    windows have added up to so far."""

    name: str
    anchor: bool
    pid: int
    tables: list[Table]
    cpu: float = 0.0
    machine: float = 0.0
    elapsed: float = 0.0
    turns: list[dict[str, float]] = field(default_factory=list)
    windows: list[tuple[float, float]] = field(default_factory=list)  # time.monotonic()

    def reset(self, errors: bool = True) -> None:
        """Forget the figures so far (``errors``: the errors and unanswered actions too;
        the nominal measurement keeps the warm-ups', as they count for those)."""
        for t in self.tables:
            t.latencies.clear()
            t.accepted = 0
            if errors:
                t.errors = t.lost = 0
        self.cpu = self.machine = self.elapsed = 0.0
        self.turns, self.windows = [], []


async def _play(side: Side, total_rate: float, seconds: float, rng: random.Random,
                settle: float | None = None) -> None:
    """Every table of ``side`` paced at ``total_rate`` in all; the tables start
    staggered over the first second. With ``settle``, one turn: ``settle`` seconds not
    recorded, then ``seconds`` whose latencies, server CPU and time add to the side's
    (the load goes on across the two, so what the start-up queued is carried in).
    Without, ``seconds`` not recorded (a warm-up)."""
    rate = total_rate / len(side.tables)
    begin = time.perf_counter()
    record_from = None if settle is None else begin + settle
    mark: dict[str, float] = {}

    async def from_here() -> None:
        await asyncio.sleep(max(0.0, (record_from or begin) - time.perf_counter()))
        busy, steal = _machine_seconds()
        mark.update(at=time.perf_counter(), cpu=_cpu_seconds(side.pid), machine=busy,
                    steal=steal, mono=time.monotonic())

    marker = asyncio.ensure_future(from_here()) if record_from is not None else None
    until = (record_from or begin) + seconds
    already = [len(t.latencies) for t in side.tables]
    await asyncio.gather(*[
        _drive(t, side.anchor, rate, until, begin + i / total_rate, rng, record_from)
        for i, t in enumerate(side.tables)
    ])
    if marker is not None:
        await marker
        side.elapsed += time.perf_counter() - mark["at"]
        side.cpu += _cpu_seconds(side.pid) - mark["cpu"]
        busy, steal = _machine_seconds()
        side.machine += busy - mark["machine"]
        # Each turn's own tail and what the neighbours took meanwhile: a side's p99
        # made by one bad turn shows here.
        lat = [x for t, n in zip(side.tables, already, strict=True) for x in t.latencies[n:]]
        side.turns.append({
            "p99_ms": round(_percentile(lat, 0.99), 1),
            "steal_ms": round(1000 * (steal - mark["steal"]), 1),
        })
        side.windows.append((mark["mono"], time.monotonic()))


def _figures(side: Side, total_rate: float) -> dict[str, Any]:
    accepted = sum(t.accepted for t in side.tables)
    lat = [x for t in side.tables for x in t.latencies]
    elapsed = side.elapsed or float("nan")
    return {
        # What one action costs the server, whatever the machine's other load: the
        # figure to compare changes by (latency also moves with the neighbours' CPU).
        "server_cpu_share": round(side.cpu / elapsed, 3),
        "server_cpu_ms_per_action": round(1000 * side.cpu / accepted, 3) if accepted else None,
        # The whole machine's CPU an action: the server's, plus its database's and
        # Redis' and the clients' (and whatever else ran). Two sides with the same
        # clients differ here by what serving an action costs in every process.
        "machine_cpu_ms_per_action": (
            round(1000 * side.machine / accepted, 3) if accepted else None
        ),
        "target_actions_per_s": total_rate,
        "actions_per_s": round(accepted / elapsed, 1),
        "p50_ms": round(_percentile(lat, 0.50), 2),
        "p90_ms": round(_percentile(lat, 0.90), 2),
        "p95_ms": round(_percentile(lat, 0.95), 2),
        "p99_ms": round(_percentile(lat, 0.99), 2),
        "max_ms": round(max(lat), 2) if lat else float("nan"),
        "errors": sum(t.errors for t in side.tables),
        "lost": sum(t.lost for t in side.tables),
        "samples": len(lat),
        "turns": list(side.turns),
    }


async def _measure(sides: list[Side], total_rate: float, seconds: float, window: float,
                   settle: float, keep_errors: bool = False,
                   resting: frozenset[str] = frozenset()) -> dict[str, dict[str, Any]]:
    """``seconds`` of each side at ``total_rate``, in turns of ``window`` seconds: tables,
    anchor, tables, anchor… Each turn starts with ``settle`` seconds not recorded (the
    staggered start). Both sides see the machine as it is in the same minutes: the
    neighbours' load on this shared machine moves the anchor's own p99 several-fold
    from one minute to the next, and a ratio of two runs taken apart measured that.
    A side named in ``resting`` (out of the ramp) is not played: its turns pass idle,
    so the other keeps the same rhythm of load and rest as before."""
    rng = random.Random(7)
    for side in sides:
        side.reset(errors=not keep_errors)
    left = seconds
    while left > 1e-6:
        turn = min(window, left)
        for side in sides:
            if side.name in resting:
                await asyncio.sleep(turn + settle)
            else:
                await _play(side, total_rate, turn, rng, settle)
        left -= turn
    return {side.name: _figures(side, total_rate) for side in sides
            if side.name not in resting}


async def _connect_side(name: str, port: int, tables_ids: list[str], sessions: list[str],
                        anchor: bool, game: str, pid: int) -> Side:
    seats = GAMES[game][1]
    tables = [Table(tid, seats=seats) for tid in tables_ids]
    query = "" if anchor else "?format=json"
    for i, t in enumerate(tables):
        await _connect(t, port, sessions[seats * i: seats * i + seats], query)
    await asyncio.gather(*[_wait(t, lambda t=t: min(t.seen) >= 0, 30) for t in tables])
    return Side(name, anchor, pid, tables)


async def _run(args: argparse.Namespace, env: dict[str, str], tmp: Path, sessions: list[str],
               tables_port: int, tables_pid: int, ids: list[str]) -> dict[str, Any]:
    """Both servers up at once, measured in turns (see _measure)."""
    tables = await _connect_side("tables", tables_port, ids, sessions, False, args.game,
                                 tables_pid)
    # The clients' own garbage collector stays out of what they time, as timeit's does:
    # a pass over a thousand sockets' parsed frames paused every client for tens of
    # milliseconds, and the tables' frames (nested JSON) make far more objects to walk
    # than the anchor's (one long string), so it weighed on one side only.
    gc.collect()
    gc.freeze()
    gc.disable()
    nominal = args.rate * len(ids)
    try:
        # The tables' warm-up first: its frames give the anchor's frame size.
        await _play(tables, nominal, args.warmup, random.Random(3))
        sizes = [b for t in tables.tables for b in t.frame_bytes]
        env = {**env, "ANCHOR_FRAME_BYTES": str(round(statistics.mean(sizes)) if sizes
                                                 else 3000)}
        with _daphne("anchor_asgi:application", env, tmp / "anchor.log") as (port, pid):
            anchor = await _connect_side("anchor", port, [str(i) for i in range(len(ids))],
                                         sessions, True, args.game, pid)
            gc.collect()
            gc.freeze()
            await _play(anchor, nominal, args.warmup, random.Random(3))
            # One more warm-up turn each, in the measurement's rhythm, so that each side
            # comes to its first recorded turn after one of the other's, as to every
            # later one. Without it the tables came to theirs after resting through
            # the anchor's start-up (a thousand sockets connecting, then its warm-up),
            # and that first turn's p99 came to 25-35 ms in every run, where their
            # later turns in quiet stretches came to 15-23 ms (PostgreSQL).
            await _play(tables, nominal, args.window + args.settle, random.Random(4))
            await _play(anchor, nominal, args.window + args.settle, random.Random(4))
            sides = [tables, anchor]
            if args.profile:  # the nominal turns only, not the set-up
                args.spy = _profile(tables_pid, args)
            print("nominal load, in turns ...", flush=True)
            probe = _FlushProbe(args.flush_probe) if args.flush_probe else None
            waits = _PgWaits(args.pg_waits, args.pg_host) if args.pg_waits else None
            try:
                results = {side.name: {"nominal": figures} for side, figures in zip(
                    sides, (await _measure(sides, nominal, args.seconds, args.window,
                                           args.settle, keep_errors=True)).values(),
                    strict=True)}
            finally:
                if probe is not None:
                    probe.stop()
                if waits is not None:
                    waits.stop()
            if waits is not None:
                for side in sides:
                    nominal_figures = results[side.name]["nominal"]
                    nominal_figures["pg_waits"] = waits.figures(side.windows)
                    for turn, window in zip(nominal_figures["turns"], side.windows,
                                            strict=True):
                        turn_waits = waits.figures([window])
                        turn["flush_wait_longest_ms"] = turn_waits["longest_wait_ms"]
                        turn["flush_most_waiting"] = turn_waits["most_waiting"]
            if probe is not None:
                for side in sides:
                    nominal_figures = results[side.name]["nominal"]
                    nominal_figures["disk_flush"] = _flush_figures(probe.within(side.windows))
                    for turn, window in zip(nominal_figures["turns"], side.windows,
                                            strict=True):
                        turn["flush_p99_ms"] = _flush_figures(probe.within([window]))["p99_ms"]
            ramps: dict[str, list[dict[str, Any]]] = {side.name: [] for side in sides}
            resting: set[str] = set()  # sides past twice the saturation latency
            for total in args.ramp:
                step = await _measure(sides, total, args.step_seconds, args.step_seconds,
                                      args.settle, resting=frozenset(resting))
                for name, figures in step.items():
                    ramps[name].append(figures)
                    print(f"  {name} ramp {total:>6.0f}/s: p99 {figures['p99_ms']:.1f}"
                          f" ms, {figures['actions_per_s']}/s", flush=True)
                    if figures["p99_ms"] > SATURATION_MS * 2:
                        resting.add(name)
                if len(resting) == len(sides):
                    break
            for side in sides:
                result = results[side.name]
                result["ramp"] = ramps[side.name]
                within = [s["actions_per_s"] for s in ramps[side.name]
                          if s["p99_ms"] <= SATURATION_MS]
                result["saturation_actions_per_s"] = max(within) if within else 0.0
                frame_sizes = [b for t in side.tables for b in t.frame_bytes]
                result["mean_frame_bytes"] = (
                    round(statistics.mean(frame_sizes)) if frame_sizes else 0
                )
                result["final_versions"] = {t.id: min(t.seen) for t in side.tables}
                for t in side.tables:
                    for ws in t.sockets:
                        await ws.close()
    finally:
        gc.enable()
        gc.unfreeze()
    results["error_codes"] = dict(ERROR_CODES)
    ERROR_CODES.clear()
    return results


def _lost_in_log(port: int, session: str, finals: dict[str, int]) -> int:
    """Actions every client saw applied but the table's log does not hold."""
    lost = 0
    for tid, seen in finals.items():
        _, info = _http(port, "GET", f"/api/tables/{tid}", session)
        lost += max(0, seen - int(info["version"]))
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--rate", type=float, default=1.0, help="actions/s per table")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=5.0,
                        help="seconds of each side's turn in the nominal measurement")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds not recorded at the start of each turn")
    parser.add_argument("--step-seconds", type=float, default=8.0)
    parser.add_argument("--ramp", type=lambda s: [float(x) for x in s.split(",")],
                        default=[100, 250, 400, 600, 800, 1000, 1300],
                        help="total actions/s of the saturation ramp")
    parser.add_argument("--profile", metavar="PATH",
                        help="record the tables' daphne with py-spy (flame graph SVG, or "
                             "raw stacks if PATH ends in .txt) while the tables play")
    parser.add_argument("--flush-probe", type=float, default=0.0, metavar="SECONDS",
                        help="time an 8 KiB write and fdatasync on this machine's disk "
                             "every SECONDS through the nominal turns (as a database's "
                             "commit does), and give their p50/p99 for each side's turns")
    parser.add_argument("--pg-waits", type=float, default=0.0, metavar="SECONDS",
                        help="PostgreSQL only: every SECONDS through the nominal turns, "
                             "count the moves waiting on the WAL's flush to the disk "
                             "(pg_stat_activity), and give each turn's longest wait")
    parser.add_argument("--pg-host", default="127.0.0.1", metavar="HOST",
                        help="PostgreSQL's host for the tables' server, or the directory "
                             "of its Unix socket (such as /var/run/postgresql)")
    parser.add_argument("--game", choices=sorted(GAMES), default="courtpiece",
                        help="Court Piece tables of four clients, or backgammon of two")
    args = parser.parse_args()
    if args.pg_waits and args.backend != "postgres":
        parser.error("--pg-waits needs --backend postgres")
    args.spy = None
    seats = GAMES[args.game][1]
    RESULTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="baithak-load-"))
    env = _env(args.backend, tmp, args.pg_host)
    _reset_services(args.backend)
    print(f"preparing {args.tables} {args.game} tables ({args.backend}) ...", flush=True)
    sessions = _prepare(env, seats * args.tables)
    out: dict[str, Any] = {
        "game": args.game, "backend": args.backend, "pg_host": args.pg_host,
        "tables": args.tables,
        "sockets": seats * args.tables,
        "rate_per_table": args.rate, "seconds": args.seconds,
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    with _daphne("site_asgi:application", env, tmp / "tables.log") as (port, pid):
        with ThreadPoolExecutor(8) as pool:
            ids = list(pool.map(
                lambda i: str(_open_table(port, sessions[seats * i: seats * (i + 1)], args.game)),
                range(args.tables),
            ))
        results = asyncio.run(_run(args, env, tmp, sessions, port, pid, ids))
        side, anchor = results["tables"], results["anchor"]
        # Lost: an action a client saw applied that the log does not hold. An action not
        # answered within 10 s (an overloaded server) is counted apart, as unanswered.
        side["missing_from_log"] = _lost_in_log(port, sessions[0], side.pop("final_versions"))
        for result in (side, anchor):
            result["unanswered"] = sum(s["lost"] for s in [result["nominal"], *result["ramp"]])
        side["lost"] = side["missing_from_log"]
        anchor.pop("final_versions")
        out["tables_result"], out["anchor_result"] = side, anchor
        out["error_codes"] = results["error_codes"]
        if args.spy is not None:
            args.spy.wait()
            print(f"profile: {args.profile}")
    t, a = out["tables_result"], out["anchor_result"]
    out["p99_ratio"] = round(t["nominal"]["p99_ms"] / a["nominal"]["p99_ms"], 2)
    out["saturation_ratio"] = round(
        t["saturation_actions_per_s"] / a["saturation_actions_per_s"], 2
    ) if a["saturation_actions_per_s"] else None
    out["goals"] = {
        "p99_within_1.5x_anchor": out["p99_ratio"] <= 1.5,
        "zero_lost": t["lost"] == 0,
        "saturation_at_least_half_anchor": (out["saturation_ratio"] or 0) >= 0.5,
    }
    print(f"\n{args.tables} {args.game} tables, {seats * args.tables} sockets, "
          f"{args.rate}/s per table, {args.backend}:")
    for name, r in (("tables", t), ("anchor", a)):
        n = r["nominal"]
        print(f"  {name:7} p50 {n['p50_ms']:7.1f} ms  p99 {n['p99_ms']:7.1f} ms  "
              f"{n['actions_per_s']:7.1f} actions/s  errors {n['errors']}  "
              f"lost {r.get('lost', n['lost'])}  unanswered in 10 s {n['lost']}  "
              f"saturation {r['saturation_actions_per_s']}/s  "
              f"server CPU {n['server_cpu_ms_per_action']} ms/action "
              f"({100 * n['server_cpu_share']:.0f}% of a core), "
              f"machine CPU {n['machine_cpu_ms_per_action']} ms/action")
    if "pg_waits" in t["nominal"]:
        turns = t["nominal"]["turns"]
        print("  tables' turns, p99 / longest wait on the WAL's flush (most moves waiting): "
              + ", ".join(f"{turn['p99_ms']:.0f} / {turn['flush_wait_longest_ms']} ms "
                          f"({turn['flush_most_waiting']})" for turn in turns))
        print("  anchor's turns' p99: "
              + ", ".join(f"{turn['p99_ms']:.0f} ms" for turn in a["nominal"]["turns"]))
    print(f"  p99 ratio {out['p99_ratio']} (goal <= 1.5), saturation ratio "
          f"{out['saturation_ratio']} (goal >= 0.5), frame {t['mean_frame_bytes']} bytes")
    suffix = "" if args.game == "courtpiece" else f"-{args.game}"
    path = RESULTS / f"load-{args.backend}{suffix}.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
