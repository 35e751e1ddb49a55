"""Court Piece bots in duplicate play (issue #28): the share of hands one player wins
against another, each deal played twice with the teams swapped.

Players: ``today`` (the rule-based bot as it was before the levels,
``game.bots.courtpiece.rulebased``), ``easy``, ``medium``, ``hard`` (``cpbot.choose``
levels) and ``plain``, a plain Monte Carlo card player written for this benchmark: 20
deals sampled consistently with the certain facts only (cards played, voids, public
cards, counts: ``sampling.sample_worlds(infer=False)``), each solved double-dummy by DDS,
and the card that most often reaches the hand's goal (7 tricks, or the Hukum contract
made or set) is played; ties go to the most tricks on average. Where DDS does not
describe the game (Double Sar, Mendikot, Be-Ranga and Hidden Rung before trump is
known), and with more than ``PLAIN_FROM`` (11) cards in hand (20 full DDS solves at 12-13
cards take about 1.3 s of CPU a decision on this machine: too slow for a benchmark of
useful size), the plain player plays the medium bot's card.

Duplicate: deal i (seeded, dealer i % 4) is played once with A as team 0 (seats 0 and 2)
and once with A as team 1. The calls, bids, redeals and the 13th-card call are made by
``today`` in both plays, so both tables play under the same trump call, and only the
card play differs. A redealt hand is not counted. The share is of hands won by A; the
95% interval is the normal one over the deals' scores (0, 1/2 or 1 a deal), since the
two plays of one deal are not independent.

Decision times are per card-play decision with a choice (the calls are ``today``'s),
p50, p95 and mean, per player, both wall-clock and the process's CPU time (DDS runs in
the calling thread, so CPU time is the decision's own work, less moved by the
neighbours' load); the machine's load average is recorded beside them.

    .venv/bin/python bench/bots.py                         # the default set of pairings
    .venv/bin/python bench/bots.py --pair medium:today --variant rung --deals 200
    .venv/bin/python bench/bots.py --workers 2             # two processes

Prints the figures and writes bench/results/<date>-bots.json (history.py).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import history  # noqa: E402

from game.bots import courtpiece as cpbot  # noqa: E402
from game.bots.courtpiece import hard, rulebased  # noqa: E402
from game.bots.courtpiece.sampling import dd_tricks, hand_view, sample_worlds  # noqa: E402
from game.engine import courtpiece as cp  # noqa: E402
from game.engine.courtpiece.cards import CARD_STR  # noqa: E402

Policy = Callable[[Mapping[str, Any]], str]
PLAIN_DEALS = 20
PLAIN_FROM = 11  # plain searches with this many cards in hand or fewer (medium's card before)

# (A, B, variants, deals): sized for a 2-core machine shared with others.
DEFAULT_RUNS = [
    ("medium", "today", ["rung", "single_sar"], 300),
    ("easy", "medium", ["rung"], 100),
    ("hard", "today", ["rung", "single_sar"], 50),
    ("hard", "today", ["hidden", "hukum", "be_ranga", "mendikot", "double_sar"], 24),
    ("hard", "plain", ["rung", "single_sar"], 24),
]


def plain(view: Mapping[str, Any]) -> str:
    """The benchmark's plain sampler (see the module docstring)."""
    hv = hand_view(view)
    legal = hv["legal_actions"]
    plays = [a[5:] for a in legal if a.startswith("play:")]
    fallback = cpbot.choose(view, "medium")
    if not fallback.startswith("play:") or len(plays) < 2 or not hard.searchable(hv):
        return fallback
    if len(hv["hand"]) > PLAIN_FROM:
        return fallback  # DDS at 12-13 cards, 20 deals, is too slow here
    seat: int = hv["seat"]
    taken = hv.get("tricks_taken") or [0, 0]
    ours0, theirs0 = taken[seat % 2], taken[1 - seat % 2]
    left = 13 - int(hv.get("trick_count") or 0)
    trick = [(e["seat"], e["card"]) for e in hv.get("trick") or []]
    reach = dict.fromkeys(plays, 0)
    tricks = dict.fromkeys(plays, 0)
    for world in sample_worlds(view, PLAIN_DEALS, infer=False):
        hands = [[CARD_STR[c] for c in h] for h in world.hands]
        values = dd_tricks(hands, hv["trump"], seat, trick)
        for card in plays:
            won = values[card]
            reach[card] += hard.goal_value(hv, ours0 + won, theirs0 + left - won) >= 1.0
            tricks[card] += won
    best = max(plays, key=lambda c: (reach[c], tricks[c], c))
    return "play:" + best


def policy(name: str) -> Policy:
    if name == "today":
        return rulebased.choose
    if name == "plain":
        return plain
    if name in cpbot.LEVELS:
        return lambda view: cpbot.choose(view, name)
    raise SystemExit(f"unknown player {name!r}")


def play(variant: str, deal_no: int, a: str, b: str, a_team: int) -> dict[str, Any]:
    """One play of one deal; A is ``a_team``. Returns the winner and the decision times."""
    rules = cp.Rules(variant)
    players = {a: policy(a), b: policy(b)}
    hand = cp.new_hand(rules, dealer=deal_no % 4, seed=f"bots-{variant}-{deal_no}")
    times: dict[str, list[float]] = {a: [], b: []}
    cpus: dict[str, list[float]] = {a: [], b: []}
    while not hand.is_over:
        seat = hand.to_move
        view = hand.view(seat)
        who = a if seat % 2 == a_team else b
        if view["phase"] in ("call", "bid"):
            action = rulebased.choose(view)  # the same calls at both tables
        else:
            start, cpu = time.perf_counter(), time.process_time()
            action = players[who](view)
            if len(view["legal_actions"]) > 1:
                times[who].append(time.perf_counter() - start)
                cpus[who].append(time.process_time() - cpu)
        hand = hand.apply(action, seat)
    result = hand.result
    assert result is not None
    won = None if result.kind == "redeal" else int(result.winner == a_team)
    return {"won": won, "kind": result.kind, "history": hand.history, "times": times,
            "cpu": cpus}


