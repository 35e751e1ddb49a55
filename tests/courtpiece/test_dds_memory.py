"""DDS's search memory stays bounded in a server process (issue 26): the analysis of a
finished hand (game.courtpiece.doubledummy) solves its positions with DDS, whose large
transposition table, as endplay sets it up, keeps what it grew to for the life of the
process (62 MiB after six hands, 88-92 MiB after 200-300). With
``TABLES_DDS_MEMORY`` at its default, ``small``, DDS frees its table after each solve.

Each case runs in a process of its own (DDS is sized once per process) and reads what
glibc's allocator holds for the program (``mallinfo2``: bytes in use, in its arenas and in
mapped chunks), not the resident memory: the table is the only large allocation the
analyses keep, so the figure says whether DDS kept it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANDS = 6

_SCRIPT = r"""
import ctypes, json, random, sys
from game.courtpiece import doubledummy
from game.engine import courtpiece as cp
from tests.bots.helpers import play_hand, random_legal

class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info

def held():
    info = libc.mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20

rng = random.Random(1)
hands, n = [], 0
while len(hands) < int(sys.argv[1]):
    n += 1
    hand, _ = play_hand(cp.Rules("rung"), f"dds-memory-{n}", [random_legal(rng)] * 4, dealer=n % 4)
    if hand.trump and doubledummy.plays(hand):
        hands.append(hand)
before = held()
for hand in hands:
    doubledummy.analyse(hand)
print(json.dumps({"sized": doubledummy.size_memory(), "held_mib": held() - before}))
"""


def analyse_in_a_process(setting: str | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "TABLES_DDS_MEMORY"}
    if setting is not None:
        env["TABLES_DDS_MEMORY"] = setting
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(HANDS)], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True, timeout=300,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallinfo2")
def test_the_analyses_leave_dds_memory_bounded_by_default() -> None:
    found = analyse_in_a_process(None)
    assert found["sized"] == "small"
    assert float(found["held_mib"]) < 16, found  # measured: 7 MiB less than before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallinfo2")
def test_the_large_setting_keeps_ddss_table_as_before() -> None:
    """The trade-off the setting offers (and proof the measure above can fail): DDS's
    large table stays allocated after the analyses."""
    found = analyse_in_a_process("large")
    assert found["sized"] == "large"
    assert float(found["held_mib"]) > 32, found  # measured: 62 MiB after six hands


def test_an_unknown_setting_is_the_small_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.courtpiece import doubledummy

    for value, expected in (("LARGE", "large"), (" small ", "small"), ("huge", "small")):
        monkeypatch.setenv("TABLES_DDS_MEMORY", value)
        assert doubledummy.dds_memory() == expected
