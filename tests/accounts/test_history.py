"""Every finished game counts (issue 27): results kept for each signed-in player, the
unrated ones (bots, guests, Play now) apart from the rated ones on the player's page, the
recent games with their replays, and the rating's course as a server-drawn SVG chart."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import GameResult, GameStats
from accounts.services import record_game
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def _vs_bots(user: Any, table: int, won: bool, game: str = "backgammon") -> None:
    record_game(game, [[user], ["bot"]], 0 if won else 1, table=table, hands=3,
                finished_at=NOW + timedelta(minutes=table), rated=False, private=True)


def test_a_game_against_a_bot_is_kept_apart_from_the_rating(make_user: Any) -> None:
    alice = make_user("alice")
    _vs_bots(alice, 7, won=True)
    row = GameResult.objects.get(user=alice)
    assert (row.game, row.table, row.hands, row.rated, row.won, row.rating) == (
        "backgammon", 7, 3, False, True, None
    )
    assert row.opponents == ["bot"] and row.partners == []
    assert not GameStats.objects.exists()  # the rating did not move


def test_recording_a_table_twice_counts_it_once(make_user: Any) -> None:
    alice = make_user("alice")
    _vs_bots(alice, 7, won=True)
    _vs_bots(alice, 7, won=False)
    assert GameResult.objects.filter(user=alice).count() == 1


def test_a_rated_game_keeps_each_players_new_rating(make_user: Any) -> None:
    a, b, c, d = (make_user(n) for n in ("alice", "bilal", "chand", "dina"))
    record_game("rung", [[a, c], [b, d]], 0, table=3, hands=5, finished_at=NOW, rated=True)
    rows = {r.user_id: r for r in GameResult.objects.all()}
    stats = {s.user_id: s for s in GameStats.objects.all()}
    assert len(rows) == 4 and all(r.rated for r in rows.values())
    for user in (a, b, c, d):
        assert rows[user.pk].rating == pytest.approx(stats[user.pk].rating)
    assert rows[a.pk].won and not rows[b.pk].won
    assert rows[a.pk].partners == ["@chand"] and rows[a.pk].opponents == ["@bilal", "@dina"]


def test_a_court_piece_game_with_bots_and_a_guest_names_them(make_user: Any) -> None:
    alice = make_user("alice")
    record_game("rung", [[alice, "bot"], ["guest", "bot"]], 1, table=4, hands=7,
                finished_at=NOW, rated=False)
    row = GameResult.objects.get()
    assert (row.won, row.partners, row.opponents) == (False, ["bot"], ["guest", "bot"])


@pytest.mark.parametrize(
    ("sides", "rated", "message"),
    [
        ([["robot"], ["bot"]], False, "not a registered player"),
        ("alice-vs-bot", True, "account at every seat"),
        ([["alice"], ["bot"]], False, "not a registered player"),
    ],
)
def test_bad_input_records_nothing(
    make_user: Any, sides: Any, rated: bool, message: str
) -> None:
    alice = make_user("alice")
    if sides == "alice-vs-bot":
        sides = [[alice], ["bot"]]
    elif sides[0] == ["robot"]:
        sides = [[alice, "robot"], ["bot", "bot"]]
    with pytest.raises(ValueError, match=message):
        record_game("rung", sides, 0, table=1, hands=1, finished_at=NOW, rated=rated)
    assert not GameResult.objects.exists() and not GameStats.objects.exists()


def test_unknown_game_records_nothing(make_user: Any) -> None:
    alice = make_user("alice")
    with pytest.raises(ValueError, match="unknown game"):
        record_game("chess", [[alice], ["bot"]], 0, table=1, hands=1, finished_at=NOW,
                    rated=False)
    assert not GameResult.objects.exists()


def _cells(html: str, table_id: str, game: str) -> list[str]:
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    row = table.split(f'data-game="{game}"', 1)[1].split("</tr>", 1)[0]
    return re.findall(r"<td>([^<]*)</td>", row)


def test_the_page_counts_unrated_games_apart(client: Client, make_user: Any) -> None:
    alice = make_user("alice")
    _vs_bots(alice, 1, won=True)
    _vs_bots(alice, 2, won=False)
    _vs_bots(alice, 3, won=True)
    html = client.get("/en/players/alice/").content.decode()
    assert _cells(html, "unrated-stats", "backgammon") == ["3", "2", "1"]
    assert _cells(html, "rated-stats", "backgammon")[:3] == ["0", "0", "0"]
    assert "3 games played: 0 rated, 3 not rated." in html


def test_the_history_links_each_replay_and_hides_private_tables_from_visitors(
    client: Client, make_user: Any
) -> None:
    alice = make_user("alice")
    make_user("bilal")
    _vs_bots(alice, 11, won=True)  # Play now: a private table
    record_game("backgammon", [[alice], ["guest"]], 1, table=12, hands=1,
                finished_at=NOW + timedelta(hours=1), rated=False, private=False)
    assert client.login(username="alice", password=PASSWORD)
    html = client.get("/en/players/alice/").content.decode()
    recent = html.split('class="recent-games"', 1)[1].split("</ul>", 1)[0]
    assert recent.index('data-table="12"') < recent.index('data-table="11"')  # newest first
    for n in (1, 2, 3):
        assert f'href="/en/play/11/replay/{n}/"' in recent
    assert 'href="/en/play/12/replay/1/"' in recent
    assert 'href="/en/play/11/replay/4/"' not in recent
    client.logout()
    assert client.login(username="bilal", password=PASSWORD)
    seen = client.get("/en/players/alice/").content.decode()
    assert 'data-table="12"' in seen and 'data-table="11"' not in seen
    # …but the counts are public: both games count.
    assert _cells(seen, "unrated-stats", "backgammon") == ["2", "1", "1"]


def test_the_rating_course_is_an_accessible_svg_with_its_figures(
    client: Client, make_user: Any
) -> None:
    a, b = make_user("alice"), make_user("bilal")
    for k in range(3):
        record_game("backgammon", [[a], [b]], 0, table=20 + k, hands=1,
                    finished_at=NOW + timedelta(minutes=k), rated=True)
    ratings = list(
        GameResult.objects.filter(user=a).order_by("finished_at").values_list("rating", flat=True)
    )
    assert ratings == sorted(ratings) and ratings[0] > 0  # three wins: rising
    html = client.get("/en/players/alice/").content.decode()
    figure = html.split('class="rating-course" data-game="backgammon"', 1)[1].split("</figure>")[0]
    assert 'role="img"' in figure and 'aria-labelledby="course-title-backgammon' in figure
    assert "<title" in figure and "<desc" in figure
    assert "over 3 rated games" in figure
    points = re.search(r'<polyline class="course" points="([^"]+)"', figure)
    assert points is not None
    coords = [tuple(map(float, p.split(","))) for p in points.group(1).split()]
    assert len(coords) == 4  # the start, then each game
    ys = [y for _x, y in coords]
    assert ys == sorted(ys, reverse=True)  # rising rating: the line climbs (y shrinks)
    for r in ratings:
        assert f"<td>{r:.1f}</td>" in figure  # the figures, as text
    assert "<script" not in figure


def test_no_chart_without_rated_games(client: Client, make_user: Any) -> None:
    alice = make_user("alice")
    _vs_bots(alice, 1, won=True)
    html = client.get("/en/players/alice/").content.decode()
    assert "rating-course" not in html
