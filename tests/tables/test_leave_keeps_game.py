"""Leaving a table during play keeps the game the player's (issue 27's last gap): the seat
remembers who left it (``Seat.left_user``/``left_guest_key``), so "Your games" and
``GET /api/tables?mine=1`` still list it, a guest's sign-up hands it over, a private table
and its replays stay open to them (as to a spectator: never their old seat's cards), the
table and its replays name them rather than "Bot (South)", and while the match is played
they may take their seat back."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import GameResult
from game.models import Seat, Table
from game.tables import access, due, frames, lifecycle, mine, moves, presence, signin
from game.tables.store import replay
from tests.tables.live import four_player_table, owner, run, session_cookie, socket
from tests.tables.test_signin import sign_up_and_confirm

pytestmark = pytest.mark.django_db


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _mine(client: Client) -> list[dict[str, Any]]:
    answer = client.get("/api/tables?mine=1")
    assert answer.status_code == 200, answer.content
    return list(answer.json()["tables"])


def _private_with_a_friend(users: list[Any], **kwargs: Any) -> Table:
    """A private table without spectators: users[0] hosts at South, users[1] sits North
    (by the invite), bots East and West; started."""
    table = lifecycle.create_table(
        owner=owner(users[0]), game="courtpiece", private=True, bots=[1, 3],
        spectators=False, **kwargs,
    )
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[1]), seat=2, invite=table.invite)
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    return table


def _play_to_the_end(table: Table, humans: dict[int, Any]) -> None:
    """Random legal moves for the seats in ``humans``, the bots' turns fired, to the end."""
    rng = random.Random(7)
    presence.seat_connected(table_id=table.pk, seat=min(humans))  # someone is there
    table.refresh_from_db()
    while table.status == Table.PLAYING:
        state = replay.load(table)
        if state.to_move in humans:
            moves.apply_action(
                table_id=table.pk, owner=owner(humans[state.to_move]),
                action=rng.choice(state.legal_actions()), expected_version=table.version,
            )
        else:
            assert due.fire(table.pk, table.version, Table.BOT)
        table.refresh_from_db()


# --- the seat remembers -------------------------------------------------------------------


def test_a_seat_left_during_play_remembers_who_left_it(users: list[Any]) -> None:
    table = four_player_table(users)
    assert table.rated
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    seat = Seat.objects.get(table=table, number=1)
    assert seat.bot and seat.user is None and seat.guest_key == ""
    assert seat.left_user == users[1] and seat.left_guest_key is None
    assert seat.abandoned_by == users[1]  # a rated match: abandoned, as before
    # Before the start, leaving only frees the seat: the table was never the player's game.
    waiting = lifecycle.create_table(owner=owner(users[0]), game="courtpiece")
    lifecycle.take_seat(table_id=waiting.pk, owner=owner(users[2]), seat=2)
    lifecycle.leave_seat(table_id=waiting.pk, owner=owner(users[2]))
    freed = Seat.objects.get(table=waiting, number=2)
    assert freed.empty and freed.left_user is None and freed.left_guest_key is None
    assert waiting.pk not in {t["id"] for t in _mine(_signed_in(users[2]))}


# --- Your games, ?mine=1 and the way back ----------------------------------------------------


