"""Backgammon through the one live-table machinery (issue #10), through the whole ASGI
application: money games and a match between two signed-in players, a game against the
GNU Backgammon bot fired by the clock, refused frames, the dice recomputed from the
revealed seeds, the API and its bad input. Every frame is compared with the engine's view
for its seat and scanned for seeds not yet revealed and for dice not yet thrown."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.backgammon import bot as bgbot
from game.backgammon import matfile
from game.backgammon import spec as bgtable
from game.engine import backgammon as bg
from game.engine import fair
from game.models import Action, Seat, Table
from game.tables import access, due, lifecycle, moves, presence
from game.tables.errors import TableError
from game.tables.store import replay
from tests.tables.live import (
    Pace,
    guest_session,
    owner,
    refused,
    run,
    session_cookie,
    settle,
    socket,
    strings_in,
    until_version,
)

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _bot_pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


async def _states_to(comm: Any, version: int) -> list[dict[str, Any]]:
    """``until_version``, but an error frame on the way fails the test at once."""
    got = await until_version(comm, version)
    errors = [f for f in got if f.get("type") == "error"]
    assert not errors, errors
    return got


def _game_of(s: Any) -> bg.Game:
    return s.game if isinstance(s, bg.Match) else s


def _done(s: Any) -> int:
    """Games finished so far (each one's server seed is then revealed)."""
    return len(s.games) if isinstance(s, bg.Match) else int(s.is_over)


class BgReference:
    """The test's own replay of a backgammon table's log."""

    def __init__(self, table: Table) -> None:
        self.table = Table.objects.get(pk=table.pk)
        self.states = [replay.initial(self.table)]
        self.chain = fair.chain(self.table.seed_top, self.table.chain_length)

    def at(self, version: int) -> Any:
        while len(self.states) <= version:
            row = Action.objects.get(table=self.table, number=len(self.states))
            self.states.append(self.states[-1].apply(row.action, row.seat))
        return self.states[version]

    def check_frame(self, frame: dict[str, Any], seat: int | None) -> None:
        assert frame["type"] == "state" and frame["seat"] == seat
        s = self.at(frame["version"])
        assert frame["view"] == s.view(seat)
        assert frame["to_move"] == s.to_move
        legal = s.legal_actions() if seat is not None and seat == s.to_move else []
        assert frame["legal"] == legal
        # No seed not yet revealed, anywhere in the frame.
        unrevealed = {self.table.seed_top, *self.chain[_done(s):]}
        assert not strings_in(frame) & unrevealed
        # Exactly the dice already thrown (none still to come), and they are the fair ones.
        game = _game_of(s)
        view = frame["view"]
        shown = [*view["opening"], *(d for _s, d in view["rolls"][1:])]
        seed = self.chain[len(s.games) if isinstance(s, bg.Match) else 0]
        if isinstance(s, bg.Match) and s.is_over:
            seed = self.chain[len(s.games) - 1]
        thrown = range(game.throws_used)
        assert shown == [list(fair.dice(seed, self.table.client_seeds, n)) for n in thrown]
        assert frame["table"]["length"] == (s.length if isinstance(s, bg.Match) else 0)


def _table(users: list[Any], **kwargs: Any) -> Table:
    kwargs.setdefault("move_seconds", 600)
    table = lifecycle.create_table(owner=owner(users[0]), game="backgammon", **kwargs)
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[1]), seat=1, invite=table.invite)
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    table.refresh_from_db()
    return table


Chooser = Any  # (state, legal, rng) -> action


def _random_play(s: Any, legal: list[str], rng: random.Random) -> str:
    """A random legal play that never resigns and leaves the cube alone."""
    options = [a for a in legal if not a.startswith("resign") and a not in ("double", "beaver")]
    options = [a for a in options if a != "drop"] or options
    return rng.choice(options)


