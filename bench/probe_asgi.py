"""The site's ASGI application with a memory probe, for ``bench/soak.py --probe``: where a
server process's resident memory goes while it plays (docs/PERFORMANCE.md, "The soak
benchmark").

Every ``SOAK_PROBE_SECONDS`` (10) a thread appends one JSON line to ``SOAK_PROBE_FILE``:

- ``rss_mib`` (``/proc``), and the split the kernel keeps (``smaps_rollup``: anonymous
  memory against the files mapped);
- glibc's view (``mallinfo2``): bytes in use by ``malloc``, free inside its arenas (held,
  not returned), and in ``mmap``'d chunks;
- Python's own: blocks allocated (``sys.getallocatedblocks``), objects the collector
  tracks and those frozen out of it (``gc.get_freeze_count``);
- the process's caches that grow with tables or hands: the replay cache's states and
  rows, the names cache, the presence map, the channel layer's groups and channels, the
  hands waiting for their analysis;
- ``hand_ends``: hands ended in this process so far (counted where the moves ask
  ``game.tables.ahead.ended_hand``).

With ``SOAK_TRACEMALLOC`` (frames, e.g. 1) tracemalloc runs from start-up and each line
also carries the Python heap it traces and the 15 source lines whose traced memory grew
most since the previous line (``tracemalloc`` snapshots diffed): growth of Python objects
shows there by line, growth outside Python (C libraries, the allocator's free memory) does
not.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import sys
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from types import CoroutineType, FrameType, FunctionType, GeneratorType
from typing import Any

import bootstrap

bootstrap.ensure_baithak_importable()

_FRAMES = int(os.environ.get("SOAK_TRACEMALLOC", "0") or 0)
if _FRAMES:
    tracemalloc.start(_FRAMES)

from baithak.asgi import application  # noqa: E402

__all__ = ["application"]

_hand_ends = 0


def _count_hand_ends() -> None:
    from game.tables import ahead

    ended_hand = ahead.ended_hand

    def counting(game: str, before: Any, after: Any) -> int | None:
        global _hand_ends
        found = ended_hand(game, before, after)
        if found is not None:
            _hand_ends += 1
        return found

    ahead.ended_hand = counting  # type: ignore[assignment]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost",
    )]


def _mallinfo() -> dict[str, float]:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return {}
    mib = 1024 * 1024
    return {
        "malloc_in_use_mib": round(info.uordblks / mib, 1),
        "malloc_free_held_mib": round(info.fordblks / mib, 1),
        "malloc_arenas_mib": round(info.arena / mib, 1),
        "malloc_mmap_mib": round(info.hblkhd / mib, 1),
    }


def _rollup() -> dict[str, float]:
    out: dict[str, float] = {}
    try:
        text = Path("/proc/self/smaps_rollup").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Anonymous", "Private_Dirty", "Shared_Clean", "Private_Clean"):
            out[f"{key.lower()}_mib"] = round(int(rest.split()[0]) / 1024, 1)
    return out


def _caches() -> dict[str, int]:
    from channels.layers import get_channel_layer

    from game.tables import ahead, names, presence
    from game.tables.store import replay

    out = {
        "replay_states": replay.cached_counts()["states"],
        "replay_finished": replay.cached_counts()["finished"],
        "replay_rows": replay.cached_counts()["rows"],
        "presence_sockets": presence.own_socket_count(),
        "analysis_queued": ahead.queued_count(),
    }
    out["names"] = len(names.CACHE.entries)
    out["names_shown_at"] = len(names.CACHE.shown_at)
    layer = get_channel_layer()
    for attr, key in (("groups", "layer_groups"), ("channels", "layer_channels")):
        held = getattr(layer, attr, None)
        if held is not None:
            out[key] = len(held)
    return out


def _rss() -> float:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return round(int(row.split()[1]) / 1024, 1)
    return 0.0


def _census(garbage: list[Any]) -> dict[str, Any]:
    """The garbage by type, and the frames and functions in it by where they are from
    (a frame in a cycle names the code that made it)."""
    types: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for obj in garbage:
        kind = type(obj)  # never getattr: a lazy object (Django's) would run its set-up
        types[f"{kind.__module__}.{kind.__qualname__}"] += 1
        found = None
        if kind is FrameType:  # type(), not isinstance: that asks for __class__
            found = obj.f_code
        elif kind is FunctionType:
            found = obj.__code__
        elif kind is CoroutineType:
            found = obj.cr_code
        elif kind is GeneratorType:
            found = obj.gi_code
        if found is not None:
            code[f"{kind.__name__} {found.co_filename}:{found.co_firstlineno} {found.co_name}"] += 1
        elif issubclass(kind, BaseException):
            code[f"exception {kind.__module__}.{kind.__qualname__}"] += 1
    return {"types": dict(types.most_common(40)), "code": dict(code.most_common(40))}


def _settle(path: Path) -> dict[str, Any]:
    """Asked for at the end of a run (the file ``<probe>.settle`` made), once the clients
    are gone: what a full collection finds (garbage in reference cycles, frozen out of the
    young passes), then what ``malloc_trim`` gives back to the system (free memory glibc
    held: the allocator's high-water mark, not objects alive)."""
    out: dict[str, Any] = {"settle": True, "rss_before_mib": _rss(),
                           "py_blocks_before": sys.getallocatedblocks(), **_mallinfo()}
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what it finds kept in gc.garbage, to be named
    try:
        out["collected"] = gc.collect()
        out["garbage"] = _census(gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    gc.collect()
    gc.freeze()
    out["rss_after_collect_mib"] = _rss()
    out["py_blocks_after_collect"] = sys.getallocatedblocks()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    out["rss_after_trim_mib"] = _rss()
    out.update({f"after_{k}": v for k, v in _mallinfo().items()})
    out.update(_rollup())
    return out


def _probe(path: Path, every: float) -> None:
    previous = tracemalloc.take_snapshot() if _FRAMES else None
    started = time.monotonic()
    settle = path.with_name(path.name + ".settle")
    while True:
        time.sleep(every)
        if settle.exists():
            settle.unlink()
            with path.open("a") as out:
                out.write(json.dumps(_settle(path)) + "\n")
            continue
        line: dict[str, Any] = {"seconds": round(time.monotonic() - started, 1)}
        line["rss_mib"] = _rss()
        line.update(_rollup())
        line.update(_mallinfo())
        line["py_blocks"] = sys.getallocatedblocks()
        line["gc_tracked"] = sum(gc.get_count())  # young counts; cheap
        line["gc_frozen"] = gc.get_freeze_count()
        line["hand_ends"] = _hand_ends
        try:
            line.update(_caches())
        except Exception as exc:  # a probe never stops the server
            line["caches_error"] = repr(exc)
        if previous is not None:
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            current, _peak = tracemalloc.get_traced_memory()
            line["traced_mib"] = round(current / 1024 / 1024, 1)
            line["traced_growth"] = [
                {"where": str(stat.traceback[0]), "kib": round(stat.size_diff / 1024, 1),
                 "count": stat.count_diff}
                for stat in snapshot.compare_to(previous, "lineno")[:15]
            ]
            previous = snapshot
        with path.open("a") as out:
            out.write(json.dumps(line) + "\n")


def _start() -> None:
    where = os.environ.get("SOAK_PROBE_FILE")
    if not where:
        return
    _count_hand_ends()
    every = float(os.environ.get("SOAK_PROBE_SECONDS", "10"))
    threading.Thread(target=_probe, args=(Path(where), every), name="soak-probe",
                     daemon=True).start()


_start()
