"""Learn from your mistakes, the cube (issue 29): the asker's own cube decisions that lost
more than 0.04 equity (GNU Backgammon's cubeful cube analysis at 2-ply) become "double or
not?" and "take or drop?" puzzles on the board as it was; the right action solves, the
one taken does not, anything else is no answer. BG-11: the cube."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from game.backgammon import analysis
from game.backgammon import bot as bgbot
from game.engine import backgammon as bg
from game.models import HandAnalysis, Table
from game.tables import due, lifecycle, moves, presence, registry
from game.tables.store import replay
from tests.backgammon.test_cube_analysis import DOUBLE_PASS
from tests.tables.live import owner
from tutorials import mistakes
from tutorials.models import MistakeProgress

pytest.importorskip("gnubg")


@pytest.fixture(autouse=True)
def _bot_pool() -> Iterator[None]:
    yield
    bgbot.shutdown()


def _puzzle(state: bg.Game, seat: int, action: str) -> mistakes.Mistake:
    view = state.view(0 if state.phase == "roll" else state.turn)
    asked = (f"{view['position_id']}:{view['match_id']}", False)
    found = [{"move": 0, "seat": seat, "action": action, "asked": asked}]
    judged = analysis.judge_cube(found)[0]
    return mistakes.Mistake(0, 1, 1, "backgammon", seat, judged, state)


def test_a_missed_double_and_a_wrong_take_are_puzzles_the_right_action_solves() -> None:
    before = bg.Game(position=DOUBLE_PASS, turn=0, dice=[(3, 1)] * 4)
    missed = _puzzle(before, 0, "no_double")
    assert missed.is_cube and missed.judged["best"] == "double"
    assert "double" in missed.view()["legal_actions"]  # the doubler's own view, before the roll
    assert mistakes.check(missed, "double").state == "right"
    assert mistakes.check(missed, "no_double").state == "worse"
    assert mistakes.check(missed, "take").state == "invalid"
    assert mistakes.check(missed, "").state == "invalid"
    why = mistakes.explanation(missed)
    assert "1.000" in why and "No double" in why  # the pass's equity, the action taken
    offered = before.apply("double")
    took = _puzzle(offered, 1, "take")
    assert took.judged["best"] == "pass"
    assert set(took.view()["legal_actions"]) >= {"take", "drop"}  # the taker's view
    assert mistakes.check(took, "pass").state == "right"
    assert mistakes.check(took, "take").state == "worse"
    assert mistakes.check(took, "double").state == "invalid"


def _finished_game(user: Any, seed: int) -> Table:
    """A money game against the bot, seat 0 moving its checkers as the bot would (so it
    gets ahead as often as not), but never doubling and taking every double: missed
    doubles and wrong takes, the cube mistakes."""
    table = lifecycle.create_table(owner=owner(user), game="backgammon", bots=[1])
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(seed)
    for _step in range(600):
        table.refresh_from_db()
        s = replay.load(table)
        if registry.spec("backgammon").finished(s):
            return table
        if table.deadline_kind == Table.BOT:
            assert due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = s.legal_actions()
        if any(a.startswith("move:") for a in legal):
            action = bgbot.decide(s.view(0), "intermediate").action
        else:
            action = "roll" if "roll" in legal else "take"
        if rng.random() < 0.1 and any(a.startswith("move:") for a in legal):
            action = rng.choice([a for a in legal if a.startswith("move:")])
        moves.apply_action(table_id=table.pk, owner=owner(user), action=action,
                           expected_version=table.version)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_the_askers_cube_mistakes_are_puzzles_on_the_page(users: list[Any]) -> None:
    for seed in (7, 8, 9, 10):
        table = _finished_game(users[0], seed)
        found = mistakes.hand_mistakes(table, 1, owner(users[0]))
        cube = [m for m in found if m.is_cube]
        if cube:
            break
    else:
        pytest.fail("the asker made no cube mistake in four games (never doubling, always taking)")
    data = HandAnalysis.objects.get(table=table, hand=1, part="").data
    mine = [c for c in data["cube"] if c["seat"] == 0 and c["equity_loss"] > mistakes.ERROR]
    assert [m.judged for m in cube] == mine
    # in the order made: a cube decision after move k before move k + 1
    order = [(m.judged["move"], m.is_cube) for m in found]
    assert order == sorted(order)
    m = cube[0]
    assert m.view()["legal_actions"]  # the asker's own turn to decide
    client = Client()
    client.force_login(users[0])
    url = f"/en/learn/mine/{table.pk}/1/{m.number}/"
    page = client.get(url)
    question = "Take or drop?" if m.judged["action"] in ("take", "pass") else "Double or not?"
    assert page.status_code == 200 and question in page.text
    assert client.post(url, {"answer": "25/1 25/1"}).status_code == 400
    assert client.post(url, {"answer": m.judged["action"]}).status_code == 200
    assert not MistakeProgress.objects.get(user=users[0], key=m.key).solved
    right = client.post(url, {"answer": m.judged["best"]})
    assert 'data-state="right"' in right.text and "GNU Backgammon" in right.text
    assert MistakeProgress.objects.get(user=users[0], key=m.key).solved