def _play_sockets(
    table: Table, users: list[Any], choose: Chooser, rng: random.Random,
    on_state: Any = None,
) -> dict[str, Any]:
    """Two players and a spectator on sockets; play ``choose``'s actions to the end."""
    ref = BgReference(table)
    cookies = [session_cookie(u) for u in users[:2]]

    async def body() -> dict[str, Any]:
        check = database_sync_to_async(ref.check_frame)
        at = database_sync_to_async(ref.at)
        socks = [socket(table.pk, c) for c in cookies]
        spectator = socket(table.pk)
        for comm in [*socks, spectator]:
            assert (await comm.connect())[0]
        latest = []
        for seat, comm in enumerate(socks):
            got = await settle(comm)
            for frame in got:
                await check(frame, seat)
            latest.append(got[-1])
        for frame in await settle(spectator):
            await check(frame, None)
        frames = 0
        paces = [Pace(), Pace()]
        while True:
            version = latest[0]["version"]
            s = await at(version)
            if s.is_over:
                break
            if on_state is not None:
                await database_sync_to_async(on_state)(s, latest, socks)
            mover = s.to_move
            frame = latest[mover]
            assert frame["version"] == version and frame["legal"]
            action = choose(s, frame["legal"], rng)
            await paces[mover].wait()
            await socks[mover].send_json_to(
                {"type": "action", "action": action, "version": version}
            )
            for seat, comm in enumerate(socks):
                for got in await _states_to(comm, version + 1):
                    await check(got, seat)
                    frames += 1
                    latest[seat] = got
            for got in await _states_to(spectator, version + 1):
                await check(got, None)
        for comm in [*socks, spectator]:
            await comm.disconnect()
        return {"final": latest[0], "frames": frames, "version": latest[0]["version"]}

    return run(body)


def _doubling(then: str) -> Chooser:
    """Double at the first chance; the taker answers ``then``; afterwards random play."""
    doubled = {"done": False}

    def choose(s: Any, legal: list[str], rng: random.Random) -> str:
        if not doubled["done"] and "double" in legal:
            doubled["done"] = True
            return "double"
        if "take" in legal and then in legal:
            return then
        return _random_play(s, legal, rng)

    return choose


def _client(user: Any = None) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.get("/en/accounts/login/")
    if user is not None:
        client.force_login(user)
        client.get("/en/accounts/login/")
    return client, client.cookies["csrftoken"].value


def _post(client: Client, token: str, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json",
                       headers={"X-CSRFToken": token})


def _mat_matches(written: matfile.GameRecord, game: bg.Game) -> None:
    """The .mat game read back is the game played: the same rolls by the same seats, its
    moves replay legally through the engine to the same final position, the same result."""
    rolls = [(t.seat, tuple(sorted(t.dice or ()))) for t in written.turns if t.kind == "move"]
    assert rolls == [(seat, tuple(sorted(d))) for seat, d in game.rolls]
    assert matfile.positions(written)[-1][1] == game.pos.to_id()
    assert game.result is not None
    assert (written.winner, written.points) == (game.result.winner, game.result.points)


def _check_record(data: dict[str, Any], hand: int, commitment: str) -> None:
    """The record of game ``hand``: seeds hang from the commitment, dice recompute."""
    assert data["counter"] == hand - 1 and data["commitment"] == commitment
    seeds = [data["server_seed"]]
    # Game k's seed hashes to game k-1's: walking down reaches the commitment.
    for _ in range(hand - 1):
        seeds.insert(0, fair.commitment(seeds[0]))
    assert fair.verify_chain(commitment, seeds)
    assert data["dice"] == [
        list(fair.dice(data["server_seed"], data["client_seeds"], n))
        for n in range(len(data["dice"]))
    ]
    for n, (a, b) in enumerate(data["dice"]):
        assert f"throw {n}: {a}-{b}" in data["record"]


