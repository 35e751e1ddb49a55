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

Writes a dated file, bench/results/<date>-load-<backend>[-backgammon].json (history.py).
Goals: at 250 tables, one action per second per table: p99 <= 1.5 x the anchor's and zero
lost actions; saturation >= 0.5 x anchor's.

Players are signed in by sessions written straight into the session store (a thousand
form log-ins would only measure allauth's password hashing); everything after that goes
through the public HTTP and WebSocket surface.

This file is the command and the run's order; its parts are beside it: load_servers.py
(the services, daphne, py-spy, CPU readings), load_probes.py (``--flush-probe``,
``--pg-waits``), load_clients.py (the HTTP calls and WebSocket clients, a side played in
turns) and load_report.py (percentiles, figures, the summary).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import platform
import random
import statistics
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# bench/ is run as scripts: Python puts the script's own folder first on sys.path, so the
# modules beside it import by their bare names. The servers' daphne finds site_asgi and
# anchor_asgi through the PYTHONPATH that load_servers.server_env gives it.
import history
from load_clients import (
    ERROR_CODES,
    GAMES,
    connect_side,
    lost_in_log,
    measure,
    open_table,
    play,
)
from load_probes import FlushProbe, PgWaits, flush_figures
from load_report import report
from load_servers import (
    RESULTS,
    ROOT,
    checkout,
    prepare,
    profile,
    reset_services,
    run_daphne,
    server_env,
)

SATURATION_MS = 250.0


@dataclass(frozen=True)
class Against:
    """The other checkout's tables' server, up and with its tables open (--against)."""

    port: int
    pid: int
    ids: list[str]
    sessions: list[str]


async def _run(args: argparse.Namespace, env: dict[str, str], tmp: Path, sessions: list[str],
               tables_port: int, tables_pid: int, ids: list[str],
               against: Against | None = None) -> dict[str, Any]:
    """Both servers up at once, measured in turns (see measure). The second is the anchor,
    or with ``against`` the other checkout's tables' server (side "before")."""
    tables = await connect_side("tables", tables_port, ids, sessions, False, args.game,
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
        await play(tables, nominal, args.warmup, random.Random(3))
        sizes = [b for t in tables.tables for b in t.frame_bytes]
        env = {**env, "ANCHOR_FRAME_BYTES": str(round(statistics.mean(sizes)) if sizes
                                                 else 3000)}
        second: Any = (
            run_daphne("anchor_asgi:application", env, tmp / "anchor.log") if against is None
            else contextlib.nullcontext((against.port, against.pid))
        )
        with second as (port, pid):
            if against is None:
                anchor = await connect_side("anchor", port, [str(i) for i in range(len(ids))],
                                            sessions, True, args.game, pid)
            else:
                anchor = await connect_side("before", port, against.ids, against.sessions,
                                            False, args.game, pid)
            gc.collect()
            gc.freeze()
            await play(anchor, nominal, args.warmup, random.Random(3))
            # One more warm-up turn each, in the measurement's rhythm, so that each side
            # comes to its first recorded turn after one of the other's, as to every
            # later one. Without it the tables came to theirs after resting through
            # the anchor's start-up (a thousand sockets connecting, then its warm-up),
            # and that first turn's p99 came out above their later quiet turns' in every
            # run (docs/PERFORMANCE.md).
            await play(tables, nominal, args.window + args.settle, random.Random(4))
            await play(anchor, nominal, args.window + args.settle, random.Random(4))
            sides = [tables, anchor]
            if args.profile:  # the nominal turns only, not the set-up
                args.spy = profile(tables_pid, args)
            print("nominal load, in turns ...", flush=True)
            probe = FlushProbe(args.flush_probe) if args.flush_probe else None
            waits = PgWaits(args.pg_waits, args.pg_host) if args.pg_waits else None
            try:
                results = {side.name: {"nominal": figures} for side, figures in zip(
                    sides, (await measure(sides, nominal, args.seconds, args.window,
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
                    nominal_figures["disk_flush"] = flush_figures(probe.within(side.windows))
                    for turn, window in zip(nominal_figures["turns"], side.windows,
                                            strict=True):
                        turn["flush_p99_ms"] = flush_figures(probe.within([window]))["p99_ms"]
            ramps: dict[str, list[dict[str, Any]]] = {side.name: [] for side in sides}
            resting: set[str] = set()  # sides past twice the saturation latency
            for total in args.ramp:
                step = await measure(sides, total, args.step_seconds, args.step_seconds,
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


def _open_tables(port: int, sessions: list[str], seats: int,
                 args: argparse.Namespace) -> list[str]:
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(
            lambda i: str(open_table(port, sessions[seats * i: seats * (i + 1)], args.game)),
            range(args.tables),
        ))


def _commit(root: Path) -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                          text=True)
    return done.stdout.strip()


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
    parser.add_argument("--against", metavar="DIR",
                        help="in the anchor's place, the tables' server of another checkout "
                             "(with its own .venv): both play the same tables under the same "
                             "clients, in turns, so the ratio of their CPU an action is what "
                             "the change between them costs")
    args = parser.parse_args()
    if args.pg_waits and args.backend != "postgres":
        parser.error("--pg-waits needs --backend postgres")
    args.spy = None
    run = history.begin("load")
    seats = GAMES[args.game][1]
    RESULTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="baithak-load-"))
    env = server_env(args.backend, tmp, args.pg_host)
    reset_services(args.backend)
    print(f"preparing {args.tables} {args.game} tables ({args.backend}) ...", flush=True)
    sessions = prepare(env, seats * args.tables)
    out: dict[str, Any] = {
        "game": args.game, "backend": args.backend, "pg_host": args.pg_host,
        "tables": args.tables,
        "sockets": seats * args.tables,
        "rate_per_table": args.rate, "seconds": args.seconds,
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    other_name = "anchor" if args.against is None else "before"
    with contextlib.ExitStack() as servers:
        port, pid = servers.enter_context(
            run_daphne("site_asgi:application", env, tmp / "tables.log")
        )
        ids = _open_tables(port, sessions, seats, args)
        against = None
        if args.against:
            where = checkout(args.against)
            out["against"] = {"root": str(where.root), "commit": _commit(where.root)}
            other_env = server_env(args.backend, tmp, args.pg_host, where, "_against")
            reset_services(args.backend, "_against")
            other_sessions = prepare(other_env, seats * args.tables, where)
            other_port, other_pid = servers.enter_context(
                run_daphne("site_asgi:application", other_env, tmp / "before.log", where)
            )
            against = Against(other_port, other_pid,
                              _open_tables(other_port, other_sessions, seats, args),
                              other_sessions)
        results = asyncio.run(_run(args, env, tmp, sessions, port, pid, ids, against))
        side, other = results["tables"], results[other_name]
        # Lost: an action a client saw applied that the log does not hold. An action not
        # answered within 10 s (an overloaded server) is counted apart, as unanswered.
        side["missing_from_log"] = lost_in_log(port, sessions[0], side.pop("final_versions"))
        finals = other.pop("final_versions")
        if against is not None:
            other["missing_from_log"] = lost_in_log(against.port, against.sessions[0], finals)
        for result in (side, other):
            result["unanswered"] = sum(s["lost"] for s in [result["nominal"], *result["ramp"]])
        side["lost"] = side["missing_from_log"]
        if against is not None:
            other["lost"] = other["missing_from_log"]
        out["tables_result"], out[f"{other_name}_result"] = side, other
        out["error_codes"] = results["error_codes"]
        if args.spy is not None:
            args.spy.wait()
            print(f"profile: {args.profile}")
    report(args, seats, out, other_name)
    suffix = ("" if args.game == "courtpiece" else f"-{args.game}") + (
        "-against" if args.against else ""
    )
    path = history.write(run, out, f"{args.backend}{suffix}")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
