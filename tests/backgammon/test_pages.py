"""The backgammon table pages through Django's test client (issue #10): Play now against
the bot, the table page with the player's home side, the partial-move view (legal steps
only, from the table's current state), the create form, the replay with its fairness
check run as Python, and the .mat download."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from game.backgammon import board as bgboard
from game.backgammon import bot as bgbot
from game.backgammon import matfile
from game.backgammon.moves import Turn
from game.engine import backgammon as bg
from game.models import Table
from game.tables import access, due, lifecycle, moves, presence
from game.tables.store import replay
from tests.language import english_left
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bots_without_pause(settings: Any) -> Iterator[None]:
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_TRICK_PAUSE = 0.0
    settings.TABLES_HAND_PAUSE = 0.0
    yield
    bgbot.shutdown()


def _play_now(client: Client, lang: str = "en") -> Table:
    response = client.post(f"/{lang}/play/now/", {"game": "backgammon"})
    assert response.status_code == 302, response.content[:300]
    table = Table.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert table.game == "backgammon"
    return table


def _bot_moves(table: Table) -> None:
    """Fire the bot's deadlines until a person is to act (as the clock would)."""
    for _ in range(50):
        table.refresh_from_db()
        s = replay.load(table)
        if s.is_over or s.to_move is None or not table.seats.get(number=s.to_move).bot:
            return
        assert due.fire(table.pk, table.version, Table.BOT)
    raise AssertionError("the bot did not stop")


def _to_my_move(client: Client, table: Table) -> Any:
    """Roll when it is seat 0's roll, until seat 0 has a move to make; the state then."""
    owner = access.Owner(None, table.seats.get(number=0).guest_key or None)
    presence.seat_connected(table_id=table.pk, seat=0)
    for _ in range(40):
        _bot_moves(table)
        table.refresh_from_db()
        s = replay.load(table)
        game = s.game if isinstance(s, bg.Match) else s
        if s.to_move == 0 and game.phase == "move" and len(s.legal_actions()) > 4:
            return s
        legal = s.legal_actions()
        action = "roll" if "roll" in legal else next(a for a in legal if a.startswith("move:"))
        moves.apply_action(
            table_id=table.pk, owner=owner, action=action, expected_version=table.version
        )
    raise AssertionError("seat 0 never had a move")


def test_bg_play_now_gives_a_guest_a_started_money_game_against_the_bot(client: Client) -> None:
    lobby = client.get("/en/play/")
    assert b'name="game" value="backgammon"' in lobby.content
    table = _play_now(client)
    assert table.status == Table.PLAYING
    assert [s.bot for s in table.seats.order_by("number")] == [False, True]
    page = client.get(f"/en/play/{table.pk}/").content.decode()
    assert 'data-game="backgammon"' in page
    assert 'data-bg-home="right"' in page
    assert "bgtable.js" in page and "board.js" in page
    assert 'ws-connect="/ws/tables/' in page
    assert "Money game" in page


def test_bg_home_side_default_by_language_and_profile_setting(
    client: Client, make_user: Any
) -> None:
    table = _play_now(client, "ur")
    page = client.get(f"/ur/play/{table.pk}/").content.decode()
    assert 'data-bg-home="left"' in page
    assert english_left(page, "ur") == []
    user = make_user("asma")
    user.profile.board_home = "left"
    user.profile.save()
    other = Client()
    assert other.login(username="asma", password=PASSWORD)
    table2 = _play_now(other, "en")
    assert 'data-bg-home="left"' in other.get(f"/en/play/{table2.pk}/").content.decode()
    # The profile form offers the choice.
    form = other.get("/en/accounts/profile/").content.decode()
    assert 'name="board_home"' in form


def test_bg_6_partial_move_view_draws_legal_steps_and_refuses_illegal_ones(
    client: Client,
) -> None:
    table = _play_now(client)
    s = _to_my_move(client, table)
    table.refresh_from_db()
    view = s.view(0)
    turn = Turn(bg.Position.from_id(view["position_id"]), view["dice"])
    _src, targets = next(iter(turn.movable().items()))
    step = targets[0].steps[0].code()
    url = f"/en/play/{table.pk}/board/"
    ok = client.get(url, {"version": table.version, "steps": ",".join(map(str, step))})
    assert ok.status_code == 200
    body = ok.content.decode()
    assert f'data-steps="{",".join(map(str, step))}"' in body
    assert body.count('class="bg-board"') == 2  # both home sides
    # A step no legal play contains: refused, the table unchanged.
    before = table.version
    bad = client.get(url, {"version": table.version, "steps": "3,25,1"})
    assert bad.status_code == 422
    assert "cannot go there" in bad.content.decode()
    for junk in ("x", "1,2,3,4", ";".join(["24,23,1"] * 9)):
        assert client.get(url, {"version": table.version, "steps": junk}).status_code == 422
    # A stale frame and someone else: refused too.
    assert client.get(url, {"version": table.version - 1, "steps": ""}).status_code == 409
    # (a private table, as Play now's: to someone else it is not there at all)
    assert Client().get(url, {"version": table.version, "steps": ""}).status_code == (
        404 if table.private else 403
    )
    table.refresh_from_db()
    assert table.version == before