def test_a_guest_who_leaves_play_now_finds_the_game_again(users: list[Any]) -> None:
    guest, stranger = Client(), Client()
    guest.post("/en/play/now/")
    table = Table.objects.latest("pk")
    page = f"/en/play/{table.pk}/"
    assert "Leave (the game ends)" in guest.get(page).content.decode()  # every other: a bot
    assert guest.post(f"/en/play/{table.pk}/leave/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.OVER  # nobody left to play for: closed, as before
    assert frames.state_payload(table.pk, None)["to_move"] is None  # nobody waited for
    listed = _mine(guest)
    assert [t["id"] for t in listed] == [table.pk]
    assert listed[0]["your_seat"] is None and listed[0]["left_seat"] == 0
    assert listed[0]["status"] == "over" and listed[0]["seats"][0]["left"] == "guest"
    key = guest.session["guest_key"]
    boxes = mine.your_games(access.Owner(user=None, guest_key=key))
    assert [g["id"] for g in boxes["finished"]] == [table.pk]
    assert boxes["finished"][0]["left"] is True and boxes["finished"][0]["left_seat"] == 0
    home = guest.get("/en/").content.decode()
    box = home.split('data-testid="your-games"', 1)[1].split("</section>", 1)[0]
    assert f'href="{page}"' in box and "You left before the end" in box
    # The private table (no spectators) opens for them, as a spectator's, saying so.
    opened = guest.get(page)
    assert opened.status_code == 200
    html = opened.content.decode()
    assert "You left this game before it ended." in html and "Take my seat back" not in html
    assert stranger.get(page).status_code == 404
    # The match is over: nothing to take back.
    answer = guest.post(f"/api/tables/{table.pk}/seats/0", {}, content_type="application/json")
    assert answer.status_code == 409 and "over" in answer.json()["error"]
    assert Seat.objects.get(table=table, number=0).bot


def test_an_account_finds_a_table_it_left_while_a_bot_plays_on(users: list[Any]) -> None:
    table = _private_with_a_friend(users)
    friend = _signed_in(users[1])
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    table.refresh_from_db()
    assert table.status == Table.PLAYING  # the host still plays: the bot plays North on
    listed = _mine(friend)
    assert [t["id"] for t in listed] == [table.pk]
    assert listed[0]["your_seat"] is None and listed[0]["left_seat"] == 2
    assert "invite" not in listed[0]
    boxes = mine.your_games(owner(users[1]))
    row = boxes["playing"][0]
    assert row["id"] == table.pk and row["left"] is True
    assert "player0" in row["others"] and len(row["others"]) == 3  # not themselves
    box = friend.get("/en/").content.decode().split('data-testid="your-games"', 1)[1]
    assert "You left: a bot plays your seat" in box.split("</section>", 1)[0]
    # Others see no change in who may open the table.
    stranger = get_user_model().objects.create_user("stranger", password="pw")
    assert _mine(_signed_in(stranger)) == []
    assert _signed_in(stranger).get(f"/en/play/{table.pk}/").status_code == 404
    assert _signed_in(stranger).get(f"/api/tables/{table.pk}").status_code == 404


# --- what a former player sees ----------------------------------------------------------------


def test_a_player_who_left_sees_the_table_as_a_spectator_never_their_old_hand(
    users: list[Any],
) -> None:
    """Table manners: a client is never sent a card it may not see (RULES.md): the seat's
    cards are a bot's now, and its former player watches as a spectator would."""
    table = _private_with_a_friend(users)
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    table.refresh_from_db()
    seat, payload = frames.socket_state(table.pk, owner(users[1]))
    state = replay.load(table)
    assert seat is None and payload["seat"] is None and payload["legal"] == []
    assert payload["view"] == state.view(None) and payload["view"] != state.view(2)
    summary = _signed_in(users[1]).get(f"/api/tables/{table.pk}").json()
    assert summary["your_seat"] is None and "invite" not in summary
    assert summary["seats"][2]["left"] == "player1" and summary["seats"][2]["bot"] is True
    page = _signed_in(users[1]).get(f"/en/play/{table.pk}/")
    assert page.status_code == 200  # no spectators here, but they played at it
    html = page.content.decode()
    assert "player1 (left — a bot took over)" in html and "Bot (North)" not in html
    cookie = session_cookie(users[1])

    async def body() -> None:
        comm = socket(table.pk, cookie)
        assert (await comm.connect())[0]
        frame = await comm.receive_json_from(timeout=10)
        assert frame["seat"] is None and frame["view"] == state.view(None)
        assert frame["seats"][2]["left"] == "player1"
        await comm.disconnect()

    run(body)


@pytest.mark.parametrize(
    ("lang", "name"),
    [
        ("en", "player1 (left — a bot took over)"),
        ("ur", "player1 (اٹھ گئے — جگہ بوٹ نے سنبھالی)"),
        ("hi", "player1 (उठ गए — जगह बॉट ने सँभाली)"),
    ],
)
def test_the_replay_names_the_player_who_left(users: list[Any], lang: str, name: str) -> None:
    table = _private_with_a_friend(users, variant="be_ranga", target=1)
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    _play_to_the_end(table, {0: users[0]})
    boxes = mine.your_games(owner(users[1]))
    done = boxes["finished"][0]
    assert done["id"] == table.pk and done["left"] is True and done["replays"]
    assert done["won"] in (True, False)  # their side's result: the bot played it on
    # Their history keeps it, as left (counted lost, as a rated match's leaver is).
    kept = GameResult.objects.get(user=users[1], table=table.pk)
    assert kept.abandoned and not kept.won and not kept.rated
    assert GameResult.objects.get(user=users[0], table=table.pk).won == done["won"]
    replay_page = _signed_in(users[1]).get(f"/{lang}/play/{table.pk}/replay/1/")
    assert replay_page.status_code == 200  # a private table's replay, for a former player
    html = replay_page.content.decode()
    assert name in html
    assert "Bot (North)" not in html
    stranger = get_user_model().objects.create_user("stranger", password="pw")
    assert _signed_in(stranger).get(f"/{lang}/play/{table.pk}/replay/1/").status_code == 404


# --- taking the seat back ---------------------------------------------------------------------


def test_take_my_seat_back_while_the_match_is_played(users: list[Any]) -> None:
    table = four_player_table(users)
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    back = _signed_in(users[1])
    page = back.get(f"/en/play/{table.pk}/").content.decode()
    assert "Take my seat back" in page and 'name="seat" value="1"' in page
    # Nobody else may take the seat the bot plays.
    someone = _signed_in(users[2])
    assert someone.get(f"/en/play/{table.pk}/").content.decode().count("Take my seat back") == 0
    with pytest.raises(lifecycle.TableError) as refused:
        lifecycle.take_seat(table_id=table.pk, owner=owner(users[2]), seat=1)
    assert refused.value.code == "conflict"
    outsider = get_user_model().objects.create_user("outsider", password="pw")
    with pytest.raises(lifecycle.TableError):
        lifecycle.take_seat(table_id=table.pk, owner=owner(outsider), seat=1)
    # The page's form: seated again, as they were, and no longer counted as abandoning.
    answer = back.post(f"/en/play/{table.pk}/sit/", {"seat": "1"})
    assert answer.status_code == 302 and answer["Location"] == f"/en/play/{table.pk}/"
    seat = Seat.objects.get(table=table, number=1)
    assert seat.user == users[1] and not seat.bot and seat.abandoned_by is None
    assert seat.left_user is None and seat.left_guest_key is None
    listed = _mine(back)
    assert listed[0]["your_seat"] == 1 and listed[0]["left_seat"] is None
    assert "Take my seat back" not in back.get(f"/en/play/{table.pk}/").content.decode()
    # The protocol's own call takes it back as well (POST /api/tables/<id>/seats/<n>).
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    answer = back.post(f"/api/tables/{table.pk}/seats/1", {}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["your_seat"] == 1
    assert answer.json()["seats"][1]["left"] is None


def test_a_turn_taken_back_is_the_players_with_the_tables_timer(users: list[Any]) -> None:
    table = four_player_table(users)
    for number in range(4):
        presence.seat_connected(table_id=table.pk, seat=number)
    table.refresh_from_db()
    number = replay.load(table).to_move  # the player to move leaves, and comes back
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[number]))
    table.refresh_from_db()
    assert table.deadline_kind == Table.BOT  # the bot's move is pending
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[number]), seat=number)
    table.refresh_from_db()
    assert table.deadline_kind != Table.BOT and table.deadline_at is not None
    assert not due.fire(table.pk, table.version, Table.BOT)  # no bot moves for them now
    assert access.seat_of(table, owner(users[number])) == number


