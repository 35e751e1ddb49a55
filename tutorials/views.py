"""Lesson and practice pages. Reading works without JavaScript (plain form POSTs); with
htmx an answer is one request that returns only the feedback."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from game.engine import backgammon as bg
from tutorials import labels, progress
from tutorials import practice as practice_mod
from tutorials.content import LessonText, get_text
from tutorials.lessons import BY_SLUG, LESSONS
from tutorials.present import ask_html, move_board, present_step, rule_url, why_html
from tutorials.steps.backgammon import BgMove
from tutorials.steps.base import Lesson, Option


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _lesson_and_text(slug: str) -> tuple[Lesson, LessonText]:
    lesson = BY_SLUG.get(slug)
    text = get_text(translation.get_language(), slug) if lesson else None
    if lesson is None or text is None:
        raise Http404("No such lesson in this language.")
    return lesson, text


def _listing(request: HttpRequest) -> list[dict[str, Any]]:
    lang = translation.get_language()
    stars = progress.all_stars(request)
    runs = progress.all_runs(request)
    rows = []
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        if text is None:
            continue
        at = runs.get(lesson.slug)
        rows.append(
            {
                "lesson": lesson,
                "text": text,
                "stars": stars.get(lesson.slug, 0),
                "steps": len(lesson.steps),
                # The step a run stopped at (the page reopens there); a lesson changed
                # since to fewer steps reopens at its last, as lesson() does.
                "at": min(at, len(lesson.steps)) if at is not None else None,
            }
        )
    return rows


def next_lesson(request: HttpRequest, after: str | None = None) -> dict[str, Any] | None:
    """The first lesson without stars (after `after`, if given), else None."""
    rows = _listing(request)
    if after is not None:
        slugs = [r["lesson"].slug for r in rows]
        rows = rows[slugs.index(after) + 1 :] + rows[: slugs.index(after) + 1]
    return next((r for r in rows if not r["stars"] and r["lesson"].slug != after), None)


@require_http_methods(["GET"])
def index(request: HttpRequest) -> HttpResponse:
    rows = _listing(request)
    groups = [
        (_("Court Piece"), [r for r in rows if r["lesson"].game == "courtpiece"]),
        (_("Backgammon"), [r for r in rows if r["lesson"].game == "backgammon"]),
    ]
    done = sum(1 for r in rows if r["stars"])
    return render(
        request,
        "tutorials/index.html",
        {
            "groups": groups,
            "next": next_lesson(request),
            "done": done,
            "total": len(rows),
            "skills": practice_mod.skill_list(),
        },
    )


def _step_context(
    request: HttpRequest, lesson: Lesson, text: LessonText, index: int
) -> dict[str, Any]:
    step = lesson.steps[index]
    step_text = text.step(step.id)
    if step_text is None:
        raise Http404("This step is not written in this language yet.")
    return {
        "lesson": lesson,
        "text": text,
        "index": index,
        "number": index + 1,
        "total": len(lesson.steps),
        # Steps answered right so far; _answer counts the current one once it is right.
        "steps_done": index,
        "step": present_step(step),
        "step_text": step_text,
        "ask": ask_html(step, step_text.ask),
        "why": why_html(step, step_text.why),
        "action": reverse("tutorials:lesson", kwargs={"slug": lesson.slug}),
        "stars": progress.all_stars(request).get(lesson.slug, 0),
        "rule_url": rule_url(step_text.rule_page, step_text.rule_anchor),
    }


@require_http_methods(["GET", "POST"])
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    lesson, text = _lesson_and_text(slug)
    run = progress.get_run(request, slug)
    index = min(run["step"], len(lesson.steps) - 1)
    if request.method == "GET":
        return render(request, "tutorials/lesson.html", _step_context(request, lesson, text, index))
    return _answer(request, lesson, text, run, index)


def _answer(
    request: HttpRequest, lesson: Lesson, text: LessonText, run: dict[str, int], index: int
) -> HttpResponse:
    step = lesson.steps[index]
    ctx = _step_context(request, lesson, text, index)
    posted_step = request.POST.get("step", "")
    answer = _posted_answer(request)
    feedback: dict[str, Any]
    status = 200
    if posted_step != step.id:
        # An old tab or a second click after the step was done: nothing changes.
        feedback = {"state": "stale", "message": _("This step is already behind you.")}
    elif not _well_formed(ctx["step"], answer):
        feedback = {
            "state": "invalid",
            "message": _("Choose one of the answers, or type a whole number."),
        }
        status = 400
    elif step.check(answer):
        done = index + 1 >= len(lesson.steps)
        feedback = {"state": "right", "done": done, "mistakes": run["mistakes"]}
        ctx["steps_done"] = index + 1
        if done:
            stars = progress.stars_for_mistakes(run["mistakes"])
            progress.record(request, lesson.slug, stars)
            progress.set_run(request, lesson.slug, None)
            feedback.update(
                stars=stars,
                best=progress.all_stars(request).get(lesson.slug, stars),
                next=next_lesson(request, after=lesson.slug),
            )
        else:
            progress.set_run(request, lesson.slug, {"step": index + 1, "mistakes": run["mistakes"]})
    else:
        progress.set_run(request, lesson.slug, {"step": index, "mistakes": run["mistakes"] + 1})
        feedback = {"state": "wrong"}
    if feedback["state"] in ("right", "wrong") and isinstance(step, BgMove):
        # Say back the play the learner made, in notation, so the why reads against it.
        played = step.played(answer)
        feedback["played"] = labels.option_label(Option(played, "play", played))
        if feedback["state"] == "right":
            ctx["step"]["move_board"] = move_board(step, answer=answer)  # the play made
    ctx["feedback"] = feedback
    ctx["chosen"] = answer
    if ctx["step"]["widget"] == "move" and BgMove.sources_of(answer) is not None:
        # Each die's chooser (without JavaScript) keeps the point the learner chose.
        for die, point in zip(ctx["step"]["move_dice"], answer.split(","), strict=False):
            die["chosen"] = point
    if _is_htmx(request):
        # htmx swaps the feedback (and, out of band, the progress and the answered
        # question); a 400 is still shown (see the page's htmx config).
        return render(request, "tutorials/_answered.html", ctx, status=status)
    return render(request, "tutorials/lesson.html", ctx, status=status)


def _posted_answer(request: HttpRequest) -> str:
    # The move widget posts one "answer" per die (the point a checker leaves).
    values = [v.strip() for v in request.POST.getlist("answer")]
    return ",".join(values) if len(values) > 1 else (values[0] if values else "")


def _well_formed(step: dict[str, Any], answer: str) -> bool:
    if step["widget"] == "move":
        # The board sends the play in notation; the choosers one point per die.
        sources = BgMove.sources_of(answer)
        if sources is None:
            try:
                return len(answer) <= 60 and bool(bg.parse_notation(answer))
            except ValueError:
                return False
        given = [p for p in sources if p is not None]
        dice = step["move_dice"]
        if len(sources) != len(dice) or not given or not all(1 <= p <= 25 for p in given):
            return False
        return len(given) == len(sources) or not dice[0]["required"]
    if step["widget"] == "number":
        number = answer.removeprefix("-")
        return number.isascii() and number.isdigit() and len(answer) <= 4  # not "²"
    return answer in {o["value"] for o in step["options"]}


@require_http_methods(["GET"])
def board(request: HttpRequest, slug: str) -> HttpResponse:
    """A move step's board after the checker steps made so far (htmx, from
    static/js/lessons.js): ``step`` the step's id, ``steps`` ``src,dst[,die];…`` as the
    board sends them. The planner is built again from the step's position, so a step that
    is part of no legal play gets 422 and a short reason, and the board stays as it was."""
    lesson, _text = _lesson_and_text(slug)
    step = lesson.step(request.GET.get("step", ""))
    if not isinstance(step, BgMove):
        raise Http404("No such move step.")
    raw = request.GET.get("steps", "")
    try:
        steps = [[int(x) for x in part.split(",")] for part in raw.split(";") if part]
        if len(steps) > 8 or any(len(s) not in (2, 3) for s in steps):
            raise ValueError("a step is src,dst or src,dst,die; a turn has at most 8")
        html = move_board(step, steps)
    except (ValueError, TypeError):  # bg.IllegalMove is a ValueError
        refusal = _("That checker cannot go there: choose another step.")
        return HttpResponse(format_html('<p class="error">{}</p>', refusal), status=422)
    return HttpResponse(html)


@require_POST
def restart(request: HttpRequest, slug: str) -> HttpResponse:
    lesson, _text = _lesson_and_text(slug)
    progress.set_run(request, lesson.slug, None)
    return redirect("tutorials:lesson", slug=lesson.slug)


# --- practice ---------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def practice(request: HttpRequest, skill: str) -> HttpResponse:
    if skill not in practice_mod.SKILLS:
        raise Http404("No such practice.")
    state = practice_mod.get_state(request.session, skill)
    puzzle = practice_mod.puzzle(skill, state["seed"], state["n"])
    ctx: dict[str, Any] = {
        "skill": practice_mod.skill_info(skill),
        "step": present_step(puzzle.step),
        "state": state,
        "action": reverse("tutorials:practice", kwargs={"skill": skill}),
        "rule_url": rule_url(*practice_mod.rule_link(skill, translation.get_language())),
    }
    if request.method == "GET":
        return render(request, "tutorials/practice.html", ctx)
    answer = _posted_answer(request)
    status = 200
    if request.POST.get("n") != str(state["n"]):
        feedback: dict[str, Any] = {
            "state": "stale",
            "message": _("This position is already behind you."),
        }
    elif not _well_formed(ctx["step"], answer):
        feedback = {
            "state": "invalid",
            "message": _("Choose one of the answers, or type a whole number."),
        }
        status = 400
    elif puzzle.step.check(answer):
        state = practice_mod.advance(request.session, skill, right=True)
        feedback = {"state": "right"}
    else:
        state = practice_mod.advance(request.session, skill, right=False)
        feedback = {"state": "wrong"}
    ctx.update(feedback=feedback, state=state, why=practice_mod.skill_info(skill)["why"])
    if _is_htmx(request):
        return render(request, "tutorials/_practice_answered.html", ctx, status=status)
    return render(request, "tutorials/practice.html", ctx, status=status)
