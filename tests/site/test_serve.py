"""`make run`'s server (scripts/serve.py): the address to open is the last thing printed,
once daphne really listens; the page answers there; SIGTERM stops daphne with it; a daphne
that stops before it listens is reported with its exit code.

Real processes on a free port and a temporary SQLite database (migrated first), the way
`make run` starts them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "scripts" / "serve.py"
RUNNING = "Baithak is running: open http://127.0.0.1:{port}/ (Ctrl-C stops it)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def plain_env(tmp_path: Path) -> dict[str, str]:
    """The environment `make run` gives the server, on a temporary database (pytest's own
    Django settings left out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    return env


@pytest.fixture
def env(plain_env: dict[str, str]) -> dict[str, str]:
    """As `make run` has it: the database migrated first."""
    env = plain_env
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert migrate.returncode == 0, migrate.stderr[-2000:]
    return env


class Served:
    """scripts/serve.py running, its output (stdout and stderr in the order written) read
    line by line as it comes, each line with whether the port accepted a connection right
    when it was read."""

    def __init__(self, env: dict[str, str], port: int) -> None:
        self.port = port
        self.lines: list[tuple[bool, str]] = []
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVE), "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append((_accepts(self.port), line.rstrip("\n")))

    def wait_for(self, text: str, timeout: float = 60) -> bool:
        """Whether the port accepted when `text` was printed as a whole line; fails if it
        never is."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            exited = self.proc.poll() is not None
            if exited:
                self.reader.join(timeout=5)  # everything written is read then
            for accepted, line in self.lines:
                if line == text:
                    return accepted
            if exited:
                break
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never printed:\n" + self.output())

    def output(self) -> str:
        return "\n".join(line for _, line in self.lines)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture
def served(env: dict[str, str]) -> Iterator[Served]:
    server = Served(env, _free_port())
    yield server
    server.stop()


def test_make_run_prints_the_address_last_once_the_port_accepts(served: Served) -> None:
    running = RUNNING.format(port=served.port)
    # The port already accepted connections when the line came (daphne takes about a
    # second to start: an address printed first is read long before that).
    assert served.wait_for(running)
    # It comes after every line daphne writes on starting, and only once.
    text = served.output()
    assert text.index("Listening on TCP address") < text.index(running)
    assert text.count("Baithak is running") == 1
    with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/en/", timeout=30) as page:
        assert page.status == 200
        assert '<html lang="en"' in page.read().decode()
    # SIGTERM is passed on: daphne stops, and so does the script, with daphne's code.
    assert served.stop() == 0
    assert not _accepts(served.port)


def test_a_daphne_that_stops_before_listening_is_reported(plain_env: dict[str, str]) -> None:
    env = plain_env
    env["DJANGO_SETTINGS_MODULE"] = "baithak.no_such_settings"  # the app cannot load
    server = Served(env, _free_port())
    code = server.proc.wait(timeout=60)
    server.wait_for("daphne stopped before it was listening (exit code 1).")
    assert code == 1
    assert "Baithak is running" not in server.output()


def test_a_port_already_in_use_is_refused_before_starting(plain_env: dict[str, str]) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        server = Served(plain_env, port)
        assert server.proc.wait(timeout=30) == 1
        server.wait_for(f"Something already listens on 127.0.0.1:{port}; stop it or pick "
                        "another PORT (make run PORT=8001).")  # fmt: skip


def test_make_run_serves_through_the_script() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nrun: ", 1)[1].split("\n\n", 1)[0]
    assert "$(PY) scripts/serve.py --host $(HOST) --port $(PORT)" in recipe
    assert "echo" not in recipe and "bin/daphne" not in recipe  # no address before it listens
