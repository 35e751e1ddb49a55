"""The load benchmark's clients: the HTTP calls that open the tables, the JSON WebSocket
clients that play them (docs/TABLE_PROTOCOL.md), and a side (the tables' server or the
anchor's) played in paced turns, each turn's latencies and CPU time added to its
figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from load_report import percentile, side_figures
from load_servers import cpu_seconds, machine_seconds

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


def open_table(port: int, sessions: list[str], game: str) -> int:
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


def lost_in_log(port: int, session: str, finals: dict[str, int]) -> int:
    """Actions every client saw applied but the table's log does not hold."""
    lost = 0
    for tid, seen in finals.items():
        _, info = _http(port, "GET", f"/api/tables/{tid}", session)
        lost += max(0, seen - int(info["version"]))
    return lost


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


# ---------------------------------------------------------------------------- turns
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


async def play(side: Side, total_rate: float, seconds: float, rng: random.Random,
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
        busy, steal = machine_seconds()
        mark.update(at=time.perf_counter(), cpu=cpu_seconds(side.pid), machine=busy,
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
        side.cpu += cpu_seconds(side.pid) - mark["cpu"]
        busy, steal = machine_seconds()
        side.machine += busy - mark["machine"]
        # Each turn's own tail and what the neighbours took meanwhile: a side's p99
        # made by one bad turn shows here.
        lat = [x for t, n in zip(side.tables, already, strict=True) for x in t.latencies[n:]]
        side.turns.append({
            "p99_ms": round(percentile(lat, 0.99), 1),
            "steal_ms": round(1000 * (steal - mark["steal"]), 1),
        })
        side.windows.append((mark["mono"], time.monotonic()))


async def measure(sides: list[Side], total_rate: float, seconds: float, window: float,
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
                await play(side, total_rate, turn, rng, settle)
        left -= turn
    return {side.name: side_figures(side, total_rate) for side in sides
            if side.name not in resting}


async def connect_side(name: str, port: int, tables_ids: list[str], sessions: list[str],
                       anchor: bool, game: str, pid: int) -> Side:
    seats = GAMES[game][1]
    tables = [Table(tid, seats=seats) for tid in tables_ids]
    query = "" if anchor else "?format=json"
    for i, t in enumerate(tables):
        await _connect(t, port, sessions[seats * i: seats * i + seats], query)
    await asyncio.gather(*[_wait(t, lambda t=t: min(t.seen) >= 0, 30) for t in tables])
    return Side(name, anchor, pid, tables)
