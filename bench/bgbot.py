"""The backgammon bot under load (issue #10): p95 time from the bot's turn to its move
applied, at 0-ply ("easy") and 1-ply ("medium"), with 50 tables waiting on it at once.

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

Prints the figures and writes a dated file, bench/results/<date>-bgbot-<backend>.json
(history.py). Goal: p95 <= 300 ms at 0-ply.
The machine's load average is recorded with the figures: they are only comparable at a
similar load.
"""

from __future__ import annotations

import argparse
import asyncio
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
    call_command("migrate", "--noinput", verbosity=0)


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
    asyncio.run(clock_wakes())
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

    def timed(view: dict[str, Any], level: str = "easy") -> Any:
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
    tables = [_new_table(owner, level) for _ in range(n_tables)]
    bgbot.decide(_warm_view(), level)  # the pool starts lazily: spawn it before timing
    DECIDE_MS.clear()
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
    }


def _warm_view() -> dict[str, Any]:
    from game.engine import backgammon as bg

    game = bg.Game(bg.Rules(), seed="warm-up")
    return game.view(game.to_move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    run = history.begin("bgbot")
    with tempfile.TemporaryDirectory() as tmp:
        _setup(args.backend, Path(tmp))
        from game.backgammon import bot as bgbot

        _timed_decide()

        load_before = os.getloadavg()
        try:
            runs = [measure(level, args.tables, args.rounds, args.seed) for level in bgbot.PLIES]
        finally:
            bgbot.shutdown()
        load_after = os.getloadavg()
    easy = next(r for r in runs if r["level"] == "easy")
    result = {
        "benchmark": "bgbot",
        "backend": args.backend,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "bot_workers": bgbot.workers(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "runs": runs,
        "goal": {"p95_ms_at_0_ply": GOAL_MS, "met": easy["p95_ms"] <= GOAL_MS},
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    for r in runs:
        print(
            f"{r['level']:>6} ({r['plies']}-ply): {r['tables']} tables x {r['rounds']} rounds, "
            f"p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, max {r['max_ms']} ms; "
            f"{r['decisions_per_turn']} bot actions a turn, each fired in {r['fire_mean_ms']} ms "
            f"of which bgbot.decide p50 {r['decide_p50_ms']} ms"
        )
    print(f"goal p95 <= {GOAL_MS:g} ms at 0-ply: {'met' if result['goal']['met'] else 'NOT met'}"
          f" (load average {load_before[0]:.1f} -> {load_after[0]:.1f} on {os.cpu_count()} cpus)")
    path = history.write(run, result, args.backend)
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