def duplicate(job: tuple[str, int, str, str]) -> dict[str, Any]:
    variant, deal_no, a, b = job
    first = play(variant, deal_no, a, b, 0)
    second = play(variant, deal_no, a, b, 1)
    return {"deal": deal_no, "plays": [first, second]}


def summary(a: str, b: str, variant: str, deals: list[dict[str, Any]]) -> dict[str, Any]:
    scores = []
    by_deal: dict[int, float] = {}
    for d in deals:
        won = [p["won"] for p in d["plays"] if p["won"] is not None]
        if won:
            scores.append(sum(won) / len(won))
            by_deal[d["deal"]] = scores[-1]
    n = len(scores)
    share = statistics.fmean(scores) if n else float("nan")
    half = 1.96 * statistics.stdev(scores) / math.sqrt(n) if n > 1 else float("nan")
    timing = {}
    for who in (a, b):
        ts = sorted(t for d in deals for p in d["plays"] for t in p["times"][who])
        cs = sorted(t for d in deals for p in d["plays"] for t in p["cpu"][who])
        if ts:
            timing[who] = {
                "decisions": len(ts),
                "p50_ms": round(1000 * ts[len(ts) // 2], 2),
                "p95_ms": round(1000 * ts[min(len(ts) - 1, int(0.95 * len(ts)))], 2),
                "mean_ms": round(1000 * statistics.fmean(ts), 2),
                "cpu_p50_ms": round(1000 * cs[len(cs) // 2], 2),
                "cpu_p95_ms": round(1000 * cs[min(len(cs) - 1, int(0.95 * len(cs)))], 2),
                "cpu_mean_ms": round(1000 * statistics.fmean(cs), 2),
            }
    lost = [
        {"deal": d["deal"], "a_team": i, "kind": p["kind"]}
        for d in deals
        for i, p in enumerate(d["plays"])
        if p["won"] == 0
    ]
    return {
        "a": a,
        "b": b,
        "variant": variant,
        "deals": len(deals),
        "deals_counted": n,
        "share_a": round(share, 4),
        "ci95": [round(share - half, 4), round(share + half, 4)],
        "timing": timing,
        "lost_by_a": lost[:20],
        "score_by_deal": by_deal,  # for paired comparisons of two runs on the same deals
    }


def tweak(item: str) -> tuple[str, float]:
    name, _, value = item.partition("=")
    if name.startswith("plain."):
        if not hasattr(sys.modules[__name__], name[6:]):
            raise SystemExit(f"bench has no {name[6:]!r}")
        return name, float(value)
    if not hasattr(hard, name):
        raise SystemExit(f"hard has no {name!r}")
    return name, float(value)


def configure(overrides: Mapping[str, float]) -> None:
    """Set the hard bot's numbers for an experiment (in each worker process too)."""
    for name, value in overrides.items():
        module: Any = hard
        if name.startswith("plain."):  # the benchmark's own plain player (PLAIN_FROM...)
            module, name = sys.modules[__name__], name[6:]
        current = getattr(module, name)
        setattr(module, name, type(current)(value))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", help="A:B, e.g. hard:today (default: the set of runs)")
    parser.add_argument("--variant", action="append", help="repeatable (default: per run)")
    parser.add_argument("--deals", type=int, help="deals per variant (default: per run)")
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="override a number in game.bots.courtpiece.hard (or plain.NAME: this bench's "
        "plain player, e.g. plain.PLAIN_FROM=13) for this run (experiments)",
    )
    args = parser.parse_args()
    overrides = dict(tweak(item) for item in args.set)
    configure(overrides)
    if args.pair:
        a, b = args.pair.split(":")
        runs = [(a, b, args.variant or ["rung", "single_sar"], args.deals or 100)]
    else:
        runs = [(a, b, args.variant or v, args.deals or n) for a, b, v, n in DEFAULT_RUNS]
    run = history.begin("bots")
    results = []
    for a, b, variants, n in runs:
        for variant in variants:
            jobs = [(variant, args.first + i, a, b) for i in range(n)]
            if args.workers > 1:
                with ProcessPoolExecutor(
                    args.workers, initializer=configure, initargs=(overrides,)
                ) as pool:
                    deals = list(pool.map(duplicate, jobs))
            else:
                deals = [duplicate(job) for job in jobs]
            s = summary(a, b, variant, deals)
            results.append(s)
            t = "  ".join(
                f"{w} p50 {x['p50_ms']} p95 {x['p95_ms']} mean {x['mean_ms']} ms"
                for w, x in s["timing"].items()
            )
            print(
                f"{a} vs {b} {variant}: {s['share_a']:.3f} [{s['ci95'][0]:.3f}, "
                f"{s['ci95'][1]:.3f}] over {s['deals_counted']} deals; {t}",
                flush=True,
            )
    figures = {
        "runs": results,
        "load_average": list(os.getloadavg()),
        "hard_overrides": overrides,
    }
    path = history.write(run, figures)
    print(f"written {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
