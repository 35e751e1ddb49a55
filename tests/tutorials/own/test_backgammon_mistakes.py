"""Learn from your mistakes in backgammon (issue 29; tutorials.mistakes): the asker's own
checker plays that lost more than 0.04 equity (GNU Backgammon at 2-ply) become puzzles on
the board and dice as they were; the best play solves, a play within 0.04 of it too, the
play made does not, an illegal play is refused by the engine (BG rules: each die moves a
checker forward onto a point not held by the opponent)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from game.backgammon import bot as bgbot
from game.engine import backgammon as bg
from game.models import HandAnalysis, Table
from game.tables import due, lifecycle, moves, presence, registry
from game.tables.store import replay
from tests.tables.live import owner
from tutorials import mistakes
from tutorials.models import MistakeProgress

pytest.importorskip("gnubg")
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _bot_pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


def _finished_game(user: Any) -> Table:
    """A money game against the bot, seat 0 playing at random (never doubling)."""
    table = lifecycle.create_table(owner=owner(user), game="backgammon", bots=[1])
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(7)
    for _step in range(600):
        table.refresh_from_db()
        s = replay.load(table)
        if registry.spec("backgammon").finished(s):
            return table
        if table.deadline_kind == Table.BOT:
            assert due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = [a for a in s.legal_actions() if not a.startswith("resign")]
        legal = [a for a in legal if a not in ("double", "beaver", "drop")] or legal
        moves.apply_action(table_id=table.pk, owner=owner(user), action=rng.choice(legal),
                           expected_version=table.version)
    raise AssertionError("the game did not end")


def test_backgammon_puzzles_are_the_askers_own_errors_and_the_best_play_solves(
    users: list[Any],
) -> None:
    table = _finished_game(users[0])
    found = mistakes.hand_mistakes(table, 1, owner(users[0]))
    data = HandAnalysis.objects.get(table=table, hand=1, part="").data
    errors = [m for m in data["moves"] if m["seat"] == 0 and m["equity_loss"] > 0.04]
    checker = [m for m in found if not m.is_cube]  # the cube's: test_backgammon_cube_mistakes
    assert checker and [m.judged for m in checker] == errors  # the bot's own are not there
    m = checker[0]
    view = m.view()
    assert [int(d) for d in view["dice"]] == m.judged["dice"]
    plays = mistakes.legal_plays(m)
    assert m.judged["played"] in plays and m.judged["best"] in plays
    assert mistakes.check(m, "25/1 25/1").state == "illegal"
    assert mistakes.check(m, m.judged["played"]).state == "worse"
    assert mistakes.check(m, m.judged["best"]).state == "right"
    # any other play: right exactly when GNU Backgammon at 2-ply puts it within 0.04
    others = [p for p in plays if p not in (m.judged["best"], m.judged["played"])][:3]
    for play in others:
        ids = [
            bg.apply(bg.Position.from_id(view["position_id"]), p, tuple(m.judged["dice"])).to_id()
            for p in (m.judged["best"], play)
        ]
        best, mine = (-e for e in bgbot.equities_at(ids, 2))
        assert mistakes.check(m, play).state == ("right" if best - mine <= 0.04 else "worse")
    # through the page, as the player: refused changes nothing, the best play solves
    client = Client()
    client.force_login(users[0])
    url = f"/en/learn/mine/{table.pk}/1/{m.number}/"
    page = client.get(url)
    assert page.status_code == 200 and m.judged["played"] in page.text
    assert client.post(url, {"answer": "25/1 25/1"}).status_code == 400
    assert not MistakeProgress.objects.exists()
    assert 'data-state="right"' in client.post(url, {"answer": m.judged["best"]}).text
    assert MistakeProgress.objects.get(user=users[0], key=m.key).solved
    other = Client()
    other.force_login(users[1])
    assert other.get(url).status_code == 404
