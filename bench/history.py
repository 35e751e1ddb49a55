"""The benchmarks' dated runs: each run of a script in bench/ written to a file of its own
in bench/results/ (bench/results/README.md), never over an earlier one.

    run = history.begin("load")               # as the run starts
    ...
    path = history.write(run, figures, "sqlite")

``begin`` takes what the file says about the run besides its figures, when it starts (a
long run may outlast a commit made meanwhile): the date and time, the command as run,
the git commit measured, the machine and the settings in the environment. ``write`` puts
the figures under ``runs`` and names the file ``<date>-<benchmark>[-<variant>].json``;
a later run of the same day, benchmark and variant gets the time it started too
(``2026-12-04T2130-load-sqlite.json``), and the seconds if that is taken as well.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

# Settings the site's processes read from the environment that change what a benchmark
# measures (docs/CONFIGURATION.md); the benchmarks pass the environment on to the servers
# they start. None of them is a secret, unlike DATABASE_URL or the email settings.
SETTINGS_PREFIXES = ("TABLES_", "DB_POOL_", "GC_", "REDIS_CHANNEL_", "REDIS_MAX_")


def begin(benchmark: str, argv: list[str] | None = None) -> dict[str, Any]:
    """What the run's file says besides its figures, taken now: ``argv`` is the script's
    arguments (``sys.argv[1:]`` unless given)."""
    now = datetime.now().astimezone()
    commit = _git("rev-parse", "HEAD")
    run: dict[str, Any] = {
        "date": now.date().isoformat(),
        "started": now.isoformat(timespec="seconds"),
        "benchmark": benchmark,
        "command": _command(sys.argv[1:] if argv is None else argv),
        "commit": commit,
        "uncommitted_changes": (
            bool(_git("status", "--porcelain", "--untracked-files=no")) if commit else None
        ),
        "machine": _machine(),
    }
    env = {k: v for k, v in sorted(os.environ.items()) if k.startswith(SETTINGS_PREFIXES)}
    if env:
        run["env"] = env
    return run


def write(run: dict[str, Any], figures: dict[str, Any], variant: str = "") -> Path:
    """Write ``figures`` as the one run of ``run`` (from ``begin``) to a new file in
    bench/results/, and return its path."""
    started = datetime.fromisoformat(run["started"])
    name = run["benchmark"] + (f"-{variant}" if variant else "")
    finished = datetime.now().astimezone().isoformat(timespec="seconds")
    text = json.dumps(
        {"date": run["date"], "started": run["started"], "finished": finished, **run,
         "runs": [figures]},
        indent=2, ensure_ascii=False,
    ) + "\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamps = [run["date"], f"{started:%Y-%m-%dT%H%M}", f"{started:%Y-%m-%dT%H%M%S}"]
    stamps += [f"{stamps[-1]}-{n}" for n in range(2, 100)]
    for stamp in stamps:
        path = RESULTS / f"{stamp}-{name}.json"
        try:
            with path.open("x", encoding="utf-8") as out:  # never over an earlier run
                out.write(text)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"bench/results/ has a {name} run for every name tried")


def _command(argv: list[str]) -> str:
    """The command as run, with the repository's paths relative to it."""

    def within(path: Path) -> str:
        return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)

    # Normalised, not resolved: .venv/bin/python is a link out of the repository.
    python = Path(os.path.normpath(sys.executable))
    script = Path(sys.argv[0]).resolve()
    return shlex.join([within(python), within(script), *argv])


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def _machine() -> dict[str, Any]:
    """What the figures depend on besides the code: the interpreter, the processor and
    its cores, the system, and the load when the run started (the machine is shared)."""
    model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "architecture": platform.machine(),
        "processor": model,
        "cpus": os.cpu_count(),
        "system": platform.platform(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
