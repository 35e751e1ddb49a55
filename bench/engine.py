"""Court Piece engine benchmark: random complete hands per second for every variant, and
OpenSpiel's `hearts` random complete games per second driven from Python, in one run.

Both sides do the same work per game: sample the deal (OpenSpiel through its chance
nodes, ours by shuffling a deck with the same `random.Random`), then pick uniformly among
the legal actions until the game is over. Rates are per second of this process's CPU time
(`time.process_time`), so other work on the machine does not count against either side;
runs are interleaved, and the rung/hearts ratio is the median over rounds of the ratio
measured back to back.

Prints a table and writes a dated file, bench/results/<date>-engine.json (history.py),
unless ``--no-write``. Goals: rung ≥ hearts (issue #2); no loss in refactors, rung/hearts
≥ 1.10 (issue #8). ``--help`` lists the options for a shorter run (fewer rounds or
seconds, only some variants).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import history  # noqa: E402  (bench/, the script's folder, is first on sys.path)

from game.engine import courtpiece as cp  # noqa: E402
from game.engine.fair import DECK  # noqa: E402

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("rung", {}),
    ("rung", {"court": "first7"}),
    ("single_sar", {}),
    ("hidden", {}),
    ("double_sar", {}),
    ("double_sar", {"ace_rule": True}),
    ("be_ranga", {}),
    ("mendikot", {}),
    ("hukum", {}),
    ("hukum", {"bidding": False}),
]
SECONDS = 1.0  # CPU seconds per measurement
ROUNDS = 5


def _key(variant: str, options: dict[str, object]) -> str:
    return variant + "".join(f" {k}={v}" for k, v in options.items())


def court_piece_runner(variant: str, options: dict[str, object]) -> Callable[[int], int]:
    rules = cp.Rules(variant=variant, **options)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        deck = list(DECK)
        games = 0
        deadline = time.process_time() + SECONDS
        while time.process_time() < deadline:
            for _ in range(20):
                rng.shuffle(deck)
                hand = cp.new_hand(rules, dealer=games % 4, deal=[deck[s::4] for s in range(4)])
                while hand.to_move is not None:
                    hand = hand.apply(choice(hand.legal_actions()))
                games += 1
        return games

    return run


def hearts_runner() -> Callable[[int], int]:
    import pyspiel

    game = pyspiel.load_game("hearts")

    def run(seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        games = 0
        deadline = time.process_time() + SECONDS
        while time.process_time() < deadline:
            for _ in range(20):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(choice(state.chance_outcomes())[0])
                    else:
                        state.apply_action(choice(state.legal_actions()))
                games += 1
        return games

    return run


def measure(run: Callable[[int], int], seed: int) -> float:
    start = time.process_time()
    games = run(seed)
    return games / (time.process_time() - start)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds [{ROUNDS}]")
    parser.add_argument(
        "--seconds", type=float, default=SECONDS, help=f"CPU seconds per measurement [{SECONDS}]"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="VARIANT",
        help="measure only these variants (rung is always measured: the ratio needs it)",
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave bench/results alone"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    global SECONDS
    args = _arguments(argv)
    run = history.begin("engine", argv)
    SECONDS = args.seconds
    configs = [
        (v, o) for v, o in CONFIGS if not args.only or v in args.only or (v, o) == ("rung", {})
    ]
    hearts = hearts_runner()
    rates: dict[str, list[float]] = {}
    hearts_rates: list[float] = []
    ratios: list[float] = []
    for round_no in range(args.rounds):
        before = measure(hearts, round_no)
        for variant, options in configs:
            key = _key(variant, options)
            rate = measure(court_piece_runner(variant, options), round_no)
            rates.setdefault(key, []).append(rate)
        after = measure(hearts, round_no + 100)
        hearts_rates += [before, after]
        ratios.append(rates["rung"][-1] / ((before + after) / 2))
    results = {key: statistics.median(values) for key, values in rates.items()}
    hearts_best = statistics.median(hearts_rates)
    ratio = statistics.median(ratios)
    print(f"{'game':34} {'games/s':>10}")
    for key, rate in results.items():
        print(f"{key:34} {rate:10.0f}")
    print(f"{'open_spiel hearts':34} {hearts_best:10.0f}")
    print(f"rung / hearts ratio: {ratio:.2f} (goal >= 1.10)")
    print("per round:", " ".join(f"{r:.3f}" for r in ratios))
    if args.no_write:
        return 0
    payload = {
        "benchmark": "courtpiece random complete hands per second",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_measurement": SECONDS,
        "rounds": args.rounds,
        "rate": "median over rounds, per CPU second",
        "hands_per_second": {k: round(v, 1) for k, v in results.items()},
        "open_spiel_hearts_games_per_second": round(hearts_best, 1),
        "rung_over_hearts": round(ratio, 3),
        "rung_over_hearts_per_round": [round(r, 3) for r in ratios],
        "goal_met": ratio >= 1.10,
    }
    path = history.write(run, payload)
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
