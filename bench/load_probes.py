"""The load benchmark's probes (``bench/load.py --flush-probe``, ``--pg-waits``): each a
process of its own sampling through the nominal turns, read back afterwards and placed
in the side's turn each sample fell in.
"""

from __future__ import annotations

import math
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from load_report import percentile
from load_servers import PG_DB, RESULTS

# A disk's flush, timed: 8 KiB written over the same block and fdatasync'd, as a
# PostgreSQL commit does to its WAL, every INTERVAL seconds; one line per flush
# (time.monotonic(), milliseconds), so each can be placed in the side's turn it fell in.
_FLUSH_PROBE = r"""
import os, sys, time
path, interval, out = sys.argv[1], float(sys.argv[2]), open(sys.argv[3], "w", buffering=1)
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
block = os.urandom(8192)
try:
    while True:
        os.pwrite(fd, block, 0)
        t = time.monotonic()
        os.fdatasync(fd)
        out.write(f"{t:.6f} {1000 * (time.monotonic() - t):.3f}\n")
        time.sleep(interval)
except KeyboardInterrupt:
    pass
finally:
    out.close()
    os.unlink(path)
"""


class _Sampler:
    """A probe in a process of its own, writing one line per sample (time.monotonic(),
    a value) to a file in ``folder``, all through the nominal turns."""

    def __init__(self, folder: Path, script: str, *args: str) -> None:
        self.folder = folder
        self.out = folder / "samples.txt"
        self.proc = subprocess.Popen([sys.executable, "-c", script, *args, str(self.out)])
        self.lines: list[tuple[float, float]] = []

    def stop(self) -> None:
        """Stop the probe, then read every sample it took (a slow last one included)."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        text = self.out.read_text() if self.out.exists() else ""
        self.lines = [(float(at), float(value)) for at, value in
                      (line.split() for line in text.splitlines() if " " in line)]
        shutil.rmtree(self.folder, ignore_errors=True)

    def within(self, windows: list[tuple[float, float]]) -> list[float]:
        """The samples taken within these windows (time.monotonic()), in order."""
        return [value for at, value in self.lines if any(a <= at < b for a, b in windows)]


class FlushProbe(_Sampler):
    """``--flush-probe``: the disk's flushes timed (milliseconds), in a folder beside
    the results (on the repository's disk: a temporary folder may be in memory, where a
    flush waits for nothing)."""

    def __init__(self, interval: float) -> None:
        RESULTS.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="flush-probe-", dir=RESULTS))
        super().__init__(folder, _FLUSH_PROBE, str(folder / "probe"), str(interval))


def flush_figures(flushes: list[float]) -> dict[str, Any]:
    def ms(value: float) -> float | None:  # None, not NaN, where there was no flush
        return None if math.isnan(value) else round(value, 2)

    return {
        "count": len(flushes),
        "p50_ms": ms(percentile(flushes, 0.50)),
        "p99_ms": ms(percentile(flushes, 0.99)),
        "max_ms": round(max(flushes), 2) if flushes else None,
    }


# PostgreSQL's own account of what the moves wait for: every INTERVAL seconds, how many
# of the benchmark database's client backends are waiting on the WAL's flush to the disk
# (IO:WALSync is the one flushing; LWLock:WALWrite, those queued behind it); one line
# per look (time.monotonic(), that count).
_PG_WAITS = r"""
import sys, time
import psycopg
dsn, database, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
out = open(sys.argv[4], "w", buffering=1)
sql = ("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
       "AND backend_type = 'client backend' AND wait_event IN ('WALSync', 'WALWrite')")
try:
    with psycopg.connect(dsn, autocommit=True) as conn:
        while True:
            # pg_stat_activity is read once a transaction: autocommit makes each look new.
            waiting = conn.execute(sql, [database]).fetchone()[0]
            out.write(f"{time.monotonic():.6f} {waiting}\n")
            time.sleep(interval)
except KeyboardInterrupt:
    pass
finally:
    out.close()
"""


class PgWaits(_Sampler):
    """``--pg-waits``: PostgreSQL's backends waiting on the WAL's flush, counted. A
    tables turn whose p99 came from the disk (a move is told only once its commit is on
    it) shows here as a long run of looks that found moves waiting on the flush, many at
    once; the anchor writes nothing, so its turns show none."""

    def __init__(self, interval: float, pg_host: str) -> None:
        self.interval = interval
        super().__init__(Path(tempfile.mkdtemp(prefix="pg-waits-")), _PG_WAITS,
                         f"host={pg_host} user=postgres dbname=postgres", PG_DB,
                         str(interval))

    def figures(self, windows: list[tuple[float, float]]) -> dict[str, Any]:
        """Within these windows: the looks, the share of them that found a move waiting
        on the WAL's flush, the longest run of such looks (as time), and the most moves
        found waiting at once. Ordinary commits, each flushed quickly, are caught by a
        few looks in a row at most; a flush the disk holds up shows as a long run, with
        the fast moves' connections (``TABLES_FAST_CONNECTIONS``) all waiting behind
        it."""
        looks = [int(n) for n in self.within(windows)]
        waited = longest = run = 0
        for n in looks:
            run = run + 1 if n else 0
            waited += bool(n)
            longest = max(longest, run)
        return {
            "looks": len(looks),
            "waiting_share": round(waited / len(looks), 3) if looks else None,
            "longest_wait_ms": round(1000 * self.interval * longest),
            "most_waiting": max(looks, default=0),
        }

