"""Practice: fresh engine positions from a seed, checked on the server, a streak."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorials import practice

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("skill", practice.SKILLS)
def test_positions_come_from_the_seed_and_each_has_a_right_and_wrong_answer(skill: str) -> None:
    seen = set()
    for n in range(4):
        a = practice.puzzle(skill, "seed-a", n)
        b = practice.puzzle.__wrapped__(skill, "seed-a", n)
        assert a.step.correct() == b.step.correct()
        a.step.validate()
        assert not a.step.check(a.step.a_wrong_answer())
        seen.add(repr(a.step.context())[:400])
    assert len(seen) > 1  # fresh positions, not one repeated


@pytest.mark.parametrize("skill", practice.SKILLS)
def test_streak_grows_on_right_and_resets_on_wrong(client: Client, skill: str) -> None:
    url = f"/en/learn/practice/{skill}/"
    html = client.get(url).content.decode()
    # Nothing in the page but the CSRF token and the position number is hidden.
    hidden = re.findall(r'<input type="hidden" name="(\w+)"', html)
    assert sorted(set(hidden)) == ["csrfmiddlewaretoken", "n"]
    state = client.session["learn_practice"][skill]
    for _ in range(2):
        p = practice.puzzle(skill, state["seed"], state["n"])
        r = client.post(
            url, {"n": state["n"], "answer": sorted(p.step.correct())[0]}, HTTP_HX_REQUEST="true"
        )
        assert "feedback--right" in r.content.decode()
        state = client.session["learn_practice"][skill]
    assert state["streak"] == 2 and state["n"] == 2
    p = practice.puzzle(skill, state["seed"], state["n"])
    r = client.post(url, {"n": state["n"], "answer": p.step.a_wrong_answer()})
    assert "feedback--wrong" in r.content.decode()
    state = client.session["learn_practice"][skill]
    assert state["streak"] == 0 and state["best"] == 2 and state["n"] == 2


def test_unknown_skill_is_404(client: Client) -> None:
    assert client.get("/en/learn/practice/juggling/").status_code == 404


@pytest.mark.parametrize("lang", ["ur", "hi"])
@pytest.mark.parametrize("skill", practice.SKILLS)
def test_practice_pages_have_no_english(client: Client, lang: str, skill: str) -> None:
    from tests.language import english_left

    url = f"/{lang}/learn/practice/{skill}/"
    html = client.get(url).content.decode()
    assert english_left(html, lang) == []
    # The feedback too, wrong and then right (with and without htmx): the verdict, the
    # why, the streak and the button to the next position.
    state = client.session["learn_practice"][skill]
    p = practice.puzzle(skill, state["seed"], state["n"])
    wrong = client.post(url, {"n": state["n"], "answer": p.step.a_wrong_answer()})
    assert "feedback--wrong" in wrong.content.decode()
    assert english_left(wrong.content.decode(), lang) == []
    right = client.post(
        url, {"n": state["n"], "answer": sorted(p.step.correct())[0]}, HTTP_HX_REQUEST="true"
    )
    assert "feedback--right" in right.content.decode()
    assert english_left(right.content.decode(), lang) == []


@pytest.mark.parametrize("skill", practice.SKILLS)
def test_practice_rule_links_point_at_sections_the_guide_renders(skill: str) -> None:
    from guide.content import get_page

    for lang in ("ur", "hi", "en"):
        page, anchor = practice.rule_link(skill, lang)
        assert anchor in [a for a, _ in get_page(lang, page).toc], (skill, lang)


def test_cp_10_every_renege_practice_holds_a_renege() -> None:
    # A swapped card only makes a renege when the player had followed suit; seeds where
    # the generator's first try fails must still yield a real one (find_reneges decides).
    for n in range(40):
        p = practice.puzzle("renege", "renege-seed", n)
        assert p.step.correct()


@pytest.mark.parametrize("skill", ["follow-suit", "pip-count"])
def test_the_streak_is_shown_once_and_an_answer_updates_that_one(
    client: Client, skill: str
) -> None:
    """Issue 27: the page's streak said 2 while the answer's box said 1. One streak now,
    at the top; an htmx answer swaps that very element (out of band)."""
    url = f"/en/learn/practice/{skill}/"
    page = client.get(url).content.decode()
    assert page.count('class="streak"') == 1 and 'id="practice-streak"' in page
    state = client.session["learn_practice"][skill]
    for expected in (1, 2):
        p = practice.puzzle(skill, state["seed"], state["n"])
        r = client.post(
            url, {"n": state["n"], "answer": sorted(p.step.correct())[0]}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert r.count('class="streak"') == 1
        swapped = re.search(
            r'<p class="streak" id="practice-streak" data-streak="(\d+)" '
            r'hx-swap-oob="true">',
            r,
        )
        assert swapped and int(swapped.group(1)) == expected
        state = client.session["learn_practice"][skill]
    # Reloaded (the "Next position" link), the top says the same as the last answer did.
    page = client.get(url).content.decode()
    assert 'data-streak="2"' in page and page.count('class="streak"') == 1
    p = practice.puzzle(skill, state["seed"], state["n"])
    wrong = client.post(
        url, {"n": state["n"], "answer": p.step.a_wrong_answer()}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'data-streak="0"' in wrong and wrong.count('class="streak"') == 1


def test_practice_is_reachable_from_the_top_of_the_lessons_page(client: Client) -> None:
    html = client.get("/en/learn/").content.decode()
    jump = html.index('data-testid="practice-jump"')
    first_lesson = html.index('class="lesson-card')
    assert jump < first_lesson and 'href="#practice-title"' in html[jump - 200 : jump]
    assert 'id="practice-title"' in html
