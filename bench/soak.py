"""Soak benchmark of the table sockets (issue 26): does a server process keep its memory
flat while sockets come and go and tables play for a long while?

Two parts, each against a real daphne process serving the site (``bench/site_asgi.py``,
SQLite and the in-memory layer, the collector as in production: ``GC_FREEZE_SECONDS`` and
``GC_FULL_SECONDS`` as the environment says, 1 s and 600 s unless set):

- **cycles**: ``--cycles`` spectator sockets (10,000), each opened on one public table,
  its first state frame read, then closed, ``--concurrency`` at a time (anonymous, from
  one address: at most the per-client cap, ``TABLES_SOCKETS_PER_CLIENT``). The server's
  resident memory (RSS) after a warm-up and after the cycles, and at every thousandth.
- **tables**: ``--tables`` Court Piece tables of four signed-in clients (250) playing at
  ``--rate`` actions a second each for ``--minutes`` (10), with bench/load.py's clients
  (bench/load_clients.py), RSS sampled every ``--sample`` seconds (30). A table whose
  match ends is closed (its sockets too) and a new one opened in its place by the same
  players, so the load holds and sockets keep coming and going. Lost actions: seen
  applied by every client of a table but missing from its log afterwards, plus actions
  never answered within 10 s.

    .venv/bin/python bench/soak.py                                # both parts
    .venv/bin/python bench/soak.py --tables 0                     # the cycles only
    .venv/bin/python bench/soak.py --cycles 0 --tables 50 --minutes 2   # a short look
    .venv/bin/python bench/soak.py --against DIR --cycles 2000 --tables 0
        # another checkout's server (its own .venv; e.g. one before a fix)

Writes a dated file, bench/results/<date>-soak[-against].json (history.py); the figures
are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import history
import websockets
from load_clients import GAMES, Side, connect_side, lost_in_log, open_table, play
from load_report import side_figures
from load_servers import HERE, RESULTS, checkout, prepare, run_daphne, server_env


def rss_mib(pid: int) -> float:
    """The process's resident memory, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no VmRSS for {pid}")


# ---------------------------------------------------------------------------- cycles
async def _watch_once(port: int, table_id: int) -> bool:
    """One spectator socket: opened, its first frame read (a state), closed."""
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/?format=json",
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            max_size=2**22, open_timeout=30,
        ) as ws:
            first = await asyncio.wait_for(ws.recv(), 30)
            return '"type": "state"' in str(first) or '"type":"state"' in str(first)
    except (TimeoutError, OSError, websockets.WebSocketException):
        return False


async def _cycles(port: int, pid: int, table_id: int, count: int, concurrency: int,
                  samples: list[dict[str, float]], every: int = 1000) -> int:
    """``count`` open/close cycles, ``concurrency`` at a time; returns the failures."""
    done = failed = 0
    started = time.monotonic()
    left = count

    async def worker() -> None:
        nonlocal done, failed, left
        while left > 0:
            left -= 1
            if not await _watch_once(port, table_id):
                failed += 1
            done += 1
            if done % every == 0:
                samples.append({"cycles": done, "seconds": round(time.monotonic() - started, 1),
                                "rss_mib": rss_mib(pid)})
                print(f"  {done:>6} cycles: RSS {samples[-1]['rss_mib']} MiB", flush=True)

    await asyncio.gather(*[worker() for _ in range(concurrency)])
    return failed


def cycles_part(args: argparse.Namespace, port: int, pid: int,
                sessions: list[str]) -> dict[str, Any]:
    table_id = open_table(port, sessions[:4], "courtpiece")
    print(f"cycles: {args.warmup_cycles} warm-up, then {args.cycles} ...", flush=True)
    asyncio.run(_cycles(port, pid, table_id, args.warmup_cycles, args.concurrency, []))
    time.sleep(2)
    before = rss_mib(pid)
    samples: list[dict[str, float]] = [{"cycles": 0, "seconds": 0.0, "rss_mib": before}]
    t0 = time.monotonic()
    failed = asyncio.run(
        _cycles(port, pid, table_id, args.cycles, args.concurrency, samples)
    )
    seconds = time.monotonic() - t0
    time.sleep(2)
    after = rss_mib(pid)
    growth = after - before
    return {
        "cycles": args.cycles, "concurrency": args.concurrency,
        "warmup_cycles": args.warmup_cycles, "seconds": round(seconds, 1),
        "cycles_per_s": round(args.cycles / seconds, 1) if seconds else None,
        "failed": failed,
        "rss_before_mib": before, "rss_after_mib": after,
        "rss_growth_mib": round(growth, 1),
        "rss_growth_kib_per_cycle": round(1024 * growth / args.cycles, 2) if args.cycles else None,
        "samples": samples,
    }


