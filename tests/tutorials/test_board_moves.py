"""Moving checkers on a lesson's board: the live tables' board and planner
(game.bgboard, game.bgmoves), one click per die, doubles included, judged by the engine.

Every right play is made here as a learner makes it, one step at a time through the
board's own endpoint, and the play the board then offers to confirm is posted; a wrong
play (legal, but not what the step asks) is made the same way and refused.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game.engine import backgammon as bg
from tutorials.lessons import BY_SLUG, LESSONS
from tutorials.steps.backgammon import BgMove
from tutorials.steps.base import LessonError

pytestmark = pytest.mark.django_db

LANGS = ("ur", "hi", "en")
MOVES = [
    (lesson, step) for lesson in LESSONS for step in lesson.steps if isinstance(step, BgMove)
]


IDS = [f"{lesson.slug}-{step.id}" for lesson, step in MOVES]


def _reach(client: Client, lang: str, lesson, step) -> str:
    """Answer the steps before `step` right; the lesson's URL."""
    url = f"/{lang}/learn/{lesson.slug}/"
    client.post(f"{url}restart/")
    for earlier in lesson.steps[: lesson.steps.index(step)]:
        client.post(url, {"step": earlier.id, "answer": sorted(earlier.correct())[0]})
    return url


def _on_board(client: Client, lang: str, slug: str, step: BgMove, play: bg.Play) -> str:
    """Make `play` on the board one die at a time, as board.js sends the clicks; the
    notation the finished board offers to confirm."""
    steps: list[str] = []
    html = ""
    for src, dst, _hit in play.moves():
        die = src - dst if dst else None
        # A checker borne off by a higher die than its point: the die is the planner's.
        steps.append(f"{src},{dst}" if die is None or die not in step.dice_to_play
                     else f"{src},{dst},{die}")
        r = client.get(f"/{lang}/learn/{slug}/board/", {"step": step.id, "steps": ";".join(steps)})
        assert r.status_code == 200, (step.id, steps, r.content.decode())
        html = r.content.decode()
    found = re.search(r'data-bg-action="confirm" data-play="([^"]+)"', html)
    assert found, (step.id, "the board offers no Confirm after the whole play")
    return found.group(1)


def test_bg_move_steps_in_the_lessons_that_need_them() -> None:
    slugs = {lesson.slug for lesson, _step in MOVES}
    assert slugs >= {"bg-moving", "bg-hitting", "bg-bar", "bg-bear-off", "bg-dice"}
    doubles = [s for _l, s in MOVES if s.roll and s.roll[0] == s.roll[1]]
    assert len(doubles) >= 2  # a double on the board: four moves
    assert {s.want for _l, s in MOVES} >= {"hit", "point", "most-off"}


@pytest.mark.parametrize(("lesson", "step"), MOVES, ids=IDS)
def test_bg_6_every_right_play_is_made_on_the_board_and_judged_right(
    client: Client, lesson, step: BgMove
) -> None:
    plays = {str(p): p for p in bg.legal_plays(step.pos, step.roll)}
    assert step.correct() <= set(plays)  # the answers are the engine's plays
    for lang in LANGS:
        url = _reach(client, lang, lesson, step)
        wrong = next(p for p in plays.values() if str(p) not in step.correct())
        play = _on_board(client, lang, lesson.slug, step, wrong)
        assert play == str(wrong)
        r = client.post(url, {"step": step.id, "answer": play}, HTTP_HX_REQUEST="true")
        assert "feedback--wrong" in r.content.decode(), (lang, step.id, play)
        for right in sorted(step.correct()):
            play = _on_board(client, lang, lesson.slug, step, plays[right])
            assert play == right
            assert step.check(play)
        r = client.post(url, {"step": step.id, "answer": play}, HTTP_HX_REQUEST="true")
        body = r.content.decode()
        assert "feedback--right" in body, (lang, step.id, play)
        # Answered: the board shows the position after the play, with nothing to click.
        assert 'data-interactive="1"' not in body and "bg-src" not in body


@pytest.mark.parametrize(("lesson", "step"), MOVES, ids=IDS)
def test_bg_6_the_board_offers_only_steps_of_legal_plays(client: Client, lesson, step) -> None:
    url = _reach(client, "en", lesson, step)
    html = client.get(url).content.decode()
    board = html[html.index('<div class="lesson-board"') :]
    sources = {int(p) for p in re.findall(r'class="bg-src" data-from="(\d+)"', board)}
    firsts = {p.moves()[0][0] for p in bg.legal_plays(step.pos, step.roll)}
    # A checker is offered when some legal play may start with it (any order of a play).
    assert sources and sources <= {src for p in bg.legal_plays(step.pos, step.roll)
                                   for src, _d, _h in p.moves()}
    assert firsts <= sources or step.pos.board()[1][24]  # the bar enters first
    if step.pos.board()[1][24]:
        assert sources == {25}, "nothing moves before the bar has entered (BG-8)"
    # A step that is part of no legal play is refused; the board is not redrawn.
    mine = [p for p in range(1, 25) if step.pos.board()[1][p - 1]]
    blocked = next(p for p in range(1, 25) if step.pos.board()[0][24 - p] >= 2)
    bad = f"{mine[-1]},{blocked}" if mine[-1] > blocked else "6,30"
    r = client.get(f"/en/learn/{lesson.slug}/board/", {"step": step.id, "steps": bad})
    assert r.status_code == 422
    assert "That checker cannot go there" in r.content.decode()
    # Nothing on the page marks the right plays: only points, and the dice used.
    assert "correct" not in board.lower() and "data-right" not in board
    hidden = re.findall(r'<input type="hidden" name="(\w+)"', html)
    assert sorted(set(hidden)) == ["csrfmiddlewaretoken", "step"]


