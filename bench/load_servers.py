"""The load benchmark's servers: the processes bench/load.py starts, and its readings
of their CPU time.

The services reset for a run (PostgreSQL's database and Redis' number), the players
made and signed in (sessions written straight into the session store), daphne serving
the site (``bench/site_asgi.py``) or the anchor (``bench/anchor_asgi.py``), py-spy
recording the tables' server, and the CPU time of a process and of the whole machine
from ``/proc``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import secrets
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PG_DB = "baithak_load"
REDIS_DB = 7


@dataclass(frozen=True)
class Checkout:
    """A checkout whose server the benchmark starts: its folder and its own Python (the
    one of its .venv), so another checkout's server runs its own code and packages."""

    root: Path
    python: str

    @property
    def daphne(self) -> str:
        return str(Path(self.python).with_name("daphne"))


HERE = Checkout(ROOT, sys.executable)


def checkout(folder: str) -> Checkout:
    """Another checkout of the project, set up with ``make install`` (its .venv)."""
    root = Path(folder).resolve()
    python = root / ".venv" / "bin" / "python"
    if not (root / "bench" / "site_asgi.py").is_file() or not python.is_file():
        raise SystemExit(f"{root} is not a checkout with its .venv (run make install there)")
    return Checkout(root, str(python))


# ---------------------------------------------------------------------------- set-up
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(
    backend: str, tmp: Path, pg_host: str = "127.0.0.1", where: Checkout = HERE, name: str = ""
) -> dict[str, str]:
    """The environment of ``where``'s servers; ``name`` keeps a second server's database
    (and Redis number) apart from the first's."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="baithak.settings",
        DEBUG="false",
        SECRET_KEY="load-bench-" + secrets.token_hex(16),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        PYTHONPATH=os.pathsep.join([str(where.root), str(where.root / "bench")]),
    )
    if backend == "postgres":
        # A directory is PostgreSQL's Unix socket (libpq's rule), given in the URL's
        # host part with its slashes quoted.
        host = quote(pg_host, safe="") if pg_host.startswith("/") else f"{pg_host}:5432"
        env["DATABASE_URL"] = f"postgres://postgres@{host}/{PG_DB}{name}"
        env["REDIS_URL"] = f"redis://127.0.0.1:6379/{REDIS_DB + (1 if name else 0)}"
        env.setdefault("DB_POOL_MAX", "20")
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp / f'load{name}.sqlite3'}"
    return env


def reset_services(backend: str, name: str = "") -> None:
    if backend != "postgres":
        return
    db = f"{PG_DB}{name}"
    for sql in (f"DROP DATABASE IF EXISTS {db} WITH (FORCE)", f"CREATE DATABASE {db}"):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=True,
            capture_output=True,
        )
    subprocess.run(["redis-cli", "-n", str(REDIS_DB + (1 if name else 0)), "flushdb"],
                   check=True, capture_output=True)


_MAKE_PLAYERS = r"""
import importlib, json, sys
import bootstrap
import django
django.setup()
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
count = int(sys.argv[1])
User = get_user_model()
store = importlib.import_module(settings.SESSION_ENGINE).SessionStore
backend = settings.AUTHENTICATION_BACKENDS[0]
users = User.objects.bulk_create(
    [User(username=f"load{i}", email=f"load{i}@example.com") for i in range(count)]
)
users = list(User.objects.filter(username__startswith="load").order_by("id"))
out = []
for user in users:
    s = store()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = backend
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    out.append(s.session_key)
# Players who have played before: a first game gives each call 10 s (CP-SS-4), and
# the tables sit idle through the anchor's 9 s ramp turns, so the clock would play
# calls for them then, while the anchor is measured. A past match each, recorded the
# way a real one is (teams of seats 0 and 2 against 1 and 3), gives them 20 s.
from accounts.services import record_result
for i in range(0, len(users) - 3, 4):
    record_result("rung", [[users[i], users[i + 2]], [users[i + 1], users[i + 3]]], 0)
print(json.dumps(out))
"""


def prepare(env: dict[str, str], players: int, where: Checkout = HERE) -> list[str]:
    py = where.python
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v0"], cwd=where.root, env=env,
                   check=True)
    done = subprocess.run([py, "-c", _MAKE_PLAYERS, str(players)], cwd=where.root, env=env,
                          check=True, capture_output=True, text=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


@contextlib.contextmanager
def run_daphne(  # type: ignore[no-untyped-def]
    app: str, env: dict[str, str], log: Path, where: Checkout = HERE
):
    port = _free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [where.daphne, "-b", "127.0.0.1", "-p", str(port), "--websocket_timeout", "-1",
             app],
            cwd=where.root, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", port), timeout=0.2
                ):
                    break
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne exited: see {log}")
                time.sleep(0.1)
            yield port, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def profile(pid: int, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """py-spy (pip install py-spy) sampling the tables' server for the nominal turns
    (the anchor's turns between them show as the loop waiting)."""
    spy = str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit(f"--profile needs py-spy next to {sys.executable}: pip install py-spy")
    form = "raw" if args.profile.endswith(".txt") else "flamegraph"
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--duration",
         str(int(2 * (args.seconds + math.ceil(args.seconds / args.window) * args.settle))),
         "--format", form, "--output", args.profile, "--nonblocking", "--threads"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


# ---------------------------------------------------------------------------- CPU
def cpu_seconds(pid: int | None) -> float:
    """The server process's CPU time so far (user + system, every thread)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_seconds() -> tuple[float, float]:
    """CPU time every process of this machine has used so far (all but idle and I/O
    wait, over every core: the server, its database and Redis, the clients, anything
    else), and the time the hypervisor gave this virtual machine's cores to others
    (steal): what the neighbours took, which moves latency without showing in the
    first figure."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = (
        int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick
