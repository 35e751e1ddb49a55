"""A real site for the browser tests of the live tables: one daphne process (HTTP,
WebSocket and its clock) on a throw-away SQLite database, and the page's console errors."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = (
    "import bootstrap; bootstrap.ensure_baithak_importable(); "
    "from daphne.cli import CommandLineInterface; CommandLineInterface.entrypoint()"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Site:
    """One daphne process (HTTP + WebSocket + its clock) on its own database."""

    def __init__(self, tmp: Path) -> None:
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        self.env.update(
            DATABASE_URL=f"sqlite:///{tmp / 'tables.sqlite3'}",
            REDIS_URL="",
            TABLES_BOT_PAUSE="0.05,0.1",  # bots move at once: the test plays, not waits
            TABLES_TRICK_PAUSE="0.1",
            TABLES_HAND_PAUSE="0.1",
            PYTHONPATH=str(ROOT),
        )
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "daphne.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str, code: str | None = None) -> dict[str, Any]:
        cmd = [sys.executable, "manage.py", *args] + (["-c", code] if code else [])
        done = subprocess.run(
            cmd, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-3000:]
        for line in done.stdout.splitlines():
            if line.startswith("RESULT:"):
                return dict(json.loads(line[len("RESULT:") :]))
        return {}

    def start(self) -> None:
        self.manage("migrate", "--noinput")
        log = open(self.log, "ab")  # noqa: SIM115 - lives as long as the process
        self.proc = subprocess.Popen(
            [sys.executable, "-c", DAPHNE, "--websocket_timeout", "-1", "-b", "127.0.0.1",
             "-p", str(self.port), "baithak.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "daphne did not come up"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


# The guide's sections off screen are laid out only when scrolled near (content-visibility:
# auto), and a full-page capture or a measure of the page does not count as near. Set
# through the CSSOM: the pages' Content-Security-Policy refuses an added <style> element
# (Playwright's add_style_tag), not a script's change to an element's style.
SHOW_EVERY_SECTION = (
    "() => document.querySelectorAll('.guide > section')"
    ".forEach(s => { s.style.contentVisibility = 'visible'; })"
)


def show_every_section(page: Any) -> None:
    page.evaluate(SHOW_EVERY_SECTION)


def fits_the_screen(page: Any) -> None:
    """Nothing wider than the screen (a page that scrolls sideways is broken on a phone)."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{page.url} is {wide} px wider than the screen"