def test_bg_partial_move_says_one_status_and_the_new_pips_above_and_below(
    client: Client,
) -> None:
    """A newcomer saw "Your move: pick a checker" and the old pips in the table bar while
    the board said "Move complete: confirm it or undo" with the new ones."""
    table = _play_now(client)
    s = _to_my_move(client, table)
    table.refresh_from_db()
    view = s.view(0)
    turn = Turn(bg.Position.from_id(view["position_id"]), view["dice"])
    while not turn.complete:
        _src, targets = next(iter(turn.movable().items()))
        turn = turn.move(targets[0].src, targets[0].dst)
    steps = ";".join(",".join(map(str, st.code())) for st in turn.steps)
    body = client.get(
        f"/en/play/{table.pk}/board/", {"version": table.version, "steps": steps}
    ).content.decode()
    top = re.search(r'<p id="bg-top-status"[^>]*hx-swap-oob="true"[^>]*>([^<]*)</p>', body)
    assert top is not None, "the table bar's status comes with the partial board"
    assert top.group(1) == "Move complete: confirm it or undo."
    assert '<p class="bg-status">Move complete: confirm it or undo.</p>' in body
    players = re.search(r'<ul id="bg-players"[^>]*hx-swap-oob="true".*?</ul>', body, re.S)
    assert players is not None
    pips = bgboard.turn_pips(turn)
    assert pips[0] < view["board"]["pips"][0]
    assert f">{pips[0]}<" in body  # the board's own pip count
    assert f"{pips[0]} pips" in players.group(0)
    old, theirs = view["board"]["pips"][0], view["board"]["pips"][1]
    # The old count is gone from the list (the opponent's may happen to be the same number).
    assert players.group(0).count(f"{old} pips") == (1 if theirs == old else 0)
    # The whole frame (no steps yet) says the same in both places.
    page = client.get(f"/en/play/{table.pk}/").content.decode()
    assert page.count("Your move: pick a checker, then where it goes.") >= 2


def _finish(client: Client, table: Table, games: int = 0) -> None:
    """Play on until the game (or, with ``games``, that many games of a match) is over."""
    owner = access.Owner(None, table.seats.get(number=0).guest_key or None)
    presence.seat_connected(table_id=table.pk, seat=0)
    for _ in range(400):
        _bot_moves(table)
        table.refresh_from_db()
        s = replay.load(table)
        if s.is_over or (games and isinstance(s, bg.Match) and len(s.games) >= games):
            return
        legal = s.legal_actions()
        # Resign a single game early on: a quick end the bot accepts or rejects.
        action = "resign:1" if "resign:1" in legal and len(s.history) > 6 else legal[0]
        if "accept" in legal:
            action = "accept"
        if "take" in legal:
            action = "drop"
        moves.apply_action(
            table_id=table.pk, owner=owner, action=action, expected_version=table.version
        )
    raise AssertionError("the game did not end")


