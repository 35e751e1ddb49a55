"""A player's way back to their games: ``GET /api/tables?mine=1`` (docs/TABLE_PROTOCOL.md)
and the "Your games" box of the home page and the lobby, for a guest (by their browser
session) and for an account; a private table is listed only to those seated at it."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from game.models import Table
from game.tables import access, due, lifecycle, mine, moves, presence
from game.tables.store import replay
from tests.language import english_left
from tests.tables.live import owner

pytestmark = pytest.mark.django_db

@pytest.fixture(autouse=True)
def _english() -> Any:
    """Each test begins in English, whichever language a page of the last one set."""
    with translation.override("en"):
        yield


LISTED = {"id", "game", "variant", "status", "page", "version", "seats", "your_seat"}


def _mine(client: Client) -> list[dict[str, Any]]:
    answer = client.get("/api/tables?mine=1")
    assert answer.status_code == 200, answer.content
    return list(answer.json()["tables"])


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _finish(table: Table, player: Any) -> None:
    """Play ``table`` (the player at seat 0, bots elsewhere) to its end."""
    rng = random.Random(5)
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    while table.status == Table.PLAYING:
        state = replay.load(table)
        if state.to_move == 0:
            moves.apply_action(
                table_id=table.pk, owner=owner(player),
                action=rng.choice(state.legal_actions()), expected_version=table.version,
            )
        else:
            assert due.fire(table.pk, table.version, Table.BOT)
        table.refresh_from_db()


def test_a_guest_finds_their_tables_by_their_session_newest_first() -> None:
    guest, stranger = Client(), Client()
    guest.post("/en/play/now/")
    guest.post("/en/play/now/", {"new": "1"})  # past "Continue your game": a second one
    first, second = Table.objects.order_by("pk")
    listed = _mine(guest)
    assert [t["id"] for t in listed] == [second.pk, first.pk]
    assert set(listed[0]) >= LISTED
    assert listed[0]["page"] == f"/en/play/{second.pk}/"
    assert listed[0]["status"] == "playing" and listed[0]["your_seat"] == 0
    assert listed[0]["private"] is True  # Play now: the guest's own, against bots
    # Another browser holds no key of theirs: nothing, and no key is made by asking.
    assert _mine(stranger) == []
    assert "guest_key" not in stranger.session
    # The open tables' list is unchanged by the parameter's absence.
    assert [t["id"] for t in stranger.get("/api/tables").json()["tables"]] == []


def test_an_account_sees_private_tables_only_where_it_sits(users: list[Any]) -> None:
    a, b, c, d = users
    theirs = lifecycle.create_table(owner=owner(a), game="courtpiece", private=True)
    lifecycle.take_seat(table_id=theirs.pk, owner=owner(b), seat=2, invite=theirs.invite)
    elsewhere = lifecycle.create_table(owner=owner(c), game="courtpiece", private=True)
    own = lifecycle.create_table(owner=owner(b), game="courtpiece")
    finished = lifecycle.create_table(
        owner=owner(b), game="courtpiece", variant="be_ranga", target=1, bots=[1, 2, 3]
    )
    _finish(finished, b)
    listed = _mine(_signed_in(b))
    assert [t["id"] for t in listed] == [finished.pk, own.pk, theirs.pk]
    assert [t["status"] for t in listed] == ["over", "waiting", "waiting"]
    assert listed[2]["your_seat"] == 2 and "invite" not in listed[2]
    assert elsewhere.pk not in {t["id"] for t in _mine(_signed_in(a))}
    assert _mine(_signed_in(d)) == []


def test_a_seat_left_is_no_longer_ones_own(users: list[Any]) -> None:
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece")
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[1]), seat=1)
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    assert _mine(_signed_in(users[1])) == []


@pytest.mark.parametrize("value", ["yes", "2", "", "1;DROP"])
def test_mine_is_one_or_zero(users: list[Any], value: str) -> None:
    lifecycle.create_table(owner=owner(users[0]), game="courtpiece")
    answer = _signed_in(users[0]).get("/api/tables", {"mine": value})
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_request" and "mine" in answer.json()["error"]


def test_your_games_on_the_home_page_and_the_lobby(users: list[Any]) -> None:
    player = users[0]
    playing = lifecycle.play_now(owner=owner(player))
    finished = lifecycle.create_table(
        owner=owner(player), game="courtpiece", variant="be_ranga", target=1, bots=[1, 2, 3]
    )
    _finish(finished, player)
    boxes = mine.your_games(owner(player))
    assert [g["id"] for g in boxes["playing"]] == [playing.pk]
    assert [g["id"] for g in boxes["finished"]] == [finished.pk]
    done = boxes["finished"][0]
    assert done["won"] in (True, False)
    hands = len(replay.load(Table.objects.get(pk=finished.pk)).hands)
    assert [r["url"] for r in done["replays"]] == [
        f"/en/play/{finished.pk}/replay/{n}/" for n in range(1, hands + 1)
    ]
    client = _signed_in(player)
    for path in ("/en/", "/en/play/"):
        html = client.get(path).content.decode()
        assert 'data-testid="your-games"' in html
        assert f'href="/en/play/{playing.pk}/"' in html
        assert f'href="/en/play/{finished.pk}/replay/1/"' in html
    for lang in ("ur", "hi"):
        html = client.get(f"/{lang}/").content.decode()
        box = html.split('data-testid="your-games"', 1)[1].split("</section>", 1)[0]
        assert english_left(f"<div>{box}</div>", lang) == [], lang


def test_no_box_and_no_query_for_a_first_visit(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        assert mine.your_games(access.Owner(user=None, guest_key=None))["any"] is False
    assert 'data-testid="your-games"' not in Client().get("/en/").content.decode()


def _play_one_hand(table: Table, player: Any) -> None:
    """Play ``table``'s first hand (the player at seat 0, bots elsewhere) to its end."""
    rng = random.Random(7)
    presence.seat_connected(table_id=table.pk, seat=0)
    table.refresh_from_db()
    while table.status == Table.PLAYING and not replay.load(table).hands:
        state = replay.load(table)
        if state.to_move == 0:
            moves.apply_action(
                table_id=table.pk, owner=owner(player),
                action=rng.choice(state.legal_actions()), expected_version=table.version,
            )
        else:
            assert due.fire(table.pk, table.version, Table.BOT)
        table.refresh_from_db()


