"""Serve the site with daphne and say where to open it once it really answers (`make run`).

Daphne writes its own start-up lines, so an address echoed before it starts scrolls away
under them. This starts the venv's daphne (the script next to this interpreter) with the
arguments `make run` always used, waits until the port accepts connections, and only then
prints the address: it is the last thing on screen.
Ctrl-C, SIGTERM and SIGHUP are passed on to daphne; when daphne stops, this exits with its
code. If daphne stops before it listens, that is said, with its exit code.

    python scripts/serve.py [--host 127.0.0.1] [--port 8000]
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
APPLICATION = "baithak.asgi:application"
POLL_SECONDS = 0.1
# The daphne script runs after bootstrap maps site/ to `baithak`, so the site also serves
# from a bare checkout (an install maps the name itself; then that is a no-op). Ctrl-C is
# made Python's own again first: a process started in the background of a script inherits
# SIGINT ignored, and Twisted then leaves it so, and daphne would not stop on it.
LAUNCH = (
    "import runpy, signal, sys, bootstrap; bootstrap.ensure_baithak_importable(); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


def daphne_script() -> Path:
    """The venv's own daphne: beside sys.executable (not resolved: a venv's python is a
    link to the system's, whose folder has no daphne)."""
    return Path(sys.executable).parent / "daphne"


def daphne_command(host: str, port: int) -> list[str]:
    return [
        sys.executable, "-c", LAUNCH, str(daphne_script()),
        "--websocket_timeout", "-1", "-b", host, "-p", str(port), APPLICATION,
    ]  # fmt: skip


def reachable_host(host: str) -> str:
    """Where to connect to (and what to open) for a bind address: the wildcard addresses
    listen on every interface, this machine's own among them."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)


def address(host: str, port: int) -> str:
    host = reachable_host(host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((reachable_host(host), port), timeout=1):
            return True
    except OSError:
        return False


def listening(daphne: subprocess.Popen[bytes], host: str, port: int) -> bool:
    """Wait until daphne's port accepts connections: True then, False if daphne stops
    first. A bare connection, no request: daphne logs every request it answers, and the
    address is to come after everything daphne prints on starting. Its "Listening on" line
    is written as the socket starts listening, so one more poll's wait keeps it before ours
    (and sees a daphne that stops at once)."""
    while daphne.poll() is None:
        if accepts(host, port):
            time.sleep(POLL_SECONDS)
            return daphne.poll() is None
        time.sleep(POLL_SECONDS)
    return False


def exit_code(returncode: int) -> int:
    """A shell's exit status for daphne's: killed by signal N is 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not daphne_script().is_file():
        print(f"No daphne beside {sys.executable}: install the project first (make install).")
        return 1
    if accepts(args.host, args.port):
        # Otherwise the other server's answers would be taken for daphne's.
        print(f"Something already listens on {args.host}:{args.port}; stop it or pick "
              "another PORT (make run PORT=8001).")  # fmt: skip
        return 1

    daphne = subprocess.Popen(daphne_command(args.host, args.port), cwd=ROOT)

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        # Ctrl-C reaches daphne from the terminal as well (same process group); a second
        # SIGINT is harmless to it, and a signal sent to this process alone still stops it.
        if daphne.poll() is None:
            daphne.send_signal(signum)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, pass_on)

    if not listening(daphne, args.host, args.port):
        code = exit_code(daphne.returncode)
        print(f"daphne stopped before it was listening (exit code {code}).")
        return code or 1
    print(f"Baithak is running: open {address(args.host, args.port)} (Ctrl-C stops it)",
          flush=True)  # fmt: skip
    return exit_code(daphne.wait())


if __name__ == "__main__":
    sys.exit(main())
