"""Progress: stars per account and per guest session, merged on sign-in and sign-up."""

from __future__ import annotations

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
