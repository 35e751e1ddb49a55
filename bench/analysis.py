"""The analysis request (issue 29): ``GET /api/tables/<id>/analysis?hand=N`` timed cold
(the first request, which computes and stores it) and stored (every later one), for
Court Piece (double dummy, endplay's DDS), Court Piece's knowable part (``&knowable=1``:
deals sampled from the seat's view, each solved) and backgammon (GNU Backgammon at 2-ply
in the bot's worker processes).

Finished hands and games are played first through the table services on a throw-away
SQLite database (a guest plays random legal actions, the bots their own); then each
hand's analysis is asked for through Django's test client, which runs the async view as
the server does. Wall time of the request, p50 and p95; the machine's other load counts.

"cold" is with the analysis ahead off (TABLES_ANALYSIS_AHEAD): the request computes it.
"ahead" plays with it on and asks right as the hand (game) ends, as a replay opened at
once would: the answer is then the background computation's, waited for (a 503 with
Retry-After is asked again, as the page does); "ahead_done" is how long after the hand's
end the background thread had stored it (the last of a run's tables, from the end of
its hand; with Court Piece's knowable part of the guest's seat, computed ahead after
the hand's analysis).

    .venv/bin/python bench/analysis.py [--hands 20] [--knowable 4] [--games 4] [--ahead 10]
                                       [--only backgammon|ahead]

Prints the figures and writes them to bench/results/<date>-analysis.json (history.py).
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


def _setup(tmp: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.pop("REDIS_URL", None)
    os.environ.update(DEBUG="false", SECRET_KEY="analysis-bench-" + "x" * 40,
                      ALLOWED_HOSTS="testserver,127.0.0.1", SECURE_SSL_REDIRECT="false",
                      DATABASE_URL=f"sqlite:///{tmp / 'analysis.sqlite3'}")
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
    settings.TABLES_ANALYSIS_AHEAD = False  # "cold": the first request computes it
    call_command("migrate", "--noinput", verbosity=0)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def _play(game: str, variant: str, want: Any, seed: int) -> tuple[int, int, Any]:
    """A table of ``game`` played until ``want(state)`` names a finished hand: (table id,
    that hand's number, the guest who holds seat 0)."""
    from game.models import Table
    from game.tables import access, due, lifecycle, moves, presence
    from game.tables.errors import TableError
    from game.tables.store import replay

    guest = access.Owner(user=None, guest_key=f"bench-analysis-{seed}")
    bots = [1, 2, 3] if game == "courtpiece" else [1]
    kwargs = {"variant": variant} if game == "courtpiece" else {}
    table = lifecycle.create_table(game=game, owner=guest, bots=bots, **kwargs)
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(seed)
    for _step in range(5000):
        table.refresh_from_db()
        state = replay.load(table)
        hand = want(state)
        if hand:
            presence.seat_disconnected(table_id=table.pk, seat=0)
            return table.pk, hand, guest
        if table.seats.get(number=state.to_move).bot:
            due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = [a for a in state.legal_actions() if a not in ("timeout", "redeal", "claim")]
        plays = [a for a in legal if a.startswith("move:")]
        if game == "backgammon":
            action = rng.choice(plays) if plays else next(
                (a for a in ("roll", "take", "reject") if a in legal), legal[0]
            )
        else:
            action = rng.choice(legal)
        with contextlib.suppress(TableError):  # a bot moved first: read the table again
            moves.apply_action(table_id=table.pk, owner=guest, action=action,
                               expected_version=table.version)
    raise AssertionError("no finished hand")


def _first_cp_hand(state: Any) -> int:
    done = [n for n, h in enumerate(state.hands, start=1) if h.trick_count >= 7]
    return done[0] if done else 0


def _bg_over(state: Any) -> int:
    return 1 if state.is_over else 0


def _time(client: Any, url: str) -> float:
    start = time.perf_counter()
    answer = client.get(url)
    took = time.perf_counter() - start
    assert answer.status_code == 200, answer.content[:300]
    return took


def _time_until_ready(client: Any, url: str) -> float:
    """The request, asked again after Retry-After while the analysis is being computed
    (the replay page does the same): wall time until the answer."""
    start = time.perf_counter()
    while True:
        answer = client.get(url)
        if answer.status_code != 503:
            break
        time.sleep(float(answer.get("Retry-After", "2")))
    took = time.perf_counter() - start
    assert answer.status_code == 200, answer.content[:300]
    return took


def _ahead(game: str, want: Any, seeds: range) -> dict[str, Any]:
    """Tables played with the analysis ahead on; each hand's analysis asked for right
    as it ends."""
    from django.conf import settings
    from django.test import Client

    from game.tables import ahead

    settings.TABLES_ANALYSIS_AHEAD = True
    first, done = [], []
    try:
        for seed in seeds:
            variant = "rung" if game == "courtpiece" else ""
            table_id, hand, _guest = _play(game, variant, want, seed)
            ended = time.perf_counter()
            url = f"/api/tables/{table_id}/analysis?hand={hand}"
            first.append(_time_until_ready(Client(), url))
            ahead.drain()
            done.append(time.perf_counter() - ended)
    finally:
        settings.TABLES_ANALYSIS_AHEAD = False
    ms = [1000 * x for x in first]
    ms_done = [1000 * x for x in done]
    return {
        "n": len(first),
        "first_request_p50_ms": round(_percentile(ms, 0.5), 1),
        "first_request_p95_ms": round(_percentile(ms, 0.95), 1),
        "ahead_done_p50_ms": round(_percentile(ms_done, 0.5), 1),
        "ahead_done_p95_ms": round(_percentile(ms_done, 0.95), 1),
    }


def _dds_cpu(hands: int) -> dict[str, Any]:
    """CPU a hand (process time, so the machine's load counts less) of the double-dummy
    analysis as it is (``doubledummy.analyse``: best cards only, from the last card
    back, the card played scored by the next position) against scoring every card of
    every position with solve_board, on the same random Rung hands; each twice, in turn."""
    from game.courtpiece import doubledummy
    from game.engine import courtpiece as cp
    from tests.bots.helpers import play_hand, random_legal

    found = []
    for seed in range(100, 100 + hands):
        rng = random.Random(seed)
        for attempt in range(20):
            hand, _n = play_hand(cp.Rules("rung"), f"dds-{seed}-{attempt}",
                                 [random_legal(rng)] * 4, dealer=seed % 4)
            if hand.trump and doubledummy.plays(hand):
                found.append(hand)
                break

    def every_card(hand: Any) -> None:
        for p in doubledummy.positions(hand):
            doubledummy.solve(doubledummy.deal_at(p["hands"], hand.trump, p["leader"], p["before"]))

    cpu: dict[str, list[float]] = {"every_card": [], "analyse": []}
    for _round in range(2):
        for name, fn in (("every_card", every_card), ("analyse", doubledummy.analyse)):
            for hand in found:
                start = time.process_time()
                fn(hand)
                cpu[name].append(1000 * (time.process_time() - start))
    out: dict[str, Any] = {"hands": len(found)}
    for name, ms in cpu.items():
        out[f"{name}_cpu_mean_ms"] = round(sum(ms) / len(ms), 1)
        out[f"{name}_cpu_p50_ms"] = round(_percentile(ms, 0.5), 1)
        out[f"{name}_cpu_p95_ms"] = round(_percentile(ms, 0.95), 1)
    out["ratio_of_means"] = round(
        out["analyse_cpu_mean_ms"] / out["every_card_cpu_mean_ms"], 3
    )
    return out


def _figures(cold: list[float], stored: list[float]) -> dict[str, Any]:
    ms = [1000 * x for x in cold]
    ms_stored = [1000 * x for x in stored]
    return {
        "n": len(cold),
        "cold_p50_ms": round(_percentile(ms, 0.5), 1),
        "cold_p95_ms": round(_percentile(ms, 0.95), 1),
        "cold_max_ms": round(max(ms), 1),
        "stored_p50_ms": round(_percentile(ms_stored, 0.5), 2),
        "stored_p95_ms": round(_percentile(ms_stored, 0.95), 2),
    }


def _measure(client: Any, tables: list[tuple[int, int, Any]], extra: str = "") -> dict[str, Any]:
    cold, stored = [], []
    for table_id, hand, _guest in tables:
        url = f"/api/tables/{table_id}/analysis?hand={hand}{extra}"
        cold.append(_time(client, url))
        stored += [_time(client, url) for _ in range(5)]
    return _figures(cold, stored)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--knowable", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--dds-hands", type=int, default=30)
    parser.add_argument("--ahead", type=int, default=10, help="Court Piece tables (and a "
                        "quarter as many backgammon games) with the analysis ahead on")
    parser.add_argument("--only", choices=("backgammon", "ahead"), help="measure only "
                        "backgammon's analysis (cold, stored and ahead), or only the "
                        "analyses ahead (Court Piece's with the knowable part, backgammon's)")
    args = parser.parse_args()
    run = history.begin("analysis")
    with tempfile.TemporaryDirectory() as tmp:
        _setup(Path(tmp))
        from django.test import Client

        from game.backgammon import bot

        figures: dict[str, Any] = {}
        if args.only is None:
            _courtpiece(figures, args)
        bg_tables = [_play("backgammon", "", _bg_over, 100 + s)
                     for s in range(args.games if args.only != "ahead" else 0)]
        bot.equities(["4HPwATDgc/ABMA"], 0)  # the workers up first: a server's are warm
        if bg_tables:
            client = Client()
            figures["backgammon_equity"] = _measure(client, bg_tables)
            answers = [client.get(f"/api/tables/{t}/analysis?hand={h}").json()
                       for t, h, _g in bg_tables]
            figures["backgammon_equity"]["checker_plays_judged"] = [
                len(a["moves"]) for a in answers
            ]
            figures["backgammon_equity"]["cube_decisions_judged"] = [
                len(a.get("cube", [])) for a in answers
            ]
            print("Backgammon, equity:", figures["backgammon_equity"])
            figures["backgammon_split"] = _bg_split(bg_tables)
            print("Backgammon, checker plays and cube apart:", figures["backgammon_split"])
        if args.only != "backgammon":
            figures["courtpiece_ahead"] = _ahead(
                "courtpiece", _first_cp_hand, range(1000, 1000 + args.ahead)
            )
            print("Court Piece, ahead:", figures["courtpiece_ahead"])
        figures["backgammon_ahead"] = _ahead(
            "backgammon", _bg_over, range(2000, 2000 + max(1, args.ahead // 4))
        )
        print("Backgammon, ahead:", figures["backgammon_ahead"])
        bot.shutdown()
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
        print("load average (1, 5, 15 min):", figures["load_average"])
    path = history.write(run, figures)
    print("written to", path.relative_to(ROOT))


def _bg_split(tables: list[tuple[int, int, Any]]) -> dict[str, Any]:
    """The same games' checker plays and cube decisions judged apart, in the order
    ``analyse`` judges them (wall time): what the cube adds to a cold analysis. Each game
    on fresh worker processes (started first, outside the timing), so neither part reads
    gnubg's evaluation cache of the request measured before."""
    from game.backgammon import analysis, bot
    from game.models import Table
    from game.tables import registry
    from game.tables.store import replay

    checker, cube, asked = [], [], []
    for table_id, hand, _guest in tables:
        game = registry.spec("backgammon").finished(replay.load(Table.objects.get(pk=table_id)))
        game = game[hand - 1]
        bot.shutdown()
        bot.equities(["4HPwATDgc/ABMA"], 0)  # fresh workers, up
        start = time.perf_counter()
        analysis.judge(analysis.decisions(game))
        checker.append(1000 * (time.perf_counter() - start))
        found = analysis.cube_decisions(game)
        start = time.perf_counter()
        analysis.judge_cube(found)
        cube.append(1000 * (time.perf_counter() - start))
        asked.append(len({d["asked"] for d in found}))
    return {
        "checker_p50_ms": round(_percentile(checker, 0.5), 1),
        "checker_p95_ms": round(_percentile(checker, 0.95), 1),
        "cube_p50_ms": round(_percentile(cube, 0.5), 1),
        "cube_p95_ms": round(_percentile(cube, 0.95), 1),
        "cube_positions": asked,
    }


def _courtpiece(figures: dict[str, Any], args: Any) -> None:
    """Court Piece's figures: DDS's CPU a hand, double dummy cold and stored, the
    knowable part cold and stored."""
    from django.test import Client

    figures["courtpiece_dds_cpu"] = _dds_cpu(args.dds_hands)
    print("Court Piece, DDS CPU a hand:", figures["courtpiece_dds_cpu"])
    cp_tables = [_play("courtpiece", "rung", _first_cp_hand, s) for s in range(args.hands)]
    figures["courtpiece_double_dummy"] = _measure(Client(), cp_tables)
    print("Court Piece, double dummy:", figures["courtpiece_double_dummy"])
    mine = []
    for table_id, hand, guest in cp_tables[: args.knowable]:
        client = Client()
        session = client.session
        session["guest_key"] = guest.guest_key
        session.save()
        client.cookies["sessionid"] = session.session_key  # type: ignore[assignment]
        mine.append((client, table_id, hand))
    cold, stored = [], []
    for client, table_id, hand in mine:
        url = f"/api/tables/{table_id}/analysis?hand={hand}&knowable=1"
        cold.append(_time(client, url))
        stored += [_time(client, url) for _ in range(5)]
        assert client.get(url).json()["seat"] == 0
    figures["courtpiece_knowable"] = _figures(cold, stored)
    print("Court Piece, knowable (seat 0):", figures["courtpiece_knowable"])


if __name__ == "__main__":
    main()