# ---------------------------------------------------------------------------- tables
async def _replace_finished(side: Side, port: int, sessions: list[str],
                            finals: dict[str, int]) -> int:
    """Tables whose match is over: their final versions kept for the log check, their
    sockets closed, a new table opened by the same players. Returns how many."""
    seats = GAMES["courtpiece"][1]
    replaced = 0
    for i, table in enumerate(side.tables):
        frame = next((f for f in table.frames if f and f["version"] == min(table.seen)), None)
        over = frame is not None and "to_move" in frame and frame["to_move"] is None
        if not over:
            continue
        finals[table.id] = min(table.seen)
        for ws in table.sockets:
            await ws.close()
        mine = sessions[seats * i: seats * (i + 1)]
        new_id = await asyncio.to_thread(open_table, port, mine, "courtpiece")
        fresh = (await connect_side("tables", port, [str(new_id)], mine, False,
                                    "courtpiece", side.pid)).tables[0]
        fresh.lost, fresh.errors = table.lost, table.errors  # carried, not forgotten
        fresh.latencies, fresh.accepted = table.latencies, table.accepted
        side.tables[i] = fresh
        replaced += 1
    return replaced


async def _tables(args: argparse.Namespace, port: int, pid: int,
                  sessions: list[str], ids: list[str]) -> dict[str, Any]:
    side = await connect_side("tables", port, ids, sessions, False, "courtpiece", pid)
    gc.collect()
    gc.freeze()
    gc.disable()  # the clients' collector out of what they time (as bench/load.py)
    total = args.rate * args.tables
    finals: dict[str, int] = {}
    samples: list[dict[str, float]] = []
    replaced = 0
    rng = random.Random(11)
    try:
        await play(side, total, args.warmup, rng)
        side.reset(errors=False)
        started = time.monotonic()
        samples.append({"seconds": 0.0, "rss_mib": rss_mib(pid)})
        end = started + 60 * args.minutes
        while time.monotonic() < end - 1:
            chunk = min(args.sample, end - time.monotonic())
            await play(side, total, chunk, rng, settle=0.0)
            replaced += await _replace_finished(side, port, sessions, finals)
            samples.append({"seconds": round(time.monotonic() - started, 1),
                            "rss_mib": rss_mib(pid)})
            print(f"  {samples[-1]['seconds']:>6.0f} s: RSS {samples[-1]['rss_mib']} MiB, "
                  f"{sum(t.accepted for t in side.tables)} actions, "
                  f"{replaced} tables replaced", flush=True)
        figures = side_figures(side, total)
        for t in side.tables:
            finals[t.id] = min(t.seen)
            for ws in t.sockets:
                await ws.close()
    finally:
        gc.enable()
        gc.unfreeze()
    missing = await asyncio.to_thread(lost_in_log, port, sessions[0], finals)
    rss = [s["rss_mib"] for s in samples]
    half = len(rss) // 2
    return {
        "tables": args.tables, "rate_per_table": args.rate, "minutes": args.minutes,
        "sample_seconds": args.sample,
        "actions": sum(t.accepted for t in side.tables),
        "actions_per_s": figures["actions_per_s"],
        "p50_ms": figures["p50_ms"], "p99_ms": figures["p99_ms"],
        "errors": figures["errors"], "unanswered": figures["lost"],
        "missing_from_log": missing, "lost": missing + figures["lost"],
        "tables_replaced": replaced,
        "rss_first_mib": rss[0], "rss_last_mib": rss[-1],
        "rss_max_mib": max(rss),
        # Flat: the second half's mean against the first's (a leak grows it steadily).
        "rss_second_half_over_first": round(
            (sum(rss[half:]) / len(rss[half:])) / (sum(rss[:half]) / len(rss[:half])), 3
        ) if half else None,
        "samples": samples,
    }


# ---------------------------------------------------------------------------- probe
def probe_summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """What the probe's lines say: each measure's first and last value, and the growth of
    RSS and of glibc's memory in use per hand ended, as medians over the probe's
    intervals in which hands ended (a step at a burst of hand ends counts once per hand)."""
    if len(lines) < 2:
        return {}
    first, last = lines[0], lines[-1]
    keys = [k for k, v in last.items() if isinstance(v, (int, float)) and k in first]
    out: dict[str, Any] = {"first": {k: first[k] for k in keys}, "last": {k: last[k] for k in keys}}
    for measure in ("rss_mib", "malloc_in_use_mib", "anonymous_mib"):
        per_hand = []
        for a, b in itertools.pairwise(lines):
            ended = b.get("hand_ends", 0) - a.get("hand_ends", 0)
            if ended > 0 and measure in a and measure in b:
                per_hand.append(1024 * (b[measure] - a[measure]) / ended)
        if per_hand:
            out[f"{measure}_kib_per_hand_end_median"] = round(statistics.median(per_hand), 1)
            ended_all = max(1, last["hand_ends"] - first["hand_ends"])
            out[f"{measure}_kib_per_hand_end_mean"] = round(
                1024 * (last[measure] - first[measure]) / ended_all, 1
            )
    return out


