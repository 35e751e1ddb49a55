"""Signing in at the tables (game.tables.signin): a guest's games pass to the account they
sign up or in with, once; an invite followed as a guest is kept through sign-in, sign-up
and the emailed confirmation, and lands the friend at its table, in the seat they chose.
Through allauth's real views, as a browser goes."""

from __future__ import annotations

import random
import re
import time
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client

from accounts.models import GameResult, GameStats
from game.models import Seat, Table
from game.tables import access, due, lifecycle, moves, presence, signin
from game.tables.store import replay
from tests.people import PASSWORD
from tests.tables.live import owner

pytestmark = pytest.mark.django_db
KEY = "guest-key-" + "x" * 20


def sign_in(client: Client, username: str, next_url: str | None = None) -> Any:
    data = {"login": username, "password": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post("/en/accounts/login/", data)


def sign_up_and_confirm(client: Client, username: str, next_url: str | None = None) -> Any:
    """Sign up (with ``next`` if given), then confirm by the emailed link in the same
    browser: the answer to the confirmation, which signs the new account in."""
    mail.outbox.clear()
    data = {"username": username, "email": f"{username}@example.com",
            "password1": PASSWORD, "password2": PASSWORD}
    if next_url:
        data["next"] = next_url
    assert client.post("/en/accounts/signup/", data).status_code == 302
    link = re.search(r"https?://testserver(/\S+)", mail.outbox[0].body)
    assert link is not None, mail.outbox[0].body
    return client.post(link.group(1))


def guest_at_play_now() -> tuple[Client, Table]:
    client = Client()
    client.post("/en/play/now/")
    return client, Table.objects.latest("pk")


def private_table(host: Any) -> Table:
    return lifecycle.create_table(owner=owner(host), game="courtpiece", private=True)


# --- a guest's games -----------------------------------------------------------------------


def test_a_guest_who_signs_in_keeps_their_games(make_user: Any) -> None:
    client, table = guest_at_play_now()
    key = client.session["guest_key"]
    user = make_user("asma")
    assert sign_in(client, "asma").status_code == 302
    seat = table.seats.get(number=0)
    assert (seat.user_id, seat.guest_key) == (user.pk, "")
    table.refresh_from_db()
    assert table.host_id == user.pk
    assert table.rated is False  # a guest's game was never rated, and does not become so
    assert "guest_key" not in client.session
    assert client.get(f"/en/play/{table.pk}/").context["seat"] == 0
    assert [t["id"] for t in client.get("/api/tables?mine=1").json()["tables"]] == [table.pk]
    # The old key opens nothing any more.
    old = access.Owner(user=None, guest_key=key)
    assert access.seat_of(table, old) is None and not access.is_host(table, old)


def test_a_guest_who_signs_up_keeps_their_games(client: Client) -> None:
    client.post("/en/play/now/")
    table = Table.objects.get()
    answer = sign_up_and_confirm(client, "bilal")
    assert answer.status_code == 302
    user = get_user_model().objects.get(username="bilal")
    assert table.seats.get(number=0).user_id == user.pk


def test_a_guest_key_is_handed_over_once(make_user: Any) -> None:
    first, second = make_user("asma"), make_user("bilal")
    table = lifecycle.play_now(owner=access.Owner(user=None, guest_key=KEY))
    assert signin.hand_over(KEY, first) == 1
    assert signin.hand_over(KEY, second) == 0
    # Nor through a sign-in whose session still held the key somehow.
    client = Client()
    session = client.session
    session["guest_key"] = KEY
    session.save()
    sign_in(client, "bilal")
    assert table.seats.get(number=0).user_id == first.pk
    table.refresh_from_db()
    assert table.host_id == first.pk
    assert not Seat.objects.filter(guest_key=KEY).exists()


def test_nothing_is_handed_over_without_a_key(make_user: Any) -> None:
    lifecycle.play_now(owner=access.Owner(user=None, guest_key=KEY))
    assert signin.hand_over("", make_user("asma")) == 0
    assert Seat.objects.filter(guest_key=KEY).count() == 1


# --- invites -------------------------------------------------------------------------------


def test_the_invite_page_names_the_seat_and_the_partner(make_user: Any) -> None:
    host = make_user("ammi_jaan")
    table = private_table(host)
    html = Client().get(f"/en/play/{table.pk}/?invite={table.invite}").content.decode()
    assert "ammi_jaan invites you to a table of Rung. Choose your seat." in html
    north = html.split('data-seat="2"', 1)[1].split("</li>", 1)[0]
    assert "North" in north and "Sit at North" in north
    assert "partner of ammi_jaan, against two empty seats" in north
    assert "Sit in seat" not in html
    # Without the invite: our own page, saying a private table needs its link.
    for path in (f"/en/play/{table.pk}/", f"/en/play/{table.pk + 100}/"):
        answer = Client().get(path)
        assert answer.status_code == 404
        assert "A private table opens only from its invite link" in answer.content.decode()
    assert Client().get(f"/en/play/{table.pk}/replay/1/").status_code == 404


@pytest.mark.parametrize(("lang", "north"), [("ur", "شمال"), ("hi", "उत्तर")])
def test_the_invite_and_the_404_in_urdu_and_hindi(make_user: Any, lang: str, north: str) -> None:
    from tests.language import english_left

    host = make_user("امی_جان")
    table = private_table(host)
    html = Client().get(f"/{lang}/play/{table.pk}/?invite={table.invite}").content.decode()
    seats = html.split('id="waiting-seats"', 1)[1].split("</section>", 1)[0]
    assert north in seats and "امی_جان" in seats
    assert english_left(f"<section {seats}</section>", lang) == []
    missing = Client().get(f"/{lang}/play/{table.pk}/")
    assert missing.status_code == 404
    assert english_left(missing.content.decode(), lang) == []


def test_a_guest_who_chooses_a_seat_signs_up_and_lands_in_it(make_user: Any) -> None:
    host = make_user("ammi_jaan")
    table = private_table(host)
    friend = Client()
    friend.get(f"/en/play/{table.pk}/?invite={table.invite}")
    answer = friend.post(f"/en/play/{table.pk}/sit/", {"seat": 2, "invite": table.invite})
    back = f"/en/play/{table.pk}/?invite={table.invite}"
    assert answer.status_code == 302
    assert answer["Location"] == f"/en/accounts/login/?next={quote(back, safe='/')}"
    assert [str(m) for m in get_messages(answer.wsgi_request)]
    assert table.seats.get(number=2).empty  # nothing taken before signing in
    # allauth keeps `next` only for a while; the session keeps the invite longer.
    confirmed = sign_up_and_confirm(friend, "dost")
    assert confirmed.status_code == 302 and confirmed["Location"] == back
    dost = get_user_model().objects.get(username="dost")
    assert table.seats.get(number=2).user_id == dost.pk
    assert signin.INVITE_KEY not in friend.session


def test_the_invite_survives_next_through_sign_up_from_the_sign_in_page(make_user: Any) -> None:
    table = private_table(make_user("ammi_jaan"))
    friend = Client()
    back = f"/en/play/{table.pk}/?invite={table.invite}"
    friend.post(f"/en/play/{table.pk}/sit/", {"seat": 1, "invite": table.invite})
    login = friend.get(f"/en/accounts/login/?next={quote(back, safe='/')}").content.decode()
    assert quote(back, safe="") in login or back.replace("&", "&amp;") in login
    confirmed = sign_up_and_confirm(friend, "dost", next_url=back)
    assert confirmed["Location"] == back
    assert table.seats.get(number=1).user.username == "dost"


def test_an_invite_only_looked_at_brings_the_guest_back_after_signing_in(
    make_user: Any,
) -> None:
    table = private_table(make_user("ammi_jaan"))
    make_user("dost")
    friend = Client()
    friend.get(f"/en/play/{table.pk}/?invite={table.invite}")
    answer = sign_in(friend, "dost")  # from the header: no `next`
    assert answer["Location"] == f"/en/play/{table.pk}/?invite={table.invite}"
    assert all(s.user_id is None for s in table.seats.exclude(number=0))  # offered, not taken


def test_a_sign_in_going_elsewhere_goes_there_unless_a_seat_was_chosen(make_user: Any) -> None:
    table = private_table(make_user("ammi_jaan"))
    make_user("dost")
    friend = Client()
    friend.get(f"/en/play/{table.pk}/?invite={table.invite}")
    assert sign_in(friend, "dost", next_url="/en/learn/")["Location"] == "/en/learn/"


def test_a_seat_taken_meanwhile_leaves_the_friend_at_the_table(make_user: Any) -> None:
    host = make_user("ammi_jaan")
    table = private_table(host)
    make_user("dost")
    quicker = make_user("tez")
    friend = Client()
    friend.post(f"/en/play/{table.pk}/sit/", {"seat": 2, "invite": table.invite})
    lifecycle.take_seat(table_id=table.pk, owner=owner(quicker), seat=2, invite=table.invite)
    answer = sign_in(friend, "dost")
    assert answer["Location"] == f"/en/play/{table.pk}/?invite={table.invite}"
    assert table.seats.get(number=2).user_id == quicker.pk
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert any("no longer free" in m for m in said), said


def test_a_wrong_or_old_invite_steers_nothing(make_user: Any) -> None:
    table = private_table(make_user("ammi_jaan"))
    make_user("dost")
    friend = Client()
    answer = friend.post(f"/en/play/{table.pk}/sit/", {"seat": 2, "invite": "not-the-invite"})
    assert answer.status_code == 404 and signin.INVITE_KEY not in friend.session
    session = friend.session
    session[signin.INVITE_KEY] = {
        "table": table.pk, "invite": table.invite, "seat": 2,
        "at": int(time.time()) - signin.INVITE_MAX_AGE - 5,
    }
    session.save()
    assert sign_in(friend, "dost")["Location"] == "/en/"
    assert table.seats.get(number=2).empty


@pytest.mark.parametrize("kept", [None, "x", {"table": "1", "invite": 3}, {"table": 1}])
def test_a_malformed_pending_invite_is_ignored(kept: Any) -> None:
    assert signin.pending_invite({signin.INVITE_KEY: kept}) is None


def test_a_game_the_guest_finished_counts_for_their_new_account(make_user: Any) -> None:
    """Issue 27: every finished game counts, a guest's too once they have an account."""
    guest = access.Owner(user=None, guest_key=KEY)
    table = lifecycle.create_table(owner=guest, game="backgammon", bots=[1], length=1)
    presence.seat_connected(table_id=table.pk, seat=0)
    rng = random.Random(5)
    table.refresh_from_db()
    while table.status == Table.PLAYING:
        state = replay.load(table)
        if state.to_move == 0:
            moves.apply_action(table_id=table.pk, owner=guest, expected_version=table.version,
                               action=rng.choice(state.legal_actions()))
        else:
            assert due.fire(table.pk, table.version, Table.BOT)
        table.refresh_from_db()
    assert not GameResult.objects.exists()  # a guest has no statistics
    user = make_user("asma")
    assert signin.hand_over(KEY, user) == 1
    result = GameResult.objects.get(user=user)
    assert (result.table, result.rated, result.opponents) == (table.pk, False, ["bot"])
    assert not GameStats.objects.exists()
    assert signin.hand_over(KEY, user) == 0 and GameResult.objects.count() == 1