def test_bg_replay_shows_positions_checks_the_dice_and_exports_mat(client: Client) -> None:
    table = _play_now(client)
    assert client.get(f"/en/play/{table.pk}/replay/1/").status_code == 404
    _finish(client, table)
    page = client.get(f"/en/play/{table.pk}/").content.decode()
    assert "replay/1/" in page
    response = client.get(f"/en/play/{table.pk}/replay/1/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The seed is in the committed chain." in html
    assert "The dice recompute from the seeds." in html
    assert "4HPwATDgc/ABMA" in html  # the starting Position ID
    game = replay.load(table)
    for _seat, action in game.history:
        assert action  # every action is a row
    # The snippet runs with the standard library and agrees.
    pre = r"<pre dir=\"ltr\" lang=\"zxx\"><code>(import hashlib.*?)</code></pre>"
    snippet = re.search(pre, html, re.S)
    assert snippet is not None
    code = snippet.group(1).replace("&quot;", '"').replace("&#x27;", "'").replace("&gt;", ">")
    code = code.replace("&lt;", "<").replace("&amp;", "&")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["commitment matches: True", "dice match: True"]
    mat = client.get(f"/en/play/{table.pk}/replay/1/mat/")
    assert mat.status_code == 200
    assert "attachment" in mat["Content-Disposition"]
    parsed = matfile.parse(mat.content.decode())
    assert len(parsed.games) == 1
    for lang in ("ur", "hi"):
        assert english_left(client.get(f"/{lang}/play/{table.pk}/replay/1/").content.decode(),
                            lang) == []


def test_bg_new_table_form_creates_a_match_with_the_chosen_rules(
    client: Client, make_user: Any
) -> None:
    make_user("bilal")
    assert client.login(username="bilal", password=PASSWORD)
    form = client.get("/en/play/new/backgammon/").content.decode()
    for name in ("length", "cube", "jacoby", "beaver", "auto_doubles", "crawford", "start",
                 "bot_level"):
        assert f'name="{name}"' in form
    bad = client.post("/en/play/new/backgammon/", {"length": "5", "jacoby": "on",
                                                   "move_seconds": "60"})
    assert bad.status_code == 200 and "for money games only" in bad.content.decode()
    assert not Table.objects.filter(game="backgammon").exists()
    ok = client.post("/en/play/new/backgammon/", {
        "length": "5", "cube": "on", "crawford": "on", "start": "standard", "bot": "on",
        "bot_level": "expert", "auto_doubles": "0", "move_seconds": "60", "spectators": "on",
    })
    assert ok.status_code == 302
    table = Table.objects.get(game="backgammon")
    assert table.target == 5 and table.options["bot_level"] == "expert"
    assert table.status == Table.PLAYING
    page = client.get(f"/en/play/{table.pk}/").content.decode()
    assert "Match to 5 points" in page


def test_bg_match_page_after_game_one_says_its_result_and_links_its_replay(
    client: Client,
) -> None:
    _play_now(client)  # gives the guest a key in their session
    owner = access.Owner(None, client.session["guest_key"])
    table = lifecycle.create_table(
        owner=owner, game="backgammon", length=3, bots=[1], move_seconds=None, private=True,
    )
    _finish(client, table, games=1)
    table.refresh_from_db()
    assert len(replay.load(table).games) >= 1
    page = client.get(f"/en/play/{table.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Game 1:" in html and 'href="replay/1/"' in html
    assert "Match to 3 points" in html
    assert client.get(f"/en/play/{table.pk}/replay/1/").status_code == 200
    for lang in ("ur", "hi"):
        assert english_left(client.get(f"/{lang}/play/{table.pk}/").content.decode(), lang) == []


def test_bg_the_lobby_names_the_bot_level_and_an_old_tables_level_by_its_new_name() -> None:
    from django.utils import translation

    from game.backgammon.views import options_text

    with translation.override("en"):
        assert "Bot: Expert" in options_text("backgammon", {"bot_level": "expert"}, 0)
        assert "Bot: Beginner" in options_text("backgammon", {"bot_level": "beginner"}, 0)
        # "easy" and "medium" were stored before the levels had their names.
        assert "Bot: Intermediate" in options_text("backgammon", {"bot_level": "easy"}, 0)
        assert "Bot: Expert" in options_text("backgammon", {"bot_level": "medium"}, 0)
        assert "Bot: Intermediate" in options_text("backgammon", {}, 0)
    with translation.override("ur"):
        assert "بوٹ: ماہر" in options_text("backgammon", {"bot_level": "expert"}, 0)
    with translation.override("hi"):
        assert "बॉट: शुरुआती" in options_text("backgammon", {"bot_level": "beginner"}, 0)


def test_bg_play_now_asks_for_the_level_remembers_it_and_the_table_says_it(
    client: Client,
) -> None:
    lobby = client.get("/en/play/").content.decode()
    assert re.search(r'name="bot_level"', lobby)
    assert '<option value="intermediate" selected>' in lobby  # the default
    made = client.post("/en/play/now/", {"game": "backgammon", "bot_level": "beginner"})
    assert made.status_code == 302
    first = Table.objects.get(game="backgammon")
    assert first.options == {"bot_level": "beginner"}
    page = client.get(made["Location"]).content.decode()
    assert 'data-testid="bot-level"' in page and "Bot: Beginner" in page
    # no level: the last one chosen (a new table: past "Continue your game")
    client.post("/en/play/now/", {"new": "1", "game": "backgammon"})
    last = Table.objects.filter(game="backgammon").latest("created_at")
    assert last.pk != first.pk and last.options == {"bot_level": "beginner"}
    assert '<option value="beginner" selected>' in client.get("/en/play/").content.decode()
    bad = client.post("/en/play/now/", {"new": "1", "game": "backgammon", "bot_level": "hard"})
    assert bad.status_code == 400
