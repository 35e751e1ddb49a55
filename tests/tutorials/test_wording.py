"""How the lessons read: whole questions in every language, cards named as players say
them, no notes for ourselves on the page, and pictures that agree with the words."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from tutorials import labels, pictures
from tutorials.content import get_text
from tutorials.lessons import BY_SLUG, LESSONS
from tutorials.present import present_step
from tutorials.steps.backgammon import BgMayI, BgMove, BgStep
from tutorials.steps.base import LessonError
from tutorials.steps.courtpiece import MayI

LANGS = ("ur", "hi", "en")
PAIRS = [(lesson, lang) for lesson in LESSONS for lang in LANGS]
QUESTION_END = ("?", "؟", ".", "۔", "।")


def _id(pair: tuple) -> str:
    return f"{pair[0].slug}-{pair[1]}"


def _card_action(step: object) -> str | None:
    kind, _sep, card = str(getattr(step, "action", "")).partition(":")
    return card if kind in ("play", "hide") else None


@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_every_question_is_a_whole_sentence(pair) -> None:
    lesson, lang = pair
    text = get_text(lang, lesson.slug)
    for step in lesson.steps:
        ask = text.step(step.id).ask
        # "May you play this card: Play the Two of Hearts" was a question cut off at a
        # colon, finished by a button label. A question ends as a sentence does.
        assert ask.endswith(QUESTION_END), (lang, step.id, ask)
        assert ("{card}" in ask) == (_card_action(step) is not None), (lang, step.id, ask)
        assert not re.search(r"\{(?!card\})", ask), (lang, step.id, ask)


@pytest.mark.django_db
@pytest.mark.parametrize("pair", PAIRS, ids=_id)
def test_a_yes_or_no_question_names_its_action_once_and_in_words(client: Client, pair) -> None:
    lesson, lang = pair
    url = f"/{lang}/learn/{lesson.slug}/"
    for step in lesson.steps:
        if isinstance(step, MayI | BgMayI):
            html = client.get(url).content.decode()
            legend = re.search(r'<legend class="question">(.*?)</legend>', html, re.S)
            assert legend is not None
            with translation.override(lang):
                button_label = labels.action_label(step.action)
                card = _card_action(step)
                card_name = pictures.card_label(card) if card else None
            question = legend.group(1).strip()
            # The question ends as a question, not with the action's button label after it.
            assert question.endswith(QUESTION_END), (lang, step.id, question)
            assert not question.endswith(button_label), (lang, step.id, question)
            if card_name:
                assert question.count("<strong>") == 1, (lang, step.id)
                assert f"<strong>{card_name}</strong>" in question, (lang, step.id)
            else:
                assert "<strong>" not in question, (lang, step.id)
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})


def test_a_card_placeholder_in_a_question_about_no_card_is_refused() -> None:
    from tutorials.present import ask_html

    step = BY_SLUG["redeal"].steps[0]  # MayI on "redeal": no card in it
    with pytest.raises(LessonError, match="no card"):
        ask_html(step, "Can you play the {card}?")
    play = BY_SLUG["follow-suit"].steps[2]
    with translation.override("en"):
        assert str(ask_html(play, "Can you play the {card}?")) == (
            "Can you play the <strong>Two of Hearts</strong>?"
        )
        # The words are escaped; only the card's <strong> is markup.
        assert "&lt;b&gt;" in str(ask_html(play, "<b>{card}</b>"))


@pytest.mark.parametrize(
    ("lang", "card", "name"),
    [
        ("ur", "2H", "پان کی دُگّی"),
        ("ur", "QC", "چِڑیا کی بیگم"),
        ("ur", "9H", "پان کا نہلا"),
        ("ur", "KS", "حُکم کا بادشاہ"),
        ("hi", "2H", "पान का 2"),  # Hindi cards write 9…2 as digits (RULES CP-12)
        ("hi", "7D", "ईंट का 7"),
        ("hi", "QC", "चिड़ी की बेगम"),
        ("hi", "TS", "हुकुम का दहला"),
        ("en", "TS", "Ten of Spades"),
    ],
)
def test_card_names_agree_with_the_rank_as_players_say_them(
    lang: str, card: str, name: str
) -> None:
    # Urdu and Hindi join suit and rank with کا/का or کی/की by the rank's gender, and the
    # lessons say the number cards in words (dukki, satti), not digits.
    with translation.override(lang):
        assert pictures.card_label(card) == name


@pytest.mark.django_db
def test_bids_read_as_the_table_says_them(client: Client) -> None:
    html = client.get("/en/learn/hukum/").content.decode()
    assert "West: 8 Hearts" in html
    assert ">Bid 9 Spades</button>" in html
    assert "Bid 8, Hearts" not in html


@pytest.mark.parametrize("lang", LANGS)
def test_no_lesson_text_talks_about_the_engine(lang: str) -> None:
    # "The engine counts your five" was a note for ourselves; the learner sees a game.
    words = {"en": r"\bengine\b", "ur": r"کھیل (نے|آپ کے|انہیں)", "hi": r"खेल (ने|आपके|उन्हें)"}
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        parts = [text.intro_html] + [s.html + s.ask + s.why for s in text.steps]
        for part in parts:
            assert not re.search(words[lang], part), (lang, lesson.slug, part[:80])


@pytest.mark.parametrize("lesson", [x for x in LESSONS if x.game == "backgammon"],
                         ids=lambda x: x.slug)
def test_the_dice_shown_are_the_dice_the_question_names(lesson) -> None:
    text = get_text("en", lesson.slug)
    for step in lesson.steps:
        assert isinstance(step, BgStep)
        shown = present_step(step).get("dice")
        named = re.search(r"(\d) and (\d)", text.step(step.id).ask)
        if named and shown:
            assert tuple(int(d) for d in named.groups()) == tuple(shown), step.id


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_a_cube_decision_before_the_roll_shows_no_dice(client: Client, lang: str) -> None:
    lesson = BY_SLUG["bg-cube"]
    url = f"/{lang}/learn/bg-cube/"
    with translation.override(lang):
        your_dice = translation.gettext("Your dice: %(a)s and %(b)s.").split("%")[0]
    for step in lesson.steps[:4]:  # may double, cube after a take, no redouble, a drop
        assert present_step(step)["dice"] is None, step.id
        html = client.get(url).content.decode()
        assert your_dice not in html, (lang, step.id)
        client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})


@pytest.mark.django_db
def test_moving_by_hand_offers_only_points_with_your_checkers(client: Client) -> None:
    lesson = BY_SLUG["bg-moving"]
    step = next(s for s in lesson.steps if isinstance(s, BgMove))
    board = step.context()["board"]
    mine = {str(p) for p in range(1, 25) if board["points"][p - 1] > 0}
    for die in present_step(step)["move_dice"]:
        assert {p["value"] for p in die["points"]} == mine  # no bar: nobody is on it
    url = "/en/learn/bg-moving/"
    for earlier in lesson.steps[: lesson.steps.index(step)]:
        client.post(url, {"step": earlier.id, "answer": sorted(earlier.correct())[0]})
    html = client.get(url).content.decode()
    # Nothing is chosen for the learner: each chooser starts on an empty "Choose a point".
    assert html.count('<select name="answer" required><option value="">Choose a point') == 2
    empty = client.post(url, {"step": step.id, "answer": ["", "8"]})
    assert empty.status_code == 400
    right = client.post(url, {"step": step.id, "answer": ["13", "8"]}).content.decode()
    # The answered choosers keep the learner's points, beside "Your play: 13/7 8/7".
    assert '<option value="13" selected>' in right and '<option value="8" selected>' in right


# The reasons that state the step's answer. They once spelled it out ("worth seven
# points", "fifty-two points", "minus sixteen"), which nothing tied to the engine; now each
# writes {answer} in every language and the page fills it from the step's correct().
STATES_THE_ANSWER = {
    ("rung-scoring", "ordinary-win"),
    ("rung-scoring", "court"),
    ("rung-scoring", "baawan"),
    ("rung-scoring", "biyasi"),
    ("hukum", "set"),
    ("single-sar", "one-point"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_reason_that_states_the_answer_takes_it_from_the_engine(lang: str) -> None:
    from tutorials.present import why_html

    placed = set()
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        for step in lesson.steps:
            why = text.step(step.id).why
            if "{answer}" in why:
                placed.add((lesson.slug, step.id))
                (value,) = step.correct()  # one right answer, or the page raises
                with translation.override(lang):
                    shown = str(why_html(step, why))
                assert f'<bdi dir="ltr">{value}</bdi>' in shown, (lang, step.id, shown)
                assert "{" not in shown
            else:
                # Any other reason states no number of its own in digits: a number in a
                # reason is the engine's, or a rule's written in words.
                answers = step.correct()
                assert not any(re.search(rf"(?<!\d){re.escape(a)}(?!\d)", why) for a in answers
                               if a.lstrip("-").isdigit()), (lang, lesson.slug, step.id, why)
    assert placed == STATES_THE_ANSWER, placed ^ STATES_THE_ANSWER


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_feedback_says_the_engines_points(client: Client, lang: str) -> None:
    lesson = BY_SLUG["hukum"]
    url = f"/{lang}/learn/hukum/"
    for step in lesson.steps:
        r = client.post(url, {"step": step.id, "answer": sorted(step.correct())[0]})
        if step.id == "set":
            assert step.correct() == {"-16"}
            assert '<bdi dir="ltr">-16</bdi>' in r.content.decode()


def test_an_answer_placeholder_needs_one_answer() -> None:
    from tutorials.present import why_html

    legal = BY_SLUG["follow-suit"].steps[0]  # several cards may be right
    assert len(legal.correct()) > 1
    with pytest.raises(LessonError, match="answers"):
        why_html(legal, "You may play {answer}.")
    court = BY_SLUG["rung-scoring"].steps[2]
    with translation.override("en"):
        shown = str(why_html(court, "worth {answer} points"))
    assert shown == 'worth <bdi dir="ltr">13</bdi> points'
