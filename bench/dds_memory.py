"""DDS's memory against its speed (issue 26; docs/PERFORMANCE.md, "DDS's memory"): the
analyses of the same random finished Rung hands (game.courtpiece.doubledummy.analyse),
each setting of ``TABLES_DDS_MEMORY`` in a process of its own, the settings taking turns
``--rounds`` times so a busy machine weighs on both alike. Each process reports its RSS
before and after, the peak, the CPU a hand and a digest of the analyses (equal: the
setting changes the search's memory, never its answers).

    .venv/bin/python bench/dds_memory.py [--hands 100] [--rounds 3]

Writes bench/results/<date>-dds-memory.json (history.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Any

import history

_ONE = r"""
import hashlib, json, random, sys, time
from game.courtpiece import doubledummy
from game.engine import courtpiece as cp
from tests.bots.helpers import play_hand, random_legal

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

rng, hands, n = random.Random(1), [], 0
while len(hands) < int(sys.argv[1]):
    n += 1
    hand, _ = play_hand(cp.Rules("rung"), f"x-{n}", [random_legal(rng)] * 4, dealer=n % 4)
    if hand.trump and doubledummy.plays(hand):
        hands.append(hand)
start, peak, digest = rss(), rss(), hashlib.sha1()
cpu = time.process_time()
for hand in hands:
    digest.update(json.dumps(doubledummy.analyse(hand), sort_keys=True).encode())
    peak = max(peak, rss())
print(json.dumps({
    "sized": doubledummy.size_memory(), "rss_start_mib": round(start, 1),
    "rss_end_mib": round(rss(), 1), "rss_peak_mib": round(peak, 1),
    "cpu_ms_per_hand": round(1000 * (time.process_time() - cpu) / len(hands), 1),
    "digest": digest.hexdigest()[:12],
}))
"""


def one(setting: str, hands: int) -> dict[str, Any]:
    env = {**os.environ, "TABLES_DDS_MEMORY": setting}
    done = subprocess.run([sys.executable, "-c", _ONE, str(hands)], cwd=history.ROOT,
                          env=env, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    run = history.begin("dds-memory")
    runs: dict[str, list[dict[str, Any]]] = {"large": [], "small": []}
    for _ in range(args.rounds):
        for setting in runs:
            runs[setting].append(one(setting, args.hands))
            print(setting, runs[setting][-1], flush=True)
    out: dict[str, Any] = {"hands": args.hands, "rounds": args.rounds, "runs": runs}
    for setting, found in runs.items():
        out[f"{setting}_cpu_ms_per_hand_median"] = statistics.median(
            r["cpu_ms_per_hand"] for r in found)
        out[f"{setting}_rss_growth_mib_median"] = round(statistics.median(
            r["rss_end_mib"] - r["rss_start_mib"] for r in found), 1)
    out["same_analyses"] = len({r["digest"] for found in runs.values() for r in found}) == 1
    path = history.write(run, out)
    print(json.dumps({k: v for k, v in out.items() if k != "runs"}), f"\nwrote {path}")


if __name__ == "__main__":
    main()
