"""Learn from your mistakes (issue 29; tutorials.mistakes): a finished hand's own mistakes
of the asker (knowable cost ≥ 1 trick, CP-RUNG-2's tricks) become puzzles seen from the
asker's seat; an answer is judged by the engine (legal: CP follow suit) and the analysis;
progress is kept for guests (session) and accounts; nobody sees another seat's cards."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from game.models import HandAnalysis
from game.tables import access, analysis, registry
from game.tables.store import replay
from tests.tables.live import owner
from tests.tutorials.own.play import finished_badly
from tutorials import mistakes
from tutorials.models import MistakeProgress

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _answers(m: mistakes.Mistake) -> dict[str, list[str]]:
    """The puzzle's cards sorted by what the rules and the analysis say of them."""
    view = m.view()
    legal = {a[5:] for a in view["legal_actions"] if a.startswith("play:")}
    out: dict[str, list[str]] = {"better": [], "worse": [], "illegal": []}
    for card in view["hand"]:
        if card not in legal:
            out["illegal"].append(card)
        elif card in m.judged["better"]:
            out["better"].append(card)
        else:
            out["worse"].append(card)
    return out


def test_puzzles_are_only_the_askers_own_clear_mistakes_seen_from_their_seat(
    users: list[Any],
) -> None:
    table = finished_badly(owner(users[0]))
    found = mistakes.hand_mistakes(table, 1, owner(users[0]))
    assert found, "seat 0 lost a trick by a knowable mistake"
    stored = HandAnalysis.objects.get(table=table, hand=1, part="knowable:0").data
    clear = [c for c in stored["cards"] if c["loss"] >= mistakes.MIN_TRICKS]
    assert [m.judged for m in found] == clear  # every clear one, and only those
    assert all(m.seat == 0 and m.judged["seat"] == 0 for m in found)
    hand = registry.spec("courtpiece").finished(replay.load(table))[0]
    deal = [set(cards) for cards in hand.deal]
    for m in found:
        view = m.view()
        assert m.judged["card"] in view["hand"]  # the card played, still held then
        assert set(view["hand"]) <= deal[0]
        # the puzzle's page shows seat 0's cards and the trick, never another hand
        page = _signed_in(users[0]).get(f"/en/learn/mine/{table.pk}/1/{m.number}/")
        assert page.status_code == 200
        shown = {c for c in deal[0] | deal[1] | deal[2] | deal[3] if f'value="{c}"' in page.text}
        assert shown == set(view["hand"])
        on_table = {str(e["card"]) for e in view["trick"]}
        held_by_others = (deal[1] | deal[2] | deal[3]) - on_table
        assert not {c for c in held_by_others if f'data-card="{c}"' in page.text}
    # another player at the table (a stranger here: the bots hold the other seats) and a
    # guest get no puzzles of seat 0's
    assert _signed_in(users[1]).get(f"/en/learn/mine/{table.pk}/1/").status_code == 404
    assert Client().get(f"/en/learn/mine/{table.pk}/1/1/").status_code == 404
    assert _signed_in(users[0]).get(f"/en/learn/mine/{table.pk}/2/").status_code == 404


def test_a_right_answer_solves_a_worse_or_illegal_one_is_refused_and_kept(
    users: list[Any],
) -> None:
    table = finished_badly(owner(users[0]))
    found = mistakes.hand_mistakes(table, 1, owner(users[0]))
    m = found[0]
    kinds = _answers(m)
    client = _signed_in(users[0])
    url = f"/en/learn/mine/{table.pk}/1/{m.number}/"
    if kinds["illegal"]:  # CP: follow suit: the engine refuses, nothing is recorded
        answer = client.post(url, {"answer": kinds["illegal"][0]})
        assert answer.status_code == 400 and "follow suit" in answer.text
        assert not MistakeProgress.objects.exists()
    assert client.post(url, {"answer": "XX"}).status_code == 400
    assert client.post(url, {"answer": m.judged["card"]}).status_code == 200  # the card played
    row = MistakeProgress.objects.get(user=users[0], key=m.key)
    assert not row.solved and row.tries == 1
    right = client.post(url, {"answer": kinds["better"][0]}, headers={"HX-Request": "true"})
    assert right.status_code == 200 and 'data-state="right"' in right.text
    assert m.judged["card"] in right.text or "cost" in right.text  # the explanation
    row.refresh_from_db()
    assert row.solved and row.tries == 2
    listing = client.get(f"/en/learn/mine/{table.pk}/1/").text
    assert "Solved" in listing
    assert "Puzzles solved: 1 of 1 tried" in client.get("/en/learn/mine/").text
    # a worse answer after solving keeps it solved
    client.post(url, {"answer": m.judged["card"]})
    row.refresh_from_db()
    assert row.solved


def test_a_guest_keeps_progress_in_the_session_and_brings_it_to_an_account(
    users: list[Any],
) -> None:
    store = SessionStore()
    store["guest_key"] = "guest-" + "m" * 20
    store.create()
    guest = access.Owner(user=None, guest_key=store["guest_key"])
    table = finished_badly(guest)
    client = Client()
    client.cookies["sessionid"] = store.session_key
    listing = client.get("/en/learn/mine/")
    assert f"/en/learn/mine/{table.pk}/1/" in listing.text
    m = mistakes.hand_mistakes(table, 1, guest)[0]
    url = f"/en/learn/mine/{table.pk}/1/{m.number}/"
    client.post(url, {"answer": m.judged["card"]})
    client.post(url, {"answer": m.judged["better"][0]})
    saved = SessionStore(session_key=client.cookies["sessionid"].value).load()
    assert saved["learn_mistakes"] == {m.key: {"solved": True, "tries": 2}}
    assert not MistakeProgress.objects.exists()
    assert "Puzzles solved: 1 of 1 tried" in client.get("/en/learn/mine/").text
    # signing in brings the guest's progress to the account
    assert client.login(username=users[2].username, password="pw")
    row = MistakeProgress.objects.get(user=users[2])
    assert row.key == m.key and row.solved and row.tries == 2


@pytest.mark.parametrize(
    ("lang", "word"), [("ur", "آپ کی اپنی بازیاں"), ("hi", "आपकी अपनी बाज़ियाँ")]
)
def test_the_pages_speak_the_players_language(users: list[Any], lang: str, word: str) -> None:
    page = _signed_in(users[0]).get(f"/{lang}/learn/")
    assert word in page.text and f"/{lang}/learn/mine/" in page.text
    assert word in _signed_in(users[0]).get(f"/{lang}/learn/mine/").text


def test_the_replay_links_the_players_own_mistakes_and_a_solver_failure_is_503(
    users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = finished_badly(owner(users[0]))

    def broken(*args: Any) -> Any:
        raise RuntimeError("the solver failed")

    with monkeypatch.context() as patch:
        patch.setattr(analysis, "compute", broken)
        failed = _signed_in(users[0]).get(f"/en/learn/mine/{table.pk}/1/")
        assert failed.status_code == 503 and "try again" in failed.text
    assert not HandAnalysis.objects.exists()
    mine = _signed_in(users[0]).get(f"/en/play/{table.pk}/replay/1/")
    assert f"/en/learn/mine/{table.pk}/1/" in mine.text
    watcher = Client().get(f"/en/play/{table.pk}/replay/1/")
    assert watcher.status_code == 200 and "/learn/mine/" not in watcher.text
