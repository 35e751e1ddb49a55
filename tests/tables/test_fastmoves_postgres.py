"""The moves on the loop (tests/tables/test_fastmoves.py) once more on the machine's real
PostgreSQL, where they go through psycopg's asynchronous connections, prepared
statements, one pipeline per transaction and the one-statement guarded write
(game/fastmoves.py), not SQLite; and the revision triggers (tests/tables/test_revision.py),
which PostgreSQL has in its own language.

The module runs in a pytest of its own, with DATABASE_URL set before Django starts (the
settings read it once). Marked ``scaleout``; without PostgreSQL it skips, saying why.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.scaleout

ROOT = Path(__file__).resolve().parents[2]
PG = "postgresql://postgres@127.0.0.1:5432"


def test_the_moves_on_the_loop_pass_on_postgresql() -> None:
    try:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is not reachable ({exc})")
    env = {**os.environ, "DATABASE_URL": f"{PG}/baithak_fastmoves"}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/tables/test_fastmoves.py",
         "tests/tables/test_revision.py", "tests/tables/test_analysis_ahead.py",
         "-q", "-p", "no:cacheprovider", "--create-db"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