# --- signing up -------------------------------------------------------------------------------


def test_a_guest_who_left_and_signs_up_keeps_the_game(client: Client) -> None:
    client.post("/en/play/now/")
    table = Table.objects.latest("pk")
    client.post(f"/en/play/{table.pk}/leave/")
    key = client.session["guest_key"]
    sign_up_and_confirm(client, "newcomer")
    user = get_user_model().objects.get(username="newcomer")
    seat = Seat.objects.get(table=table, number=0)
    assert seat.left_user == user and seat.left_guest_key is None
    listed = _mine(client)
    assert [t["id"] for t in listed] == [table.pk] and listed[0]["left_seat"] == 0
    assert listed[0]["seats"][0]["left"] == "newcomer"
    assert signin.hand_over(key, user) == 0  # a key is handed over once
    assert client.get(f"/en/play/{table.pk}/").status_code == 200


def test_a_backgammon_table_names_the_player_who_left(users: list[Any]) -> None:
    table = lifecycle.create_table(
        owner=owner(users[0]), game="backgammon", private=True, move_seconds=600
    )
    lifecycle.take_seat(table_id=table.pk, owner=owner(users[1]), seat=1, invite=table.invite)
    lifecycle.start_table(table_id=table.pk, owner=owner(users[0]))
    lifecycle.leave_seat(table_id=table.pk, owner=owner(users[1]))
    host_page = _signed_in(users[0]).get(f"/en/play/{table.pk}/").content.decode()
    assert "player1 (left — a bot took over)" in host_page
    assert "GNU Backgammon (bot)" not in host_page
    listed = _mine(_signed_in(users[1]))
    assert listed[0]["id"] == table.pk and listed[0]["left_seat"] == 1
    page = _signed_in(users[1]).get(f"/en/play/{table.pk}/").content.decode()
    assert "Take my seat back" in page
    assert _signed_in(users[1]).post(f"/en/play/{table.pk}/sit/", {"seat": "1"}).status_code == 302
    assert access.seat_of(table, owner(users[1])) == 1