# ---------------------------------------------------------------------------- money games
def test_bg_11_a_money_game_with_a_double_and_a_take_is_played_to_its_end(
    users: list[Any],
) -> None:
    table = _table(users, options={"cube": True})
    result = _play_sockets(table, users, _doubling("take"), random.Random(11))
    table.refresh_from_db()
    assert table.status == Table.OVER and table.rated
    actions = list(Action.objects.filter(table=table).values_list("action", flat=True))
    assert "double" in actions and "take" in actions
    final = result["final"]["view"]
    assert final["phase"] == "over" and final["result"]["how"] == "bearoff"
    assert final["result"]["cube"] >= 2 and final["cube"]["owner"] is not None
    # The game is over: its seed is in the view at once, and the record recomputes it.
    assert final["fairness"]["server_seed"] == fair.chain(table.seed_top, table.chain_length)[0]
    client, _token = _client()
    data = client.get(f"/api/tables/{table.pk}/record?hand=1").json()
    _check_record(data, 1, table.commitment)
    assert data["dice"] == bgtable.throws(replay.load(table))
    # The .mat export parses back into the same game: every roll, the same positions.
    parsed = matfile.parse(data["mat"])
    assert parsed.length == 0 and len(parsed.games) == 1
    _mat_matches(parsed.games[0], replay.load(table))
    assert client.get(f"/api/tables/{table.pk}/record?hand=2").status_code == 404
    from accounts.models import GameStats

    stats = {r.user_id: r for r in GameStats.objects.filter(game="backgammon")}
    winner = users[final["result"]["winner"]]
    assert stats[winner.pk].won == 1 and all(r.played == 1 for r in stats.values())


def test_bg_11_a_money_game_ends_when_the_double_is_dropped(users: list[Any]) -> None:
    table = _table(users, options={"cube": True, "jacoby": True})
    result = _play_sockets(table, users, _doubling("drop"), random.Random(12))
    final = result["final"]["view"]
    assert final["result"]["how"] == "drop" and final["result"]["points"] == 1
    doubler = Action.objects.get(table=table, action="double").seat
    assert final["result"]["winner"] == doubler
    assert Action.objects.filter(table=table).last().action == "drop"


# ---------------------------------------------------------------------------- a match
def test_bg_11_a_match_to_3_with_the_crawford_game(users: list[Any]) -> None:
    """Every game but the Crawford one: double at once and drop (a point each time);
    the Crawford game is played out with random moves, and doubling is never offered in
    it, nor accepted when sent."""
    table = _table(users, length=3)
    seen = {"crawford_rolls": 0, "refused": 0}

    def choose(s: Any, legal: list[str], rng: random.Random) -> str:
        if s.game.crawford_game:
            assert "double" not in legal
            return _random_play(s, legal, rng)
        if "double" in legal:
            return "double"
        if "drop" in legal:
            return "drop"
        return _random_play(s, legal, rng)

    def on_state(s: Any, latest: list[dict[str, Any]], socks: list[Any]) -> None:
        if s.game.crawford_game and s.game.phase == "roll":
            seen["crawford_rolls"] += 1
            view = latest[s.to_move]["view"]
            assert view["crawford_game"] and "double" not in latest[s.to_move]["legal"]
            with pytest.raises(TableError) as refused:
                moves.apply_action(
                    table_id=table.pk, owner=owner(users[s.to_move]), action="double",
                    expected_version=latest[0]["version"],
                )
            assert refused.value.code == "illegal" and "Crawford" in refused.value.message
            seen["refused"] += 1

    result = _play_sockets(table, users, choose, random.Random(13), on_state)
    final = result["final"]["view"]["match"]
    assert final["is_over"] and max(final["scores"]) >= 3
    assert seen["crawford_rolls"] >= 1 and seen["refused"] == seen["crawford_rolls"]
    table.refresh_from_db()
    s = replay.load(table)
    crawford = [g for g in bgtable.finished(s) if g.crawford_game]
    assert len(crawford) == 1 and crawford[0].cube == 1
    assert "double" not in [a for _seat, a in crawford[0].history]
    # Every game's record: its own seed from the chain, the dice recomputed, and the .mat
    # of the match so far parses back game by game.
    client, _token = _client()
    games = bgtable.finished(s)
    assert len(games) == len(final["games"])
    for hand in range(1, len(games) + 1):
        data = client.get(f"/api/tables/{table.pk}/record?hand={hand}").json()
        _check_record(data, hand, table.commitment)
        parsed = matfile.parse(data["mat"])
        assert parsed.length == 3 and len(parsed.games) == hand
        assert parsed.games[-1].score == games[hand - 1].score
        for written, game in zip(parsed.games, games, strict=False):
            _mat_matches(written, game)
    assert client.get(f"/api/tables/{table.pk}/record?hand={len(games) + 1}").status_code == 404


