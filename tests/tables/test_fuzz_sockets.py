"""Property-based fuzzing of the table socket (issue 26), both formats: whatever frames a
spectator and a seated player who is not to move send, each is answered (an error, a pong,
an emote), the socket is never closed (no 1011), nothing is logged as an error, the table
does not change (version, log, seats), and the socket still answers ping afterwards.

Bounded and seeded: a fixed number of examples, derandomized, no example database."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.models import Seat
from game.tables.store import replay
from tests.tables.live import four_player_table, frames, run, session_cookie, snapshot, socket

pytestmark = pytest.mark.django_db(transaction=True)

# Hypothesis raises the recursion limit while an example runs; a server runs with Python's
# own, at which "[" * 1024 + "]" * 1024 was a RecursionError. The examples run at that one.
SERVER_RECURSION_LIMIT = sys.getrecursionlimit()

FUZZ = settings(
    max_examples=50, derandomize=True, database=None, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large],
)

# Anything JSON can say, nested a little or a lot.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
# Digits of every script, and numbers of every shape, as a form field or a program sends.
versions = st.one_of(
    st.sampled_from(["0", "²", "¹²", "٣", "１２", "-1", "1e3", " 1", "9" * 40]),
    st.text(alphabet="0123456789²³¹٣٤੩௫", min_size=1, max_size=12),
    st.integers(), st.integers(min_value=-3, max_value=3), st.floats(), st.booleans(), st.none(),
    st.text(alphabet=st.characters(categories=["Nd", "No"]), max_size=12),
    st.text(max_size=12), json_values,
)
actions = st.one_of(
    st.sampled_from(["play:QH", "bid:7H", "pass", "timeout", "claim", "redeal", "trump:H",
                     "play:\u202eQH", "play:\x00", ""]),
    st.text(max_size=80), json_values,
)
emotes = st.one_of(st.sampled_from(["well_played", "thanks", "oops", "hello"]),
                   st.text(max_size=80), json_values)
shaped = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(["action", "action", "action", "ping", "emote", "dance",
                                        ""]), json_values)},
    optional={"action": actions, "version": versions, "emote": emotes,
              "HEADERS": st.dictionaries(st.text(max_size=10), st.text(max_size=10), max_size=3),
              "pad": st.text(max_size=3000)},
).map(json.dumps)
depths = st.one_of(st.sampled_from([1, 2, 4, 100, 999, 1000, 1024]),
                   st.integers(min_value=1, max_value=3000))
nested = st.one_of(
    depths.map(lambda n: "[" * n + "]" * n),
    depths.map(lambda n: '{"type": "action", "version": ' + "[" * n + "]" * n + "}"),
    depths.map(lambda n: '{"a": ' * n + "1" + "}" * n),
)
texts = st.one_of(shaped, nested, json_values.map(json.dumps), st.text(max_size=300))
frames_in = st.lists(st.one_of(texts, texts, texts, st.binary(min_size=1, max_size=300)),
                     min_size=1, max_size=12)


def _table_state(table_id: int) -> tuple[Any, ...]:
    seats = list(Seat.objects.filter(table_id=table_id).order_by("number")
                 .values_list("user_id", "bot"))
    return (*snapshot(table_id), tuple(seats))


def _fuzz(users: list[Any], fmt: str, caplog: pytest.LogCaptureFixture) -> Any:
    table = four_player_table(users, variant="rung")
    mover = replay.load(table).to_move
    sitter = (mover + 1) % 4
    cookie = session_cookie(users[sitter])
    before = _table_state(table.pk)

    @FUZZ
    @given(player_frames=frames_in, watcher_frames=frames_in)
    def check(player_frames: list[Any], watcher_frames: list[Any]) -> None:
        async def body() -> None:
            player, watcher = socket(table.pk, cookie, fmt=fmt), socket(table.pk, fmt=fmt)
            for comm in (player, watcher):
                assert (await comm.connect())[0]
                await frames(comm, quiet=0.05)
            for comm, sent in ((player, player_frames), (watcher, watcher_frames)):
                for frame in sent:  # as the server hands them over (an empty one too)
                    kind = "bytes" if isinstance(frame, bytes) else "text"
                    await comm.send_input({"type": "websocket.receive", kind: frame})
                for _ in sent:  # an answer each (and emotes, seats' comings and goings)
                    answer = await comm.receive_output(timeout=10)
                    assert answer["type"] == "websocket.send", answer  # never a close
            for comm in (player, watcher):
                await comm.send_json_to({"type": "ping"})
                while True:  # emotes of the other socket may come first
                    got = await comm.receive_output(timeout=10)
                    assert got["type"] == "websocket.send", got
                    if got["text"] == '{"type": "pong"}':
                        break
                await comm.disconnect()

        raised = sys.getrecursionlimit()
        sys.setrecursionlimit(SERVER_RECURSION_LIMIT)
        try:
            run(body)
        finally:
            sys.setrecursionlimit(raised)
        assert _table_state(table.pk) == before

    with caplog.at_level(logging.WARNING):
        check()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert _table_state(table.pk) == before


def test_fuzzed_json_frames_change_nothing_and_never_close(
    users: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    _fuzz(users, "json", caplog)


def test_fuzzed_form_frames_change_nothing_and_never_close(
    users: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    _fuzz(users, "html", caplog)
