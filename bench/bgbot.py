"""The bots at the tables under load (issues #10 and #28): p95 time from a bot's turn to
its move applied, with 50 tables waiting on bots at once, through the clock's own path;
and how the backgammon levels fare against each other.

``--game backgammon`` (the default), at each of ``bgbot.LEVELS`` (``--levels`` to choose):

Each round, every one of N money-game tables (a signed-in player at seat 0 with a socket
counted open, GNU Backgammon at seat 1, ``bot_level`` set per run) is brought to a
position where the bot is to move: the player's random legal moves go through
``moves.apply_action``, so the bot's deadline is stored as the table would store it
(with no human-like pause: ``TABLES_BOT_PAUSE = 0``). Then the clock's own path runs, as
``game.tables.transport.clock.run`` does each time it wakes: ``await clock.fire_round()`` (the bots
decide concurrently, outside the table locks), until no bot there is to move (a bot's turn
is two deadlines: its roll or cube decision, then its checker move). A table's latency is
from that moment (all N bots' turns have begun and are due) to the bot's turn-ending
action stored (``Action.created_at``, just before the commit that tells its sockets): its
move, or a roll with no legal move, or a double. Decisions run in ``game.backgammon.bot``'s
spawn-started gnubg workers.

    .venv/bin/python bench/bgbot.py                  # 50 tables, 8 rounds a level
    .venv/bin/python bench/bgbot.py --tables 10 --rounds 2   # a quick look
    .venv/bin/python bench/bgbot.py --backend postgres       # PostgreSQL

``--game courtpiece``: N Play-now tables (a signed-in player at seat 0 with a socket
counted open, three bots at ``bot_level`` hard, no pauses), each brought to a bot's turn
by the player's random legal actions; then ``clock.fire_round()`` until no bot there is
to move (the bots play on, each after the other, until it is the player's turn). Each
bot action's turn is from when it began (the previous action stored, or the round's
start) to its action stored: p50/p95 of those. Hard decisions run in the worker
processes of ``game.courtpiece.thinking`` (``TABLES_BOT_WORKERS``, 2 by default).

``--duel N``: N money games (cube on) between beginner and intermediate, seats alternated,
each game thrown from its own seed, decided through ``bgbot.decide`` (the workers): the
share of games beginner loses, with its 95% Wilson interval.

Prints the figures and writes a dated file, bench/results/<date>-bgbot-<backend>.json
(``-courtpiece-<backend>`` and ``-duel`` for the other modes; history.py). Goals:
backgammon p95 <= 300 ms at 0-ply and <= 1 s at expert (2-ply); Court Piece hard
p95 bot turn <= 500 ms; beginner loses >= 70% of money games to intermediate.
The machine's load average is recorded with the figures: they are only comparable at a
similar load.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import history

ROOT = Path(__file__).resolve().parent.parent
PG_DB = "baithak_bgbot"
GOAL_MS = 300.0
EXPERT_GOAL_MS = 1000.0
CP_GOAL_MS = 500.0
DUEL_GOAL = 0.70


def _setup(backend: str, tmp: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer: one process
    # As the site runs (DEBUG on would log every SQL statement with its parameters).
    os.environ.update(DEBUG="false", SECRET_KEY="bgbot-bench-" + "x" * 40,
                      ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="false")
    if backend == "postgres":
        for sql in (f"DROP DATABASE IF EXISTS {PG_DB}", f"CREATE DATABASE {PG_DB}"):
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_DB}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'bgbot.sqlite3'}"
    from bootstrap import ensure_baithak_importable

    ensure_baithak_importable()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baithak.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0
    settings.TABLES_CALL_SECONDS = 3600  # the player's calling timer never fires here
    settings.TABLES_FIRST_CALL_SECONDS = 3600
    call_command("migrate", "--noinput", verbosity=0)


CPU = {"server": 0.0, "workers": 0.0}  # CPU seconds spent while the clock worked


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux's /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _workers_now() -> dict[int, float]:
    """CPU seconds of every bot worker process of this process, by pid."""
    from game.backgammon import bot as bgbot
    from game.courtpiece import thinking

    return {pid: _proc_cpu(pid) for pid in [*bgbot.worker_pids(), *thinking.POOL.pids()]}


def _clock_cpu(work: Any) -> None:
    """Run ``work()``, adding the CPU it costs to CPU: this process (the clock, the
    database thread, the bots' threads) and the bot worker processes."""
    server, workers = time.process_time(), _workers_now()
    work()
    CPU["server"] += time.process_time() - server
    after = _workers_now()
    CPU["workers"] += sum(cpu - workers.get(pid, 0.0) for pid, cpu in after.items())


def _cpu_figures(turns: int) -> dict[str, float]:
    return {
        "cpu_server_ms_per_turn": round(CPU["server"] * 1000 / turns, 2),
        "cpu_workers_ms_per_turn": round(CPU["workers"] * 1000 / turns, 2),
    }


class _SeededSecrets:
    """What ``lifecycle`` draws its tables' seeds from, seeded: each run of the benchmark
    deals the same cards, so two runs (one code against another) play the same hands."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def token_hex(self, nbytes: int = 32) -> str:
        return self._rng.randbytes(nbytes).hex()


def _same_deals(seed: int) -> None:
    from game.tables import lifecycle

    lifecycle.secrets = _SeededSecrets(seed)  # type: ignore[assignment]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def _to_the_bot(table_id: int, owner: Any, rng: random.Random) -> bool:
    """Play the player's random moves until the bot is to move; False once it is over."""
    from game.models import Table
    from game.tables import moves
    from game.tables.store import replay

    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.PLAYING:
            return False
        s = replay.load(table)
        if s.to_move == 1:
            return True
        legal = [a for a in s.legal_actions() if not a.startswith("resign")]
        legal = [a for a in legal if a not in ("double", "beaver", "drop")] or legal
        moves.apply_action(table_id=table_id, owner=owner, action=rng.choice(legal),
                              expected_version=table.version)


def _new_table(owner: Any, level: str) -> int:
    from game.tables import lifecycle, presence

    table = lifecycle.create_table(
        owner=owner, game="backgammon", bots=[1], options={"bot_level": level},
        move_seconds=600, private=True,
    )
    presence.seat_connected(table_id=table.pk, seat=0)  # deadlines run only with a player
    return table.pk


def _round(tables: list[int], owner: Any, level: str, rng: random.Random) -> list[float]:
    from channels.db import database_sync_to_async
    from django.utils import timezone

    from game.models import Action, Table
    from game.tables.transport import clock

    waiting = []
    for i, table_id in enumerate(tables):
        while not _to_the_bot(table_id, owner, rng):
            table_id = tables[i] = _new_table(owner, level)  # that game ended: a fresh one
        waiting.append(table_id)
    versions = dict(Table.objects.filter(pk__in=waiting).values_list("pk", "version"))
    due = Table.objects.filter(pk__in=waiting, deadline_kind=Table.BOT).count()
    assert due == len(waiting), f"only {due} of {len(waiting)} tables wait on the bot"

    def bots_pending() -> bool:
        return Table.objects.filter(pk__in=waiting, deadline_kind=Table.BOT).exists()

    async def clock_wakes() -> None:
        # What the clock's run does each time it wakes; the bot's roll, then its move,
        # each fired as its own deadline, until no bot at these tables is to move.
        while await database_sync_to_async(bots_pending)():
            await clock.fire_round()

    start = timezone.now()
    _clock_cpu(lambda: asyncio.run(clock_wakes()))
    out = []
    for table_id in waiting:
        rows = list(Action.objects.filter(table_id=table_id, number__gt=versions[table_id]))
        assert rows and all(r.source == Action.BOT for r in rows)
        # The bot's turn ends with its move (or a roll with no legal move, or a double).
        out.append((max(r.created_at for r in rows) - start).total_seconds() * 1000)
    return out


DECIDE_MS: list[float] = []  # time inside bgbot.decide (the gnubg workers' share)


def _timed_decide() -> None:
    """Record how long each decision takes inside the fire path, to split the latency
    into the bot's share and the table's (database, state, broadcast)."""
    from game.backgammon import bot as bgbot

    decide = bgbot.decide

    def timed(view: dict[str, Any], level: str = bgbot.DEFAULT_LEVEL) -> Any:
        t = time.perf_counter()
        try:
            return decide(view, level)
        finally:
            DECIDE_MS.append((time.perf_counter() - t) * 1000)

    bgbot.decide = timed  # type: ignore[assignment]


def measure(level: str, n_tables: int, rounds: int, seed: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from game.backgammon import bot as bgbot
    from game.tables import access

    user = get_user_model().objects.create_user(f"bench-{level}-{time.time_ns()}")
    owner = access.Owner(user=user, guest_key=None)
    rng = random.Random(seed)
    _same_deals(seed)
    tables = [_new_table(owner, level) for _ in range(n_tables)]
    bgbot.decide(_warm_view(), level)  # the pool starts lazily: spawn it before timing
    DECIDE_MS.clear()
    CPU.update(server=0.0, workers=0.0)
    latencies: list[float] = []
    wall_last = []  # per round: when the last of the N bots' moves was applied
    for _ in range(rounds):
        got = _round(tables, owner, level, rng)
        latencies += got
        wall_last.append(max(got))
    return {
        "level": level,
        "plies": bgbot.PLIES[level],
        "tables": n_tables,
        "rounds": rounds,
        "decisions": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(_percentile(latencies, 0.95), 1),
        "max_ms": round(max(latencies), 1),
        "all_applied_ms": round(statistics.mean(wall_last), 1),
        "decisions_per_turn": round(len(DECIDE_MS) / len(latencies), 2),
        "decide_p50_ms": round(statistics.median(DECIDE_MS), 2),
        "decide_p95_ms": round(_percentile(DECIDE_MS, 0.95), 2),
        "fire_mean_ms": round(statistics.mean(wall_last) / (n_tables * len(DECIDE_MS)
                                                           / len(latencies)), 2),
        **_cpu_figures(len(latencies)),
    }


def _warm_view() -> dict[str, Any]:
    from game.engine import backgammon as bg

    game = bg.Game(bg.Rules(), seed="warm-up")
    return game.view(game.to_move)


# ---------------------------------------------------------------------------- Court Piece
def _cp_new_table(owner: Any, level: str) -> int:
    from game.tables import lifecycle, presence

    table = lifecycle.play_now(owner=owner, options={"bot_level": level})
    presence.seat_connected(table_id=table.pk, seat=0)  # deadlines run only with a player
    return table.pk


def _cp_to_the_bots(table_id: int, owner: Any, rng: random.Random) -> bool:
    """Play the player's random actions until a bot is to move; False once it is over."""
    from game.models import Table
    from game.tables import moves
    from game.tables.store import replay

    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.PLAYING:
            return False
        if table.deadline_kind == Table.BOT:
            return True
        s = replay.load(table)
        moves.apply_action(table_id=table_id, owner=owner, action=rng.choice(s.legal_actions()),
                           expected_version=table.version)


def _cp_round(tables: list[int], owner: Any, level: str, rng: random.Random) -> list[float]:
    from channels.db import database_sync_to_async
    from django.utils import timezone

    from game.models import Action, Table
    from game.tables.transport import clock

    waiting = []
    for i, table_id in enumerate(tables):
        while not _cp_to_the_bots(table_id, owner, rng):
            table_id = tables[i] = _cp_new_table(owner, level)  # that match ended: a new one
        waiting.append(table_id)
    versions = dict(Table.objects.filter(pk__in=waiting).values_list("pk", "version"))

    def bots_pending() -> bool:
        return Table.objects.filter(pk__in=waiting, deadline_kind=Table.BOT).exists()

    async def clock_wakes() -> None:
        while await database_sync_to_async(bots_pending)():
            await clock.fire_round()

    start = timezone.now()
    _clock_cpu(lambda: asyncio.run(clock_wakes()))
    out = []
    for table_id in waiting:
        rows = list(Action.objects.filter(table_id=table_id, number__gt=versions[table_id])
                    .order_by("number"))
        assert rows and all(r.source == Action.BOT for r in rows)
        began = start
        for r in rows:  # each bot's turn began when the action before it was stored
            out.append((r.created_at - began).total_seconds() * 1000)
            began = r.created_at
    return out


def measure_cp(level: str, n_tables: int, rounds: int, seed: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from game.courtpiece import thinking
    from game.engine import courtpiece as cp
    from game.tables import access

    user = get_user_model().objects.create_user(f"bench-cp-{level}-{time.time_ns()}")
    owner = access.Owner(user=user, guest_key=None)
    rng = random.Random(seed)
    _same_deals(seed)
    tables = [_cp_new_table(owner, level) for _ in range(n_tables)]
    warm = cp.Match(cp.Rules("rung"), seed="warm-up")
    thinking.choose(warm.view(warm.to_move), level)  # the workers start lazily: before timing
    _wait_for_workers(thinking.POOL)
    DECIDE_MS.clear()
    FALLBACKS.clear()
    CPU.update(server=0.0, workers=0.0)
    turns: list[float] = []
    for _ in range(rounds):
        turns += _cp_round(tables, owner, level, rng)
    return {
        "game": "courtpiece",
        "level": level,
        "tables": n_tables,
        "rounds": rounds,
        "bot_turns": len(turns),
        "workers": thinking.POOL.workers,
        "p50_ms": round(statistics.median(turns), 1),
        "p95_ms": round(_percentile(turns, 0.95), 1),
        "max_ms": round(max(turns), 1),
        "decide_p50_ms": round(statistics.median(DECIDE_MS), 1),
        "decide_p95_ms": round(_percentile(DECIDE_MS, 0.95), 1),
        "decide_mean_ms": round(statistics.mean(DECIDE_MS), 1),
        # decisions whose worker did not answer in time: the medium bot's move instead
        "fallbacks": len(FALLBACKS),
        **_cpu_figures(len(turns)),
    }


def _wait_for_workers(pool: Any) -> None:
    """Until every worker of ``pool`` has started (each answered a call), when the level
    uses them: the first search of the timed rounds must not wait for interpreters."""
    from concurrent.futures import ThreadPoolExecutor

    if not pool.started():
        return
    seen: set[int] = set()
    with ThreadPoolExecutor(pool.workers) as threads:
        for _ in range(20):
            seen |= set(threads.map(lambda _i: pool.call(os.getpid), range(pool.workers)))
            if len(seen) >= pool.workers:
                return


FALLBACKS: list[str] = []  # the thinking module's warnings: a worker late or dead


class _Counted(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        FALLBACKS.append(record.getMessage())


def _timed_cp_choose() -> None:
    """Record each Court Piece decision's time inside the fire path (the workers' share,
    with its wait in their queue), and count the fallbacks."""
    from game.courtpiece import thinking

    logging.getLogger(thinking.__name__).addHandler(_Counted(logging.WARNING))

    choose = thinking.choose

    def timed(view: Any, level: str) -> str:
        t = time.perf_counter()
        try:
            return choose(view, level)
        finally:
            DECIDE_MS.append((time.perf_counter() - t) * 1000)

    thinking.choose = timed  # type: ignore[assignment]


# ---------------------------------------------------------------------------- the duel
def _duel_game(i: int, weak: str, strong: str) -> tuple[bool, int]:
    from game.backgammon import bot as bgbot
    from game.engine import backgammon as bg

    game = bg.Game(bg.Rules(), seed=f"duel-{i}")
    weak_seat = i % 2  # seats alternate: each level opens as often as the other
    while not game.is_over:
        seat = game.to_move
        level = weak if seat == weak_seat else strong
        game = game.apply(bgbot.decide(game.view(seat), level).action, seat=seat)
    assert game.result is not None
    return int(game.result.winner) != weak_seat, int(game.result.points)


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return centre - half, centre + half


def duel(games: int, weak: str = "beginner", strong: str = "intermediate") -> dict[str, Any]:
    from concurrent.futures import ThreadPoolExecutor

    from game.backgammon import bot as bgbot

    with ThreadPoolExecutor(bgbot.workers()) as threads:  # one game per worker at a time
        played = list(threads.map(lambda i: _duel_game(i, weak, strong), range(games)))
    lost = sum(1 for weak_lost, _points in played if weak_lost)
    low, high = _wilson(lost, games)
    points = sum(p if weak_lost else -p for weak_lost, p in played)
    return {
        "weak": weak, "strong": strong, "games": games, "weak_lost": lost,
        "lost_share": round(lost / games, 3), "lost_share_95": [round(low, 3), round(high, 3)],
        "strong_points_per_game": round(points / games, 3),
        "goal": {"lost_share_at_least": DUEL_GOAL, "met": lost / games >= DUEL_GOAL},
    }


def _run_duel(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from game.backgammon import bot as bgbot

    run = history.begin("bgbot")
    load_before = os.getloadavg()
    try:
        figures = duel(args.duel)
    finally:
        bgbot.shutdown()
    figures.update(benchmark="bgbot", mode="duel", python=platform.python_version(),
                   cpus=os.cpu_count(), load_average_before=[round(x, 2) for x in load_before],
                   when=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    low, high = figures["lost_share_95"]
    print(f"beginner lost {figures['weak_lost']} of {figures['games']} money games to "
          f"intermediate: {figures['lost_share']:.1%} [{low:.1%}, {high:.1%}]; goal >= "
          f"{DUEL_GOAL:.0%}: {'met' if figures['goal']['met'] else 'NOT met'}")
    print(f"wrote {history.write(run, figures, 'duel').relative_to(ROOT)}")


def _run_courtpiece(args: argparse.Namespace) -> None:
    run = history.begin("bgbot")
    with tempfile.TemporaryDirectory() as tmp:
        _setup(args.backend, Path(tmp))
        from game.courtpiece import thinking

        _timed_cp_choose()
        load_before = os.getloadavg()
        try:
            runs = [measure_cp(level, args.tables, args.rounds, args.seed)
                    for level in (args.levels or ["hard"])]
        finally:
            thinking.shutdown()
        load_after = os.getloadavg()
    for r in runs:
        r["goal"] = {"p95_ms": CP_GOAL_MS, "met": r["p95_ms"] <= CP_GOAL_MS}
        print(f"courtpiece {r['level']}: {r['tables']} tables x {r['rounds']} rounds, "
              f"{r['bot_turns']} bot turns: p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, max "
              f"{r['max_ms']} ms; a decision p50 {r['decide_p50_ms']} ms, p95 "
              f"{r['decide_p95_ms']} ms ({r['workers']} workers, {r['fallbacks']} fallbacks); "
              f"CPU a turn {r['cpu_server_ms_per_turn']} ms server + "
              f"{r['cpu_workers_ms_per_turn']} ms workers; "
              f"goal p95 <= {CP_GOAL_MS:g} ms:"
              f" {'met' if r['goal']['met'] else 'NOT met'}")
    result = {
        "benchmark": "bgbot", "mode": "courtpiece", "backend": args.backend,
        "python": platform.python_version(), "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "runs": runs, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    print(f"load average {load_before[0]:.1f} -> {load_after[0]:.1f} on {os.cpu_count()} cpus")
    path = history.write(run, result, f"courtpiece-{args.backend}")
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("backgammon", "courtpiece"), default="backgammon")
    parser.add_argument("--levels", nargs="*", help="levels to measure (default: every one)")
    parser.add_argument("--duel", type=int, default=0, metavar="N",
                        help="play N money games beginner against intermediate instead")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    if args.duel:
        _run_duel(args)
        return
    if args.game == "courtpiece":
        _run_courtpiece(args)
        return
    run = history.begin("bgbot")
    with tempfile.TemporaryDirectory() as tmp:
        _setup(args.backend, Path(tmp))
        from game.backgammon import bot as bgbot

        _timed_decide()

        load_before = os.getloadavg()
        try:
            runs = [measure(level, args.tables, args.rounds, args.seed)
                    for level in (args.levels or bgbot.LEVELS)]
        finally:
            bgbot.shutdown()
        load_after = os.getloadavg()
    goals = {"intermediate": GOAL_MS, "expert": EXPERT_GOAL_MS}
    for r in runs:
        if r["level"] in goals:
            r["goal"] = {"p95_ms": goals[r["level"]], "met": r["p95_ms"] <= goals[r["level"]]}
    result = {
        "benchmark": "bgbot",
        "backend": args.backend,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "bot_workers": bgbot.workers(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "runs": runs,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    for r in runs:
        goal = r.get("goal")
        verdict = (f"; goal p95 <= {goal['p95_ms']:g} ms: {'met' if goal['met'] else 'NOT met'}"
                   if goal else "")
        print(
            f"{r['level']:>12} ({r['plies']}-ply): {r['tables']} tables x {r['rounds']} rounds, "
            f"p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, max {r['max_ms']} ms; "
            f"{r['decisions_per_turn']} bot actions a turn, each fired in {r['fire_mean_ms']} ms "
            f"of which bgbot.decide p50 {r['decide_p50_ms']} ms; CPU a turn "
            f"{r['cpu_server_ms_per_turn']} ms server + {r['cpu_workers_ms_per_turn']} ms "
            f"workers{verdict}"
        )
    print(f"load average {load_before[0]:.1f} -> {load_after[0]:.1f} on {os.cpu_count()} cpus")
    path = history.write(run, result, args.backend)
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
