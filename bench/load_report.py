"""The load benchmark's statistics and report: percentiles, a side's figures from its
recorded turns, and the ratios to the anchor, the goals and the summary printed at the end
of ``bench/load.py``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from load_clients import Side


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def side_figures(side: Side, total_rate: float) -> dict[str, Any]:
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
        "p50_ms": round(percentile(lat, 0.50), 2),
        "p90_ms": round(percentile(lat, 0.90), 2),
        "p95_ms": round(percentile(lat, 0.95), 2),
        "p99_ms": round(percentile(lat, 0.99), 2),
        "max_ms": round(max(lat), 2) if lat else float("nan"),
        "errors": sum(t.errors for t in side.tables),
        "lost": sum(t.lost for t in side.tables),
        "samples": len(lat),
        "turns": list(side.turns),
    }


def report(
    args: argparse.Namespace, seats: int, out: dict[str, Any], other: str = "anchor"
) -> None:
    """Add the ratios to the other side (the anchor, or with --against the other
    checkout's tables, "before") and the goals met to ``out``, and print the summary."""
    t, a = out["tables_result"], out[f"{other}_result"]
    out["p99_ratio"] = round(t["nominal"]["p99_ms"] / a["nominal"]["p99_ms"], 2)
    out["saturation_ratio"] = round(
        t["saturation_actions_per_s"] / a["saturation_actions_per_s"], 2
    ) if a["saturation_actions_per_s"] else None
    cpu, other_cpu = (r["nominal"]["server_cpu_ms_per_action"] for r in (t, a))
    out["server_cpu_ratio"] = round(cpu / other_cpu, 3) if cpu and other_cpu else None
    if other == "anchor":
        out["goals"] = {
            "p99_within_1.5x_anchor": out["p99_ratio"] <= 1.5,
            "zero_lost": t["lost"] == 0,
            "saturation_at_least_half_anchor": (out["saturation_ratio"] or 0) >= 0.5,
        }
    else:  # a change's cost: the tables' server CPU an action within 5% of before
        out["goals"] = {
            "server_cpu_within_5pct_of_before": (out["server_cpu_ratio"] or 9) <= 1.05,
            "zero_lost": t["lost"] == 0 and a["lost"] == 0,
        }
    print(f"\n{args.tables} {args.game} tables, {seats * args.tables} sockets, "
          f"{args.rate}/s per table, {args.backend}:")
    for name, r in (("tables", t), (other, a)):
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
        print(f"  {other}'s turns' p99: "
              + ", ".join(f"{turn['p99_ms']:.0f} ms" for turn in a["nominal"]["turns"]))
    print(f"  p99 ratio {out['p99_ratio']}, saturation ratio {out['saturation_ratio']}, "
          f"server CPU ratio {out['server_cpu_ratio']}, frame {t['mean_frame_bytes']} bytes"
          f" (goals: {out['goals']})")
