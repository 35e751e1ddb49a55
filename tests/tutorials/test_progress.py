"""Progress: stars per account and per guest session, merged on sign-in and sign-up."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tutorials.lessons import LESSONS
from tutorials.models import LessonProgress
from tutorials.progress import merge_session_into, stars_for_mistakes

pytestmark = pytest.mark.django_db


def _finish(client: Client, lesson, lang: str = "en", mistakes: int = 0) -> None:
    url = f"/{lang}/learn/{lesson.slug}/"
    for n, step in enumerate(lesson.steps):
        if n < mistakes:
            client.post(url, {"step": step.id, "answer": step.a_wrong_answer()})
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})


def test_stars_follow_mistakes() -> None:
    assert [stars_for_mistakes(m) for m in (0, 1, 2, 3, 9)] == [3, 2, 2, 1, 1]


def test_a_guest_keeps_stars_in_the_session(client: Client) -> None:
    _finish(client, LESSONS[0])
    assert client.session["learn_stars"] == {LESSONS[0].slug: 3}
    page = client.get("/en/learn/").content.decode()
    assert "Stars: 3 of 3" in page
    assert LessonProgress.objects.count() == 0


def test_an_account_keeps_stars_in_the_database_and_the_best_run_wins(client: Client) -> None:
    user = get_user_model().objects.create_user("asma", password="x")
    client.force_login(user)
    _finish(client, LESSONS[1], mistakes=3)
    assert LessonProgress.objects.get(user=user, lesson=LESSONS[1].slug).stars == 1
    _finish(client, LESSONS[1])
    _finish(client, LESSONS[1], mistakes=1)
    assert LessonProgress.objects.get(user=user, lesson=LESSONS[1].slug).stars == 3
    profile = client.get("/en/accounts/profile/").content.decode()
    assert "Lessons finished: 1 of" in profile


def test_guest_progress_is_merged_when_they_sign_in(client: Client) -> None:
    user = get_user_model().objects.create_user("bilal", password="x")
    LessonProgress.objects.create(user=user, lesson=LESSONS[0].slug, stars=3)
    _finish(client, LESSONS[0], mistakes=1)  # 2 stars: the account's 3 stay
    _finish(client, LESSONS[2])
    client.force_login(user)  # fires user_logged_in, as allauth's sign-in does
    rows = dict(LessonProgress.objects.filter(user=user).values_list("lesson", "stars"))
    assert rows == {LESSONS[0].slug: 3, LESSONS[2].slug: 3}
    assert "learn_stars" not in client.session


def test_merge_ignores_unknown_lessons_and_bad_stars(client: Client) -> None:
    user = get_user_model().objects.create_user("chand", password="x")
    session = client.session
    session["learn_stars"] = {"no-such-lesson": 3, LESSONS[0].slug: 7, LESSONS[1].slug: 2}
    merge_session_into(session, user)
    assert dict(LessonProgress.objects.values_list("lesson", "stars")) == {LESSONS[1].slug: 2}


def test_next_lesson_is_the_first_without_stars(client: Client) -> None:
    _finish(client, LESSONS[0])
    page = client.get("/en/learn/").content.decode()
    assert f'href="/en/learn/{LESSONS[1].slug}/">Next lesson' in page.replace("\n", "")


def test_signup_signal_merges_too(client: Client, rf) -> None:
    from allauth.account.signals import user_signed_up

    _finish(client, LESSONS[0])
    user = get_user_model().objects.create_user("dua", password="x")
    request = rf.get("/")
    request.session = client.session
    user_signed_up.send(sender=user.__class__, request=request, user=user)
    assert LessonProgress.objects.get(user=user).stars == 3


def _progress(html: str) -> tuple[int, int]:
    bar = re.search(r'<progress max="(\d+)" value="(\d+)"', html)
    assert bar is not None
    return int(bar.group(2)), int(bar.group(1))


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-post"])
def test_the_progress_bar_is_full_when_the_lesson_is_complete(client: Client, htmx: bool) -> None:
    lesson = LESSONS[0]
    url = f"/en/learn/{lesson.slug}/"
    total = len(lesson.steps)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    assert _progress(client.get(url).content.decode()) == (0, total)
    for n, step in enumerate(lesson.steps):
        wrong = client.post(url, {"step": step.id, "answer": step.a_wrong_answer()}, **extra)
        if not htmx:  # a wrong answer moves nothing (htmx sends no bar for it)
            assert _progress(wrong.content.decode()) == (n, total)
        right = client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]}, **extra)
        body = right.content.decode()
        # Every step is a question (the explanations are read on the same step), so each
        # right answer is one step of the bar, and the last one fills it.
        assert _progress(body) == (n + 1, total)
        if htmx:
            assert 'id="lesson-progress" class="lesson-progress" hx-swap-oob="true"' in body
    assert "lesson-done" in body


def test_a_right_answer_sends_the_question_back_disabled(client: Client) -> None:
    lesson = LESSONS[0]
    url = f"/en/learn/{lesson.slug}/"
    step = lesson.steps[0]
    wrong = client.post(url, {"step": step.id, "answer": step.a_wrong_answer()},
                        HTTP_HX_REQUEST="true").content.decode()
    assert "hx-swap-oob" not in wrong  # the question stays, to be tried again
    right = client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]},
                        HTTP_HX_REQUEST="true").content.decode()
    assert '<div id="step-ask" hx-swap-oob="true">' in right
    assert "<fieldset disabled>" in right


def _key_bands(html: str) -> tuple[int, int, int]:
    text = re.sub(r"<[^>]+>", " ", html)
    two = re.search(r"(\d+) or (\d+) mistakes", text)
    one = re.search(r"(\d+) mistakes or more", text)
    assert "no mistakes" in text and two and one, "the stars are not explained"
    return int(two.group(1)), int(two.group(2)), int(one.group(1))


def test_the_star_key_says_what_stars_for_mistakes_does(client: Client) -> None:
    low, high, more = _key_bands(client.get("/en/learn/").content.decode())
    for mistakes in range(12):
        said = 3 if mistakes == 0 else 2 if low <= mistakes <= high else 1
        assert mistakes == 0 or low <= mistakes <= high or mistakes >= more
        assert stars_for_mistakes(mistakes) == said, mistakes


@pytest.mark.parametrize(("mistakes", "said"), [(0, "No mistakes: three stars."),
                                                 (1, "You made 1 mistake."),
                                                 (3, "You made 3 mistakes.")])
def test_the_end_of_a_lesson_explains_its_stars(client: Client, mistakes: int, said: str) -> None:
    lesson = LESSONS[0]
    url = f"/en/learn/{lesson.slug}/"
    for n, step in enumerate(lesson.steps):
        if n < mistakes:
            client.post(url, {"step": step.id, "answer": step.a_wrong_answer()})
        last = client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
    html = last.content.decode()
    assert said in html
    assert f"Stars: {stars_for_mistakes(mistakes)} of 3" in html
    _key_bands(html)
    again = "Play the lesson again without a mistake for three stars."
    assert (again in html) == (mistakes > 0)


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_the_star_key_is_in_urdu_and_hindi(client: Client, lang: str) -> None:
    from tests.language import english_left

    html = client.get(f"/{lang}/learn/").content.decode()
    assert 'class="star-key"' in html
    assert english_left(html, lang) == []
