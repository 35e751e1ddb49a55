"""Every lesson, every step, every language, through the engine and the pages.

The right answer is never typed here either: it comes from the step (which asks the
engine), and the test proves the page accepts it and refuses a wrong one.
"""

from __future__ import annotations

import pytest
from django.test import Client

from game.engine import courtpiece as cp
from guide.content import get_page
from tests.language import english_left
from tutorials.content import available_languages, get_text
from tutorials.lessons import LESSONS
from tutorials.steps.backgammon import BgPlay
from tutorials.steps.base import LessonError
from tutorials.steps.courtpiece import Deal, PickWinner, PlayCard, SpotRenege

LANGS = ("ur", "hi", "en")
PAIRS = [(lesson, lang) for lesson in LESSONS for lang in LANGS]


def _id(pair: tuple) -> str:
    return f"{pair[0].slug}-{pair[1]}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_step_has_a_right_and_a_wrong_answer_from_the_engine(lesson) -> None:
    assert len(lesson.steps) >= 4
    for step in lesson.steps:
        step.validate()
        assert step.check(next(iter(step.correct())))
        assert not step.check(step.a_wrong_answer())


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_is_written_in_every_language(lesson) -> None:
    assert available_languages(lesson.slug) == ["ur", "hi", "en"]
    ids = [s.id for s in lesson.steps]
    for lang in LANGS:
        text = get_text(lang, lesson.slug)
        assert text is not None
        assert [s.id for s in text.steps] == ids, f"{lang}/{lesson.slug}.md steps differ"


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_rule_links_point_at_sections_the_guide_renders(pair) -> None:
    lesson, lang = pair
    for step in get_text(lang, lesson.slug).steps:
        page = get_page(lang, step.rule_page)
        assert page is not None, step.rule_page
        assert step.rule_anchor in [a for a, _ in page.toc], (lang, step.id, step.rule_anchor)


@pytest.mark.django_db
@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_walk_every_step_with_a_wrong_then_a_right_answer(client: Client, pair) -> None:
    lesson, lang = pair
    url = f"/{lang}/learn/{lesson.slug}/"
    for n, step in enumerate(lesson.steps):
        page = client.get(url)
        assert page.status_code == 200
        html = page.content.decode()
        assert f'name="step" value="{step.id}"' in html
        if lang != "en":
            assert english_left(html, lang) == [], (step.id, english_left(html, lang)[:5])
        wrong = client.post(
            url, {"step": step.id, "answer": step.a_wrong_answer()}, HTTP_HX_REQUEST="true"
        )
        assert wrong.status_code == 200
        assert "feedback--wrong" in wrong.content.decode()
        if lang != "en":
            assert english_left(wrong.content.decode(), lang) == []
        right = client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
        body = right.content.decode()
        assert "feedback--right" in body
        if n == len(lesson.steps) - 1:
            assert "lesson-done" in body
        if lang != "en":
            # The right answer's why, the next step's button and, at the end, the stars,
            # the mistakes and the next lesson: all in the page's language.
            assert english_left(body, lang) == [], (step.id, english_left(body, lang)[:5])
    # One mistake per step: at most two stars, kept as the guest's progress.
    stars = client.session["learn_stars"][lesson.slug]
    assert stars == (2 if len(lesson.steps) <= 2 else 1)


@pytest.mark.django_db
def test_a_stale_or_malformed_answer_changes_nothing(client: Client) -> None:
    lesson = LESSONS[0]
    url = f"/en/learn/{lesson.slug}/"
    first = lesson.steps[0]
    r = client.post(url, {"step": "no-such-step", "answer": sorted(first.correct())[0]})
    assert "feedback--stale" in r.content.decode()
    r = client.post(url, {"step": first.id, "answer": "ZZ"})
    assert r.status_code == 400
    assert "feedback--invalid" in r.content.decode()
    assert "learn_runs" not in client.session or not client.session["learn_runs"].get(lesson.slug)


def test_cp_5_a_deal_that_breaks_the_engine_fails_the_lesson() -> None:
    # Playing a heart on a spade lead while holding spades: the engine refuses it.
    bad = Deal.of("rung", ["QS 2H", "", "", "KS AH 5H 3D 6C"], "call:H play:KS play:2H", dealer=2)
    with pytest.raises(LessonError, match="must follow"):
        bad.hand()


def test_cp_7_winner_comes_from_playing_the_trick_out() -> None:
    step = PickWinner(
        "t",
        Deal.of(
            "rung", ["KS AH 5H 3C 6C", "3S", "AS", "9S"], "call:H play:KS play:3S play:AS play:9S"
        ),
    )
    assert step.correct() == {"2"}