def test_your_games_rows_tell_two_play_now_tables_apart(users: list[Any]) -> None:
    """A newcomer saw three rows "Rung, table #n · Playing · with Bot, Bot, Bot" and could
    not tell which game was which: each row says the hand being played, the score (their
    side first) and when it was last played."""
    player = users[0]
    older = lifecycle.play_now(owner=owner(player))
    newer = lifecycle.play_now(owner=owner(player))
    _play_one_hand(older, player)
    Table.objects.filter(pk=older.pk).update(moved_at=timezone.now() - timedelta(minutes=5))
    state = replay.load(Table.objects.get(pk=older.pk))
    won = list(state.view(0)["match"]["scores"])
    with translation.override("en"):
        rows = {g["id"]: g for g in mine.your_games(owner(player))["playing"]}
    assert rows[newer.pk]["round"] == "Hand 1" and rows[older.pk]["round"] == "Hand 2"
    assert rows[newer.pk]["score"] == {"mine": 0, "theirs": 0}
    assert rows[older.pk]["score"] == {"mine": won[0], "theirs": won[1]}  # seat 0: team 0
    assert won != [0, 0]  # a finished hand scores for one side
    assert rows[older.pk]["ago"] == "5 minutes ago"
    assert rows[newer.pk]["ago"] == "just now"
    client = _signed_in(player)
    html = client.get("/en/play/").content.decode()
    assert f"Score: you {won[0]}, them {won[1]}" in html
    assert "last played 5 minutes ago" in html and "Hand 2" in html
    for lang, words in (("ur", "5 منٹ پہلے"), ("hi", "5 मिनट पहले")):
        html = client.get(f"/{lang}/play/").content.decode()
        box = html.split('data-testid="your-games"', 1)[1].split("</section>", 1)[0]
        assert words in box, lang
        assert english_left(f"<div>{box}</div>", lang) == [], lang


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(30, "just now"), (60, "1 minute ago"), (3599, "59 minutes ago"),
     (3600, "1 hour ago"), (7200, "2 hours ago"), (86400 * 3, "3 days ago")],
)
def test_ago_says_how_long_ago_in_words(seconds: int, words: str) -> None:
    now = timezone.now()
    with translation.override("en"):
        assert mine.ago(now - timedelta(seconds=seconds), now) == words