# ---------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--warmup-cycles", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=10,
                        help="cycles at once (from one address: keep it under the "
                             "per-client cap)")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--rate", type=float, default=1.0, help="actions/s per table")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between RSS samples")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--probe", type=float, default=0, metavar="SECONDS",
                        help="serve bench/probe_asgi.py: the server's memory split (glibc, "
                             "Python, its caches, hand ends) every SECONDS, in the JSON")
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="FRAMES",
                        help="with --probe: tracemalloc on, the Python lines that grew most "
                             "between samples (slows the server)")
    parser.add_argument("--against", metavar="DIR",
                        help="serve another checkout (with its own .venv) instead of this one")
    args = parser.parse_args()
    run = history.begin("soak")
    where = checkout(args.against) if args.against else HERE
    RESULTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="baithak-soak-"))
    env = server_env("sqlite", tmp, where=where)
    seats = GAMES["courtpiece"][1]
    players = max(4, seats * args.tables)
    print(f"preparing {players} players ...", flush=True)
    sessions = prepare(env, players, where)
    out: dict[str, Any] = {
        "backend": "sqlite", "server": str(where.root),
        "gc_freeze_seconds": os.environ.get("GC_FREEZE_SECONDS", "1"),
        "gc_full_seconds": os.environ.get("GC_FULL_SECONDS", "600"),
        "python": platform.python_version(), "cpus": os.cpu_count(),
    }
    if args.against:
        out["against_commit"] = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=where.root, capture_output=True, text=True
        ).stdout.strip() or None
    probe_file = tmp / "probe.jsonl"
    app = "site_asgi:application"
    if args.probe:
        app = "probe_asgi:application"
        env.update(SOAK_PROBE_FILE=str(probe_file), SOAK_PROBE_SECONDS=str(args.probe),
                   SOAK_TRACEMALLOC=str(args.tracemalloc))
        out["probe_seconds"], out["tracemalloc_frames"] = args.probe, args.tracemalloc
    with run_daphne(app, env, tmp / "soak.log", where) as (port, pid):
        if args.cycles:
            out["cycles"] = cycles_part(args, port, pid, sessions)
            c = out["cycles"]
            print(f"cycles: RSS {c['rss_before_mib']} -> {c['rss_after_mib']} MiB "
                  f"({c['rss_growth_kib_per_cycle']} KiB a cycle), {c['failed']} failed",
                  flush=True)
        if args.tables:
            print(f"tables: {args.tables} playing for {args.minutes:g} min ...", flush=True)
            with ThreadPoolExecutor(8) as pool:
                ids = [str(i) for i in pool.map(
                    lambda i: open_table(port, sessions[seats * i: seats * (i + 1)],
                                         "courtpiece"),
                    range(args.tables))]
            out["tables"] = asyncio.run(_tables(args, port, pid, sessions, ids))
            t = out["tables"]
            print(f"tables: RSS {t['rss_first_mib']} -> {t['rss_last_mib']} MiB "
                  f"(max {t['rss_max_mib']}), {t['actions']} actions, lost {t['lost']}, "
                  f"p99 {t['p99_ms']} ms", flush=True)
        out["rss_end_mib"] = rss_mib(pid)
        if args.probe:  # the clients are gone: a full collection, then malloc_trim
            probe_file.with_name(probe_file.name + ".settle").touch()
            deadline = time.monotonic() + 120 + 3 * args.probe
            while time.monotonic() < deadline and '"settle"' not in probe_file.read_text():
                time.sleep(1)
    if args.probe and probe_file.exists():
        lines = [json.loads(line) for line in probe_file.read_text().splitlines()]
        out["probe"] = [line for line in lines if not line.get("settle")]
        out["probe_summary"] = probe_summary(out["probe"])
        out["probe_summary"]["settle"] = next((x for x in lines if x.get("settle")), None)
        print(json.dumps(out["probe_summary"], indent=1), flush=True)
    path = history.write(run, out, "against" if args.against else "")
    print(f"wrote {path.relative_to(history.ROOT)}")


if __name__ == "__main__":
    main()
