"""A second server process on one database with the in-memory channel layer is refused at
its start, saying to set REDIS_URL (issue #26: two ``make run`` on one SQLite file each
believed they were alone, and moves made through one never reached the other's players).

Real processes: daphne serving on a throw-away SQLite file, then a second daphne, then
``run_clock``, on the same file; a first process killed with SIGKILL does not keep the
next one out; with Redis two processes start side by side."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from game.models import ServerProcess
from game.tables import presence
from game.tables.transport import oneprocess
from tests.browser.site import DAPHNE, ROOT, Site

REDIS_URL = "redis://127.0.0.1:6379/14"


def _second(site: Site, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Another daphne on the first's database, on a port of its own."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return subprocess.Popen(
        [sys.executable, "-c", DAPHNE, "-b", "127.0.0.1", "-p", str(port),
         "baithak.asgi:application"],
        cwd=ROOT, env=env or site.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def _refused(proc: subprocess.Popen[str]) -> str:
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()  # it started and serves: no refusal (and no server left behind)
        out, _ = proc.communicate()
        raise AssertionError("the second daphne started beside the first: " + out[-2000:]) from None
    assert proc.returncode != 0, out[-2000:]
    return out


def _serving(site: Site) -> Site:
    site.start()
    # The first process has served a request, as a player's page would make it.
    assert site.proc is not None and site.proc.poll() is None
    return site


@pytest.fixture()
def first(tmp_path: Path) -> Any:
    site = Site(tmp_path)
    site.env["TABLES_PROCESS_CHECK"] = "on"
    yield _serving(site)
    site.stop()


def test_a_second_daphne_on_the_same_database_without_redis_refuses_to_start(
    first: Site,
) -> None:
    out = _refused(_second(first))
    assert "ImproperlyConfigured" in out
    assert "Set REDIS_URL" in out and "Another server process" in out
    # The first goes on serving.
    assert first.proc is not None and first.proc.poll() is None
    # run_clock beside it is refused too, with the same words and no traceback.
    clock = subprocess.run(
        [sys.executable, "manage.py", "run_clock"], cwd=ROOT, env=first.env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert clock.returncode != 0
    assert "Set REDIS_URL" in clock.stderr and "Traceback" not in clock.stderr


def test_a_killed_first_process_does_not_keep_the_next_out(first: Site) -> None:
    assert first.proc is not None
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=30)
    # Its heartbeat is still fresh, but its process is gone: a restart is welcome.
    second = _second(first)
    try:
        _wait_until_up(second)
    finally:
        second.terminate()
        second.wait(timeout=30)


def _port_of(proc: subprocess.Popen[str]) -> int:
    args = proc.args
    assert isinstance(args, list)
    return int(args[args.index("-p") + 1])


def _wait_until_up(proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.communicate()[0][-2000:]
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", _port_of(proc))) == 0:
                return
        assert time.monotonic() < deadline, "the second daphne did not come up"
        time.sleep(0.2)


def test_with_redis_two_processes_share_the_database(first: Site) -> None:
    """The refusal is about the layer, not about two processes: with REDIS_URL both run.
    The first's layer is in-memory here, but the second's check sees only its own."""
    if subprocess.run(["redis-cli", "-u", REDIS_URL, "ping"], capture_output=True,
                      text=True).stdout.strip() != "PONG":  # fmt: skip
        pytest.skip("no Redis on 127.0.0.1:6379 (the scale-out tests need it too)")
    second = _second(first, {**first.env, "REDIS_URL": REDIS_URL})
    try:
        _wait_until_up(second)
    finally:
        second.terminate()
        second.wait(timeout=30)


# --- which heartbeats count -------------------------------------------------------------
@pytest.mark.django_db
def test_only_fresh_heartbeats_of_processes_that_may_run_count() -> None:
    host = presence.PROCESS.rsplit("-", 2)[0]
    now = timezone.now()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    ServerProcess.objects.bulk_create([
        ServerProcess(name=f"{host}-{os.getpid()}-aaaa0000", seen_at=now),  # alive: pytest
        ServerProcess(name=f"{host}-{dead.pid}-bbbb1111", seen_at=now),  # gone
        ServerProcess(name="elsewhere-4242-cccc2222", seen_at=now),  # another machine
        ServerProcess(name="elsewhere-4343-dddd3333", seen_at=now - timedelta(minutes=5)),
        ServerProcess(name=presence.PROCESS, seen_at=now),  # this process itself
    ])  # fmt: skip
    names = sorted(name for name, _ago in oneprocess.others_alive())
    assert names == sorted([f"{host}-{os.getpid()}-aaaa0000", "elsewhere-4242-cccc2222"])


@pytest.mark.django_db
def test_the_check_refuses_only_with_the_in_memory_layer(monkeypatch: pytest.MonkeyPatch,
                                                settings: Any) -> None:
    monkeypatch.setenv("TABLES_PROCESS_CHECK", "on")
    ServerProcess.objects.create(name="elsewhere-4242-cccc2222", seen_at=timezone.now())
    with pytest.raises(Exception, match="Set REDIS_URL"):
        oneprocess.refuse_second_process()
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "game.tables.transport.layers.RedisChannelLayer"}}
    oneprocess.refuse_second_process()  # Redis: any number of processes
    monkeypatch.setenv("TABLES_PROCESS_CHECK", "off")
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "game.tables.transport.layers.InMemoryChannelLayer"}}
    oneprocess.refuse_second_process()  # the tests' own switch