def test_the_menu_leads_to_your_games_once_there_are_any() -> None:
    """A newcomer on a phone found no way back to their games in the menu: it links to
    the Play page's "Your games" once the visitor has a guest key or an account."""
    guest = Client()
    assert 'data-testid="nav-your-games"' not in guest.get("/en/learn/").content.decode()
    guest.post("/en/play/now/")
    for lang in ("en", "ur", "hi"):
        html = guest.get(f"/{lang}/").content.decode()
        nav = html.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
        assert f'href="/{lang}/play/#your-games-h" data-testid="nav-your-games"' in nav
    lobby = guest.get("/en/play/").content.decode()
    assert 'id="your-games-h"' in lobby  # the anchor it leads to


def test_play_now_offers_the_game_in_progress_before_a_new_one() -> None:
    """A newcomer's Play now opened a new table each time, beside the game they had
    left: it offers that game back ("Continue your game") or a new one."""
    guest = Client()
    first = guest.post("/en/play/now/")
    table = Table.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/en/play/{table.pk}/"
    again = guest.post("/en/play/now/")
    html = again.content.decode()
    assert again.status_code == 200 and Table.objects.count() == 1
    assert 'data-testid="play-now-choice"' in html
    assert f'href="/en/play/{table.pk}/" data-testid="continue-game"' in html
    assert "Score: you 0, them 0" in html and "last played just now" in html
    # The other game's Play now is not this one's: a backgammon table is made.
    bg = guest.post("/en/play/now/", {"game": "backgammon"})
    assert bg.status_code == 302 and Table.objects.filter(game="backgammon").count() == 1
    new = guest.post("/en/play/now/", {"new": "1"})
    assert new.status_code == 302 and Table.objects.filter(game="courtpiece").count() == 2
    for lang in ("ur", "hi"):
        page = guest.post(f"/{lang}/play/now/").content.decode()
        box = page.split('data-testid="play-now-choice"', 1)[1].split("</section>", 1)[0]
        assert english_left(f"<div>{box}</div>", lang) == [], lang


def test_play_now_makes_a_new_table_once_the_old_one_is_left(users: list[Any]) -> None:
    """A table left to a bot, or one with another person at it, is not offered back."""
    player = users[0]
    client = _signed_in(player)
    client.post("/en/play/now/")
    table = Table.objects.get()
    lifecycle.leave_seat(table_id=table.pk, owner=owner(player))
    assert mine.play_now_in_progress(owner(player), "courtpiece") is None
    assert client.post("/en/play/now/").status_code == 302
    assert Table.objects.count() == 2


def test_the_lobby_names_each_games_bot_menu_and_a_guest_needs_an_account() -> None:
    """A newcomer saw two "Bot strength" menus, one in jargon ("Intermediate (0-ply)"),
    and a "Create a table" that led a guest nowhere: each menu names its game, the
    backgammon levels are plain words, and a guest's button says it needs an account and
    leads to sign in (back to the new table's page after)."""
    guest = Client()
    html = guest.get("/en/play/").content.decode()
    assert "Rung bots' strength" in html and "Backgammon bot's strength" in html
    assert "ply" not in html
    assert ">Intermediate</option>" in html and ">Expert</option>" in html
    assert 'value="intermediate"' in html  # the API's names stay
    assert 'href="/en/accounts/login/?next=/en/play/new/" data-testid="cp-new-table"' in html
    assert "needs an account: sign in first" in html
    for lang in ("ur", "hi"):
        page = guest.get(f"/{lang}/play/").content.decode()
        top = page.split("<h1>", 1)[1].split('data-testid="account-needed"', 1)[0]
        assert english_left(f"<div><h1>{top}</div>", lang) == [], lang


def test_the_lobby_lets_an_account_create_a_table(users: list[Any]) -> None:
    html = _signed_in(users[0]).get("/en/play/").content.decode()
    assert 'href="/en/play/new/" data-testid="cp-new-table"' in html
    assert "needs an account" not in html


def test_a_backgammon_row_names_its_game_and_score(users: list[Any]) -> None:
    player = users[0]
    table = lifecycle.play_now(owner=owner(player), game="backgammon")
    row = mine.play_now_in_progress(owner(player), "backgammon")
    assert row is not None and row["id"] == table.pk
    assert row["round"] == "Game 1" and row["score"] == {"mine": 0, "theirs": 0}
    assert mine.play_now_in_progress(owner(player), "courtpiece") is None
