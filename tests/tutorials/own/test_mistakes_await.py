"""The mistakes pages wait for a hand's analysis without parking a thread (issue 29):
while another process holds the claim and computes it, the async view awaits the stored
row on the event loop (analysis.await_stored), never the blocking wait_stored, and its
sync part only reads the row."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client

from game.models import HandAnalysis
from game.tables import analysis
from tests.tables.live import owner
from tests.tutorials.own.play import finished_badly

pytestmark = pytest.mark.django_db(transaction=True)


def _no_blocking_wait(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("a request thread slept in wait_stored")


def test_a_claimed_analysis_is_awaited_then_read(users: list[Any], monkeypatch: Any) -> None:
    me = owner(users[0])
    table = finished_badly(me)
    pending = analysis.look_up(table.pk, 1, me, "", knowable=True)
    assert isinstance(pending, analysis.Pending)
    assert analysis.claim(pending)  # "another process" computes it
    data = analysis.compute(pending)
    monkeypatch.setattr(analysis, "wait_stored", _no_blocking_wait)
    later = threading.Timer(0.3, analysis.store, args=(pending, data))
    later.start()
    client = Client()
    client.force_login(users[0])
    try:
        page = client.get(f"/en/learn/mine/{table.pk}/1/")
    finally:
        later.join()
    assert page.status_code == 200
    assert f"/en/learn/mine/{table.pk}/1/1/" in page.text  # its puzzles, from that row
    row = HandAnalysis.objects.get(table=table, hand=1, part="knowable:0")
    assert row.data == data  # the other process's row: the view did not compute its own


def test_a_claim_never_stored_answers_unavailable(users: list[Any], monkeypatch: Any) -> None:
    me = owner(users[0])
    table = finished_badly(me)
    pending = analysis.look_up(table.pk, 1, me, "", knowable=True)
    assert isinstance(pending, analysis.Pending)
    assert analysis.claim(pending)
    monkeypatch.setattr(analysis, "wait_stored", _no_blocking_wait)
    client = Client()
    client.force_login(users[0])
    page = client.get(f"/en/learn/mine/{table.pk}/1/")
    assert page.status_code == 503
    assert analysis.is_claim(HandAnalysis.objects.get(table=table, hand=1, part="knowable:0").data)