def test_bg_8_entering_hits_from_the_bar_on_the_board(client: Client) -> None:
    lesson = BY_SLUG["bg-bar"]
    step = lesson.step("enter-and-hit")
    _reach(client, "en", lesson, step)
    r = client.get("/en/learn/bg-bar/board/", {"step": step.id, "steps": "25,20,5"})
    html = r.content.decode()
    assert 'data-announce="Bar to 20, hitting a blot"' in html
    # Now any checker may use the 3; before, only the bar's.
    assert len(re.findall(r'class="bg-src" data-from="', html)) > 1


def test_bg_move_board_endpoint_refuses_other_steps(client: Client) -> None:
    lesson = BY_SLUG["bg-dice"]
    other = lesson.steps[0]
    assert not isinstance(other, BgMove)
    assert client.get("/en/learn/bg-dice/board/", {"step": other.id}).status_code == 404
    assert client.get("/en/learn/bg-dice/board/", {"step": "nope"}).status_code == 404
    r = client.get("/en/learn/bg-dice/board/", {"step": "double-on-the-board", "steps": "x"})
    assert r.status_code == 422


@pytest.mark.parametrize("lang", LANGS)
def test_bg_5_a_double_is_four_moves_on_the_board_and_in_the_choosers(
    client: Client, lang: str
) -> None:
    lesson = BY_SLUG["bg-dice"]
    step = lesson.step("double-on-the-board")
    assert step.roll == (4, 4)
    url = _reach(client, lang, lesson, step)
    html = client.get(url).content.decode()
    # Without JavaScript: four choosers, one per four.
    fallback = html[html.index("<noscript>") : html.index("</noscript>")]
    assert fallback.count('<select name="answer" required>') == 4
    # On the board, four clicks: 13 to 9, 9 to 5, twice; the dice used go grey.
    steps = ["13,9,4", "9,5,4", "13,9,4", "9,5,4"]
    for n in range(1, 5):
        made = ";".join(steps[:n])
        r = client.get(f"/{lang}/learn/bg-dice/board/", {"step": step.id, "steps": made})
        assert r.status_code == 200
        assert r.content.decode().count("bg-die bg-die-used") == n
    assert 'data-play="13/5(2)"' in r.content.decode()
    # The choosers' answer is judged the same: 13, 9, 13, 9 (each four in turn).
    r = client.post(url, {"step": step.id, "answer": ["13", "9", "13", "9"]})
    assert "feedback--right" in r.content.decode()


def test_bg_move_choosers_may_name_the_dice_in_any_order() -> None:
    step = BY_SLUG["bg-hitting"].step("hit-on-the-board")
    assert step.roll == (6, 3)
    # The 6 from the 10-point, the 3 from the 13-point: 13/10*/4*, the 3 played first.
    assert step.check("10,13")
    assert step.played("10,13") == "13/10*/4*"
    assert not step.check("24,8")  # 24/18 8/5: legal, but no hit
    assert not step.check("13,99") and not step.check("bar/3")


def test_bg_move_wants_need_a_point_and_something_to_learn() -> None:
    start = "4HPwATDgc/ABMA"
    with pytest.raises(LessonError, match="point=0"):
        BgMove("x", position=start, dice=((6, 1),), want="point").correct()
    # From the start nothing can bear off: every legal play bears off "the most", none.
    with pytest.raises(LessonError, match="every legal play"):
        BgMove("x", position=start, dice=((6, 5),), want="most-off").validate()
    with pytest.raises(LessonError, match="no legal play"):
        BgMove("x", position="tu0GAMD/DwAACA", dice=((6, 1),)).validate()


@pytest.mark.parametrize("lang", LANGS)
def test_a_lessons_board_shows_no_pip_count_and_no_cube(client: Client, lang: str) -> None:
    # A newcomer read step 5's answer (a pip count) off step 4's board, and took the
    # cube's 64 for something to count. The live table's board keeps both.
    from game.backgammon import board as bgboard
    from tutorials.present import move_board

    lesson, step = MOVES[0]
    html = client.get(_reach(client, lang, lesson, step)).content.decode()
    board = html[html.index('class="lesson-board"'):]
    board = board[:board.index("</svg>")]
    assert 'class="bg-pips"' not in board and 'class="bg-cube' not in board
    desc = re.search(r"<desc>(.*?)</desc>", board, re.S)
    assert desc and not re.search("Pips|پِپ|पिप", desc.group(1))  # nor for a screen reader
    table = bgboard.board_svg(step.state.apply("roll").view(0)
                              if step.state.view(0)["phase"] == "roll" else step.state.view(0))
    assert 'class="bg-pips"' in table and "bg-cube" in table
    assert str(move_board(step)).count('class="bg-pips"') == 0