# ---------------------------------------------------------------------------- the bot
@pytest.mark.slow  # a whole game against GNU Backgammon: minutes on a busy machine
def test_play_now_a_guest_plays_a_whole_money_game_against_gnubg(transactional_db: Any) -> None:
    """The bot's moves come through the running clock (its task fires the deadlines,
    the decisions run in gnubg's worker processes)."""
    key, cookie = guest_session()
    table = lifecycle.play_now(owner=access.Owner(user=None, guest_key=key), game="backgammon")
    assert table.status == Table.PLAYING and not table.rated and table.game == "backgammon"
    assert [s.bot for s in table.seats.order_by("number")] == [False, True]
    assert table.target == 0 and table.move_seconds is None and table.private
    ref = BgReference(table)
    rng = random.Random(21)

    async def body() -> dict[str, Any]:
        comm = socket(table.pk, cookie)
        assert (await comm.connect())[0]
        pace = Pace()
        while True:
            frame = await comm.receive_json_from(timeout=60)
            assert frame["type"] == "state", frame
            await database_sync_to_async(ref.check_frame)(frame, 0)
            if frame["view"]["phase"] == "over":
                await comm.disconnect()
                return frame
            if frame["legal"]:
                s = await database_sync_to_async(ref.at)(frame["version"])
                await pace.wait()
                await comm.send_json_to({
                    "type": "action", "action": _random_play(s, frame["legal"], rng),
                    "version": frame["version"],
                })

    final = run(body)
    rows = list(Action.objects.filter(table=table).order_by("number"))
    assert {r.source for r in rows} == {Action.PLAYER, Action.BOT}
    assert all((r.seat == 1) == (r.source == Action.BOT) for r in rows)
    assert final["view"]["fairness"]["server_seeds"]
    # The bot played gnubg's own choice each time (0-ply is deterministic).
    for r in [r for r in rows if r.source == Action.BOT][:30]:
        before = ref.at(r.number - 1)
        assert bgbot.decide(before.view(1), "intermediate").action == r.action


def test_the_bot_plays_through_services_fire_at_the_tables_level(users: list[Any]) -> None:
    table = lifecycle.create_table(
        owner=owner(users[0]), game="backgammon", bots=[1], options={"bot_level": "expert"},
    )
    assert table.status == Table.PLAYING
    presence.seat_connected(table_id=table.pk, seat=0)  # the clock runs only with someone there
    rng = random.Random(22)
    table.refresh_from_db()
    fired = 0
    while table.status == Table.PLAYING and fired < 15:
        s = replay.load(table)
        if s.to_move == 1:
            assert table.deadline_kind == Table.BOT
            assert due.fire(table.pk, table.version, Table.BOT)
            fired += 1
            row = Action.objects.get(table=table, number=table.version + 1)
            assert row.action == bgbot.decide(s.view(1), "medium").action
        else:
            moves.apply_action(table_id=table.pk, owner=owner(users[0]),
                                  action=_random_play(s, s.legal_actions(), rng),
                                  expected_version=table.version)
        table.refresh_from_db()
    assert fired


