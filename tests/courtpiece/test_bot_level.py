"""The bots' level at a Court Piece table (issue 28): the table option ``bot_level`` from
the form, the API and Play now (asked, else remembered), checked, stored, shown in three
languages and played at; a hard bot thinking in the worker processes, so the server's
event loop keeps answering while it thinks."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from game.bots import courtpiece as cpbot
from game.courtpiece import levels, thinking
from game.courtpiece.views import options_text
from game.engine import courtpiece as cp
from game.models import Action, Table
from game.tables import lifecycle, moves, presence, registry
from game.tables.store import replay
from game.tables.transport import clock
from tests.tables.live import owner, run, session_cookie, socket

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_workers_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # A loaded machine (the tests run beside others) must not turn a slow hard decision
    # into the fallback move these tests would take for a wrong one.
    monkeypatch.setattr(thinking.POOL, "timeout", 300.0)
    yield
    thinking.shutdown()


def _api(user: Any) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.get("/en/accounts/login/")
    client.force_login(user)
    client.get("/en/accounts/login/")
    return client, client.cookies["csrftoken"].value


def _post(client: Client, token: str, url: str, body: Any) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json",
                       headers={"X-CSRFToken": token})


def _table_of(response: Any) -> Table:
    match = re.search(r"/play/(\d+)/", response["Location"])
    assert match, response["Location"]
    return Table.objects.get(pk=int(match.group(1)))


# ---------------------------------------------------------------------------- the option
def test_the_levels_are_the_bots_own_and_medium_is_the_default() -> None:
    assert levels.BOT_LEVELS == cpbot.LEVELS == ("easy", "medium", "hard")
    assert levels.bot_level({}) == "medium"  # tables made before the option
    assert levels.bot_level({"bot_level": "hard"}) == "hard"
    for bad in ("expert", "", 2, None, "Hard"):
        with pytest.raises(ValueError, match="option bot_level"):
            levels.bot_level({"bot_level": bad})
    # The engine never sees the table's own option.
    assert levels.engine_options({"court": "first7", "bot_level": "hard"}) == {"court": "first7"}


def test_the_api_stores_the_level_and_refuses_a_bad_one_creating_nothing(
    users: list[Any],
) -> None:
    client, token = _api(users[0])
    made = _post(client, token, "/api/tables", {
        "game": "courtpiece", "variant": "hukum", "options": {"bot_level": "easy"},
        "bots": [1, 2, 3],
    })
    assert made.status_code == 201, made.json()
    got = client.get(f"/api/tables/{made.json()['id']}").json()
    assert got["options"] == {"bot_level": "easy"}
    assert replay.load(Table.objects.get(pk=got["id"])).hand.rules.variant == "hukum"
    for bad in ("expert", 3, None):
        answer = _post(client, token, "/api/tables", {
            "game": "courtpiece", "options": {"bot_level": bad}, "bots": [1, 2, 3],
        })
        assert answer.status_code == 400
        assert answer.json()["code"] == "bad_request"
        assert "option bot_level" in answer.json()["error"]
    assert Table.objects.count() == 1


def test_the_tables_bots_play_at_its_level(users: list[Any]) -> None:
    """The bot's action for a seat is the level's own choice for that seat's view, and
    the level matters: somewhere in a hand easy and medium choose differently."""
    spec = registry.spec("courtpiece")
    match = cp.Match(cp.Rules("rung"), seed="levels-at-the-table")
    differ = 0
    while not match.is_over and len(match.history) < 60:
        seat = match.to_move
        view = match.view(seat)
        easy = spec.bot_action(match, seat, {"bot_level": "easy"})
        medium = spec.bot_action(match, seat, {"bot_level": "medium"})
        assert easy == cpbot.choose(view, "easy") and medium == cpbot.choose(view, "medium")
        assert spec.bot_action(match, seat, {}) == medium  # no level: medium
        differ += easy != medium
        match = match.apply(medium, seat=seat)
    assert differ


def test_a_hard_table_plays_the_hard_bots_choice_through_the_clock(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock
    table = lifecycle.play_now(owner=owner(users[0]), options={"bot_level": "hard"})
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(5)
    fired = 0
    while fired < 4:
        table.refresh_from_db()
        before, version = replay.load(table), table.version
        if table.deadline_kind != Table.BOT:  # the player's turn: a random legal action
            moves.apply_action(table_id=table.pk, owner=owner(users[0]),
                               action=rng.choice(before.legal_actions()),
                               expected_version=version)
            continue
        run(clock.fire_round)
        row = Action.objects.get(table=table, number=version + 1)
        assert row.source == Action.BOT
        assert row.action == cpbot.choose(before.view(before.to_move), "hard")
        fired += 1
    assert thinking.POOL.started()  # hard thought in the worker processes


def test_a_dead_worker_costs_one_move_played_at_medium(users: list[Any]) -> None:
    match = cp.Match(cp.Rules("rung"), seed="crash")
    view = match.view(match.to_move)
    with pytest.raises(thinking.Unavailable):
        thinking.POOL.call(os.abort)  # the worker dies as a crash in DDS would kill it
    assert thinking.choose(view, "hard") == cpbot.choose(view, "hard")  # a fresh pool


# ---------------------------------------------------------------------------- the pages
def test_the_form_offers_the_levels_and_stores_the_chosen_one(client: Client) -> None:
    page = client.get("/en/play/new/").content.decode()
    assert 'name="bot_level"' in page
    for level in ("easy", "medium", "hard"):
        assert f'value="{level}"' in page
    bad = client.post("/en/play/new/", {"variant": "rung", "bot_level": "expert",
                                       "private": "on", "bots": ["1", "2", "3"]})
    assert bad.status_code == 200 and not Table.objects.exists()
    ok = client.post("/en/play/new/", {"variant": "rung", "bot_level": "hard",
                                      "private": "on", "bots": ["1", "2", "3"]})
    assert ok.status_code == 302
    table = _table_of(ok)
    assert table.options["bot_level"] == "hard"
    # The next form starts at the level chosen last.
    again = client.get("/en/play/new/").content.decode()
    assert re.search(r'<option value="hard" selected>', again)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Bots: Hard"), ("ur", "بوٹ: مشکل"), ("hi", "बॉट: मुश्किल")]
)
def test_the_table_and_the_lobby_say_the_level(client: Client, lang: str, words: str) -> None:
    made = client.post(f"/{lang}/play/now/", {"bot_level": "hard"})
    table = _table_of(made)
    page = client.get(f"/{lang}/play/{table.pk}/").content.decode()
    assert 'data-testid="bot-level"' in page and words in page
    with translation.override(lang):
        assert words in options_text("rung", {"bot_level": "hard"})
        assert options_text("rung", {})[-1] == options_text("rung", {"bot_level": "medium"})[-1]


def test_play_now_asks_then_remembers_the_level_for_a_guest(client: Client) -> None:
    first = _table_of(client.post("/en/play/now/"))
    assert levels.bot_level(first.options) == "medium"  # nothing chosen yet: the default
    asked = _table_of(client.post("/en/play/now/", {"new": "1", "bot_level": "easy"}))
    assert asked.options["bot_level"] == "easy"
    # the home page's button, no level (a new table: past "Continue your game")
    again = _table_of(client.post("/en/play/now/", {"new": "1"}))
    assert again.options["bot_level"] == "easy"
    lobby = client.get("/en/play/").content.decode()
    assert re.search(r'<option value="easy" selected>', lobby)
    bad = client.post("/en/play/now/", {"new": "1", "bot_level": "grandmaster"})
    assert bad.status_code == 400
    assert Table.objects.count() == 3


def test_an_account_remembers_the_level_in_a_new_session(make_user: Any) -> None:
    user = make_user("rubina")
    first = Client()
    first.force_login(user)
    _table_of(first.post("/en/play/now/", {"bot_level": "hard"}))
    other = Client()  # another browser: a new session
    other.force_login(user)
    table = _table_of(other.post("/en/play/now/", {"new": "1"}))
    assert table.options["bot_level"] == "hard"


# ---------------------------------------------------------------------------- the loop
def test_the_event_loop_answers_pings_while_hard_bots_think(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six Play-now tables whose next move is a hard bot's card from the third trick on
    (where it searches: deals sampled, each solved by DDS; earlier it plays medium's
    card). The
    clock's round runs on the loop; meanwhile a player's socket pings, and pings are
    answered while the bots think, so the loop was never blocked by their thinking."""
    monkeypatch.setenv("TABLES_CLOCK", "off")  # this test is the clock
    rng = random.Random(28)
    tables = [
        lifecycle.play_now(owner=owner(users[0]), options={"bot_level": "hard"})
        for _ in range(6)
    ]
    for table in tables:
        presence.seat_connected(table_id=table.pk, seat=0)
        while True:  # two tricks played, then a bot to play a card
            table.refresh_from_db()
            state = replay.load(table)
            legal = state.legal_actions()
            if (
                table.deadline_kind == Table.BOT
                and state.hand.trick_count >= 2
                and all(a.startswith("play:") for a in legal)
            ):
                break
            if table.deadline_kind == Table.BOT:
                run(clock.fire_round)
            else:
                moves.apply_action(table_id=table.pk, owner=owner(users[0]),
                                   action=rng.choice(legal), expected_version=table.version)
    versions = {t.pk: t.version for t in tables}
    match = cp.Match(cp.Rules("rung"), seed="warm")
    thinking.choose(match.view(match.to_move), "hard")  # the workers are up before
    thinking_now = [0]  # hard decisions in the workers right now (the real ones, watched)
    real_call = thinking.POOL.call

    def watched(fn: Any, *args: Any) -> Any:
        thinking_now[0] += 1
        try:
            return real_call(fn, *args)
        finally:
            thinking_now[0] -= 1

    monkeypatch.setattr(thinking.POOL, "call", watched)
    cookie = session_cookie(users[0])

    async def body() -> int:
        comm = socket(tables[0].pk, cookie)
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=10)  # its first frame
        round_ = asyncio.ensure_future(clock.fire_round())
        answered = 0
        while not round_.done():
            await comm.send_to(text_data=json.dumps({"type": "ping"}))
            while True:
                frame = json.loads(await comm.receive_from(timeout=10))
                if frame.get("type") == "pong":
                    break
            if thinking_now[0]:
                answered += 1  # answered while a hard bot was thinking
            await asyncio.sleep(0.11)  # within the socket's rate limit (10 frames a second)
        await round_
        await comm.disconnect()
        return answered

    answered = run(body)
    moved = [t.pk for t in tables if Table.objects.get(pk=t.pk).version > versions[t.pk]]
    assert moved == [t.pk for t in tables]  # every hard bot moved in that round
    # Were a bot to think on the loop, no pong could come while it thinks.
    assert answered >= 1