def test_cp_10_renege_is_found_by_find_reneges() -> None:
    hands = (
        "AS KS QS AH KH 2D 3D 4D 5C 6C 7C 8C 9C",
        "2S 3S 4S 2H 3H AD KD QD JD AC KC QC JC",
        "5S 6S 7S 4H 5H TD 9D 8D 7D TC 2C 3C 4C",
        "8S 9S TS 6H 7H JS 8H 9H TH JH QH 6D 5D",
    )
    step = SpotRenege(
        "r", hands=hands, history="0 call:H, 0 play:AS, 1 play:2S, 2 play:4H, 3 play:8S"
    )
    assert step.correct() == {"0:2:4H"}
    assert cp.find_reneges(step.actions, step.deal) == [(0, 2, "4H")]


def test_play_card_win_needs_the_last_card_of_a_trick() -> None:
    step = PlayCard(
        "p",
        Deal.of("rung", ["QS 9S", "", "", "KS AH 5H 3D 6C"], "call:H play:KS", dealer=2),
        want="win",
    )
    with pytest.raises(LessonError, match="last card"):
        step.correct()


def test_bg_6_a_play_that_leaves_a_number_unused_is_wrong() -> None:
    step = BgPlay("b", position="4HPwATDgc/ABMA", dice=((5, 3),), choices=("13/8", "8/3 6/3"))
    assert step.correct() == {"8/3 6/3"}


@pytest.mark.django_db
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_the_page_never_carries_the_answer(client: Client, lesson) -> None:
    import re

    html = client.get(f"/en/learn/{lesson.slug}/").content.decode()
    hidden = re.findall(r'<input type="hidden" name="(\w+)"', html)
    assert sorted(set(hidden)) == ["csrfmiddlewaretoken", "step"]
    # Every offered answer is drawn the same way: no class or attribute marks the right one.
    step = lesson.steps[0]
    if step.widget != "number":
        # The right options are offered exactly like the wrong ones.
        buttons = re.findall(
            r'<button type="submit" name="answer" value="([^"]+)" class="([^"]+)"', html
        )
        assert {v for v, _ in buttons} >= set(step.correct())
        assert len({c for _, c in buttons}) == 1
    assert "correct" not in html.lower() and "data-right" not in html


@pytest.mark.django_db
def test_bg_3_moving_by_hand_says_back_the_play(client: Client) -> None:
    from tutorials.lessons import BY_SLUG

    lesson = BY_SLUG["bg-moving"]
    url = "/en/learn/bg-moving/"
    step = next(s for s in lesson.steps if s.widget == "move")
    for earlier in lesson.steps[: lesson.steps.index(step)]:
        client.post(url, {"step": earlier.id, "answer": sorted(earlier.correct())[0]})
    wrong = client.post(url, {"step": step.id, "answer": ["13", "13"]})  # 13/7 13/12
    assert "feedback--wrong" in wrong.content.decode()
    assert "13/7 13/12" in wrong.content.decode()
    bad = client.post(url, {"step": step.id, "answer": ["13", "99"]})
    assert bad.status_code == 400
    right = client.post(url, {"step": step.id, "answer": ["13", "8"]})  # 13/7 8/7
    assert "feedback--right" in right.content.decode()
    assert "13/7 8/7" in right.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("answer", [["13", "²"], ["¹³", "8"], ["١٣", "8"], "²", ["13", "8" * 40]])
def test_a_move_answer_of_other_digits_is_malformed_not_a_fault(client: Client, answer) -> None:
    """str.isdigit() takes "²" and "١٣", which int() refuses or reads: only ASCII digits are
    points (issue 26)."""
    from tutorials.lessons import BY_SLUG

    lesson = BY_SLUG["bg-moving"]
    url = "/en/learn/bg-moving/"
    step = next(s for s in lesson.steps if s.widget == "move")
    for earlier in lesson.steps[: lesson.steps.index(step)]:
        client.post(url, {"step": earlier.id, "answer": sorted(earlier.correct())[0]})
    bad = client.post(url, {"step": step.id, "answer": answer})
    assert bad.status_code == 400
    assert "feedback--invalid" in bad.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["²", "-²", "١", "１"])
def test_a_number_answer_of_other_digits_is_malformed(client: Client, answer: str) -> None:
    lesson, step = next(
        (lesson, step) for lesson in LESSONS for step in lesson.steps if step.widget == "number"
    )
    url = f"/en/learn/{lesson.slug}/"
    for earlier in lesson.steps[: lesson.steps.index(step)]:
        client.post(url, {"step": earlier.id, "answer": sorted(earlier.correct())[0]})
    bad = client.post(url, {"step": step.id, "answer": answer})
    assert bad.status_code == 400
    assert "feedback--invalid" in bad.content.decode()
