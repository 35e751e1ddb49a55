"""The pages of "Your own hands" (tutorials.mistakes): a hand's mistakes page timed cold
(the first visit: the knowable part of the seat's own cards is computed in the analysis
pool and stored) and stored (every later visit: the stored verdicts, the hand played
again from the deal to rebuild each puzzle's position), and one puzzle's page, stored.

Finished Rung hands are played first on a throw-away SQLite database (a guest at seat 0
plays random legal cards, the bots their own); the pages are asked for as that guest
through Django's test client, which runs the async views as the server does. Wall time,
p50 and p95; the machine's other load counts.

    .venv/bin/python bench/mistakes.py [--hands 4]

Prints the figures and writes them to bench/results/<date>-mistakes.json (history.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import history

ROOT = Path(__file__).resolve().parent.parent


def setup(tmp: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.pop("REDIS_URL", None)
    os.environ.update(DEBUG="false", SECRET_KEY="mistakes-bench-" + "x" * 40,
                      ALLOWED_HOSTS="testserver,127.0.0.1", SECURE_SSL_REDIRECT="false",
                      DATABASE_URL=f"sqlite:///{tmp / 'mistakes.sqlite3'}")
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
    # pages with {% static %} without running collectstatic for the bench
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    call_command("migrate", "--noinput", verbosity=0)


def play(seed: int) -> tuple[int, str]:
    """A Rung table played until its first hand is over: (table id, the guest's key)."""
    from game.models import Table
    from game.tables import access, due, lifecycle, moves, presence
    from game.tables.errors import TableError
    from game.tables.store import replay

    guest = access.Owner(user=None, guest_key=f"bench-mistakes-{seed}")
    table = lifecycle.create_table(game="courtpiece", owner=guest, bots=[1, 2, 3],
                                   variant="rung")
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(seed)
    for _step in range(3000):
        table.refresh_from_db()
        state = replay.load(table)
        if state.hands:
            presence.seat_disconnected(table_id=table.pk, seat=0)
            return table.pk, str(guest.guest_key)
        if table.seats.get(number=state.to_move).bot:
            due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = [a for a in state.legal_actions() if a not in ("timeout", "redeal", "claim")]
        with contextlib.suppress(TableError):
            moves.apply_action(table_id=table.pk, owner=guest, action=rng.choice(legal),
                               expected_version=table.version)
    raise AssertionError("no finished hand")


def timed(client: Any, url: str) -> float:
    start = time.perf_counter()
    answer = client.get(url)
    took = time.perf_counter() - start
    assert answer.status_code == 200, answer.content[:300]
    return took


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def figures(values: list[float]) -> dict[str, Any]:
    ms = [1000 * v for v in values]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 0.5), 1),
            "p95_ms": round(percentile(ms, 0.95), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4)
    args = parser.parse_args()
    run = history.begin("mistakes")
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp))
        from django.test import Client

        cold, stored, puzzle = [], [], []
        puzzles = 0
        for seed in range(args.hands):
            table_id, key = play(seed)
            client = Client()
            session = client.session
            session["guest_key"] = key
            session.save()
            client.cookies["sessionid"] = session.session_key  # type: ignore[assignment]
            url = f"/en/learn/mine/{table_id}/1/"
            cold.append(timed(client, url))
            stored += [timed(client, url) for _ in range(3)]
            found = client.get(url).text.count('data-testid="own-mistake-link"')
            puzzles += found
            if found:
                puzzle += [timed(client, f"{url}1/") for _ in range(3)]
        out = {"hands": args.hands, "puzzles": puzzles, "hand_page_cold": figures(cold),
               "hand_page_stored": figures(stored)}
        if puzzle:
            out["puzzle_page_stored"] = figures(puzzle)
        print(out)
    path = history.write(run, out)
    print("written to", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
