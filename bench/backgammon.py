"""Backgammon engine benchmark (issue #3), against outside engines in the same run.

1. Random complete games per second: our engine (legal_plays + a uniformly random play +
   apply, each turn) against OpenSpiel's C++ ``backgammon`` driven from Python the
   same way (legal_actions + random choice + apply_action). Dice come from the true
   distribution on both sides with one ``random.choice`` per roll: ours from the 36 ordered
   pairs, OpenSpiel's from its chance outcomes expanded by their probabilities (picking
   uniformly among its 21 outcomes would make doubles 6/21 instead of 1/6 and change the
   games). Goal: ratio >= 1.20 (it was 1.25-1.34 when the goal was set; issue #8).
2. legal_plays calls per second on positions from random games against GNU
   Backgammon's ``findbestmoves`` at 0-ply on the same (position, roll) pairs (it
   lists and scores every legal move). Goal: ratio >= 0.1.

Times are this process's CPU time (OpenSpiel and gnubg run in-process), and the engines
run in alternating short rounds, so that other load on the machine touches both alike.
Our engine's caches are emptied before every round.

    .venv/bin/python bench/backgammon.py [--seconds 20]

Prints the figures and writes them to a dated file, bench/results/<date>-backgammon.json
(history.py).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable

import gnubg
import history
import pyspiel

from game.engine import backgammon as bg
from game.engine.backgammon import position as bg_position


def clear_caches() -> None:
    bg_position.clear_caches()


DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def our_game(rng: random.Random) -> int:
    """One random game; returns the number of turns."""
    p = bg.Position.start()
    turns = 0
    choice = rng.choice
    while True:
        turns += 1
        plays = bg.legal_plays(p, choice(DICE))
        if not plays:
            p = p.swapped()
            continue
        p = rng.choice(plays).after
        if p.off()[1] == 15:
            return turns


_OS_GAME = pyspiel.load_game("backgammon")
_EXPANDED: dict[tuple[tuple[int, float], ...], list[int]] = {}


def _expanded(outcomes: list[tuple[int, float]]) -> list[int]:
    """The chance actions, each repeated in proportion to its probability."""
    key = tuple(outcomes)
    table = _EXPANDED.get(key)
    if table is None:
        for n in range(1, 73):  # 36 for a roll, 30 for the opening roll (no doubles)
            if all(abs(p * n - round(p * n)) < 1e-9 for _, p in outcomes):
                break
        table = _EXPANDED[key] = [a for a, p in outcomes for _ in range(round(p * n))]
    return table


def openspiel_game(rng: random.Random) -> int:
    s = _OS_GAME.new_initial_state()
    turns = 0
    choice = rng.choice
    while not s.is_terminal():
        if s.is_chance_node():
            turns += 1
            s.apply_action(choice(_expanded(s.chance_outcomes())))
        else:
            s.apply_action(choice(s.legal_actions()))
    return turns


def games_per_second(
    play: Callable[[random.Random], int], seconds: float, seed: int
) -> tuple[int, float, int]:
    rng = random.Random(seed)
    clear_caches()
    n = turns = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        turns += play(rng)
        n += 1
    return n, elapsed, turns


def sample_positions(count: int, seed: int) -> list[tuple[bg.Position, tuple[int, int]]]:
    rng = random.Random(seed)
    out: list[tuple[bg.Position, tuple[int, int]]] = []
    while len(out) < count:
        p = bg.Position.start()
        while len(out) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((p, dice))
            plays = bg.legal_plays(p, dice)
            if not plays:
                p = p.swapped()
                continue
            p = rng.choice(plays).after
            if p.off()[1] == 15:
                break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="time per engine per part")
    ap.add_argument("--positions", type=int, default=3000)
    args = ap.parse_args()
    run = history.begin("backgammon")
    rounds = 5
    per_round = args.seconds / rounds

    # 1. random complete games
    tot = {"ours": [0, 0.0, 0], "openspiel": [0, 0.0, 0]}
    for r in range(rounds):
        for name, fn in (("ours", our_game), ("openspiel", openspiel_game)):
            n, el, turns = games_per_second(fn, per_round, seed=r)
            tot[name][0] += n
            tot[name][1] += el
            tot[name][2] += turns
    ours_gps = tot["ours"][0] / tot["ours"][1]
    os_gps = tot["openspiel"][0] / tot["openspiel"][1]

    # 2. legal_plays against gnubg findbestmoves (0-ply)
    sample = sample_positions(args.positions, seed=99)
    boards = [(p.board(), d) for p, d in sample]
    ec, ci = gnubg.evalcontext(0, 0, 1, 0, 0.0), gnubg.cubeinfo()
    ours_t = gnu_t = 0.0
    ours_calls = gnu_calls = 0
    for _ in range(rounds):
        clear_caches()
        t = time.process_time()
        for p, d in sample:
            bg.legal_plays(p, d)
        ours_t += time.process_time() - t
        ours_calls += len(sample)
        t = time.process_time()
        for b, d in boards:
            gnubg.findbestmoves(b, ci, ec, d)
        gnu_t += time.process_time() - t
        gnu_calls += len(boards)
    ours_cps = ours_calls / ours_t
    gnu_cps = gnu_calls / gnu_t

    results = {
        "random_games_per_second": {
            "ours": round(ours_gps, 1),
            "openspiel": round(os_gps, 1),
            "ratio": round(ours_gps / os_gps, 3),
            "goal_ratio": 1.2,
            "turns_per_game": {
                "ours": round(tot["ours"][2] / max(1, tot["ours"][0]), 1),
                "openspiel": round(tot["openspiel"][2] / max(1, tot["openspiel"][0]), 1),
            },
        },
        "legal_plays_per_second": {
            "ours": round(ours_cps),
            "gnubg_findbestmoves_0ply": round(gnu_cps),
            "ratio": round(ours_cps / gnu_cps, 3),
            "goal_ratio": 0.1,
            "positions": len(sample),
        },
        "seconds_per_engine_per_part": args.seconds,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    path = history.write(run, results)
    print(json.dumps(results, indent=2))
    print(f"wrote {path.relative_to(history.ROOT)}")


if __name__ == "__main__":
    main()