def test_the_move_timer_plays_the_bots_choice_for_a_player_who_lets_it_run_out(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock
    table = _table(users, move_seconds=1)
    for seat in (0, 1):
        presence.seat_connected(table_id=table.pk, seat=seat)
    table.refresh_from_db()
    assert (table.deadline_kind, table.deadline_version) == (Table.MOVE, 0)
    before = replay.load(table)
    assert not due.fire(table.pk, 0, Table.MOVE)  # not due yet
    time.sleep(1.05)
    assert due.fire(table.pk, 0, Table.MOVE)
    assert not due.fire(table.pk, 0, Table.MOVE)  # once only
    row = Action.objects.get(table=table, number=1)
    assert (row.seat, row.source) == (before.to_move, Action.CLOCK)
    assert row.action == bgbot.decide(before.view(before.to_move), "easy").action


def test_a_gnubg_failure_plays_the_fallback_and_is_logged(
    users: list[Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="backgammon", bots=[1])
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    s = replay.load(table)
    if s.to_move == 0:
        moves.apply_action(table_id=table.pk, owner=owner(users[0]),
                              action=_random_play(s, s.legal_actions(), random.Random(1)),
                              expected_version=0)
        table.refresh_from_db()
        s = replay.load(table)
    assert s.to_move == 1
    bgbot.shutdown()
    # A worker that cannot answer in time is a failed worker: no answer, no move from it.
    monkeypatch.setattr(bgbot, "START_TIMEOUT", 0.0)
    monkeypatch.setattr(bgbot, "TIMEOUT", 0.0)
    with caplog.at_level(logging.WARNING, logger="game.backgammon.spec"):
        assert due.fire(table.pk, table.version, Table.BOT)
    row = Action.objects.get(table=table, number=table.version + 1)
    assert row.action == bgbot.fallback(s.legal_actions()) and row.source == Action.BOT
    assert "fallback" in caplog.text


def test_the_server_process_never_imports_gnubg_nor_starts_the_pool_at_import() -> None:
    code = (
        "import os, sys; from bootstrap import ensure_baithak_importable; "
        "ensure_baithak_importable(); "
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'baithak.settings'); "
        "import django; django.setup(); import baithak.asgi; "
        "from game.backgammon import bot as bgbot; from game.tables import registry; "
        "assert registry.spec('backgammon').seats == 2; "
        "assert 'gnubg' not in sys.modules, 'gnubg imported'; "
        "assert not bgbot.pool_started(), 'pool started'; print('ok')"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr


# ---------------------------------------------------------------------------- refusals
def test_illegal_out_of_turn_stale_and_repeated_frames_are_refused(users: list[Any]) -> None:
    table = _table(users)
    ref = BgReference(table)
    cookies = [session_cookie(u) for u in users[:2]]

    async def body() -> None:
        socks = [socket(table.pk, c) for c in cookies]
        spectator = socket(table.pk)
        for comm in [*socks, spectator]:
            assert (await comm.connect())[0]
        for comm in [*socks, spectator]:
            await settle(comm)
        s = await database_sync_to_async(ref.at)(0)
        mover, other = s.to_move, 1 - s.to_move
        send = socks[mover]
        rest = [c for c in [*socks, spectator] if c is not send]
        legal = s.legal_actions()[0]

        def ok(action: Any, version: Any = 0) -> dict[str, Any]:
            return {"type": "action", "action": action, "version": version}

        for bad in ("not json", {"type": "dance"}, ok(5), ok(legal, "0"), ok(legal, True)):
            await refused(table, send, rest, bad, "malformed")
        for nonsense in ("move:24/1", "move:bar/3", "take", "roll:6", "double", "resign:4"):
            try:
                s.apply(nonsense, mover)
            except bg.IllegalMove as exc:
                reason = str(exc)
            answer = await refused(table, send, rest, ok(nonsense), "illegal")
            assert answer["message"] == reason
        others = [c for c in [*socks, spectator] if c is not socks[other]]
        await refused(table, socks[other], others, ok(legal), "not_your_turn")
        await refused(table, spectator, socks, ok(legal), "not_seated")
        await refused(table, send, rest, ok(legal, 3), "stale")
        await send.send_json_to(ok(legal, 0))
        for comm in [*socks, spectator]:
            got = await comm.receive_json_from(timeout=5)
            assert got["type"] == "state" and got["version"] == 1
        # The same frame again: the table has moved on, so it is stale and not applied.
        await refused(table, send, rest, ok(legal, 0), "stale")
        for comm in [*socks, spectator]:
            await comm.disconnect()

    run(body)


# ---------------------------------------------------------------------------- the API
def test_the_api_creates_a_backgammon_table_with_the_bot(users: list[Any]) -> None:
    client, token = _client(users[0])
    options = {"cube": True, "beaver": True, "auto_doubles": 1, "bot_level": "expert"}
    answer = _post(client, token, "/api/tables",
                   {"game": "backgammon", "options": options, "length": 0, "bots": [1]})
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert data["status"] == "playing" and data["game"] == "backgammon"
    assert [s["bot"] for s in data["seats"]] == [False, True]
    got = client.get(f"/api/tables/{data['id']}").json()
    assert got["options"] == options and got["length"] == 0 and got["variant"] == "backgammon"
    row = Table.objects.get(pk=data["id"])
    assert row.chain_length == bgtable.CHAIN_LENGTH
    assert row.commitment == fair.commitment(fair.chain(row.seed_top, row.chain_length)[0])
    game = replay.load(row)
    assert isinstance(game, bg.Game) and game.rules.beaver and game.rules.auto_doubles == 1
    assert game.view(0)["fairness"]["commitment"] == row.commitment
    match = _post(client, token, "/api/tables",
                  {"game": "backgammon", "length": 5, "private": True, "move_seconds": None})
    assert match.status_code == 201 and match.json()["status"] == "waiting"
    assert match.json()["length"] == 5 and match.json()["target"] == 5
    assert client.get(f"/api/tables/{data['id']}/record?hand=1").status_code == 404
    public = _post(client, token, "/api/tables", {"game": "backgammon", "length": 7})
    lobby = client.get("/api/tables?game=backgammon").json()["tables"]
    assert sorted((t["id"], t["length"], t["status"]) for t in lobby) == [
        (data["id"], 0, "playing"), (public.json()["id"], 7, "waiting")
    ]  # the private match table is not listed
    assert client.get("/api/tables?game=courtpiece").json()["tables"] == []
    # A guest may play the bot, not people.
    guest, gtoken = _client()
    assert _post(guest, gtoken, "/api/tables",
                 {"game": "backgammon", "bots": [1]}).status_code == 201
    refused = _post(guest, gtoken, "/api/tables", {"game": "backgammon"})
    assert refused.status_code == 403 and refused.json()["code"] == "needs_account"


def test_the_match_table_plays_a_bg_match_with_the_chain(users: list[Any]) -> None:
    table = _table(users, length=3)
    s = replay.load(table)
    assert isinstance(s, bg.Match) and s.length == 3
    assert s.view(0)["fairness"]["scheme"] == "chain"
    assert s.view(0)["fairness"]["commitment"] == table.commitment


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"options": {"colour": True}}, "unknown option 'colour'"),
        ({"options": {"cube": "yes"}}, "option cube"),
        ({"options": {"auto_doubles": 9}}, "option auto_doubles"),
        ({"options": {"start": "hypergammon"}}, "option start"),
        ({"options": {"bot_level": "grandmaster"}}, "option bot_level"),
        ({"options": {"cube": False, "jacoby": True}}, "need the cube"),
        ({"options": {"jacoby": True}, "length": 5}, "money games"),
        ({"options": {"start": "nackgammon"}, "length": 3}, "option start"),
        ({"length": 26}, "length"),
        ({"length": -1}, "length"),
        ({"length": "3"}, "length"),
        ({"length": True}, "length"),
        ({"target": 5}, "target is not an option"),
        ({"variant": "rung"}, "unknown variant"),
        ({"bots": [2]}, "bots"),
        ({"options": []}, "options must be an object"),
    ],
)
def test_bad_backgammon_input_is_400_and_creates_nothing(
    users: list[Any], body: dict[str, Any], words: str
) -> None:
    client, token = _client(users[0])
    answer = _post(client, token, "/api/tables", {"game": "backgammon", "bots": [1], **body})
    assert answer.status_code == 400, answer.json()
    assert words in answer.json()["error"]
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_courtpiece_still_refuses_a_length(users: list[Any]) -> None:
    client, token = _client(users[0])
    answer = _post(client, token, "/api/tables", {"length": 3, "bots": [1, 2, 3]})
    assert answer.status_code == 400 and "length" in answer.json()["error"]
