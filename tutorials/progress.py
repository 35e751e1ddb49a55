"""Lesson progress: stars per lesson, in the database for accounts and in the session for
guests; a guest's stars are merged into the account when they sign up or sign in.

The run through a lesson (which step, how many mistakes) lives in the session for
everyone: it is short-lived, and a page reload must not lose it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction

from tutorials.models import LessonProgress, MistakeProgress

SESSION_STARS = "learn_stars"
SESSION_RUNS = "learn_runs"
SESSION_MISTAKES = "learn_mistakes"


def stars_for_mistakes(mistakes: int) -> int:
    """3 stars without a mistake, 2 for one or two, 1 otherwise (as lichess Learn).
    tutorials/_star_key.html says so to the learner; a test reads it back against this."""
    if mistakes == 0:
        return 3
    return 2 if mistakes <= 2 else 1


def all_stars(request: Any) -> dict[str, int]:
    if request.user.is_authenticated:
        rows = LessonProgress.objects.filter(user=request.user).values_list("lesson", "stars")
        return dict(rows)
    return dict(request.session.get(SESSION_STARS, {}))


def record(request: Any, slug: str, stars: int) -> int:
    """Keep the best stars for a lesson; returns the best."""
    if request.user.is_authenticated:
        return _save_best(request.user, {slug: stars})[slug]
    saved = dict(request.session.get(SESSION_STARS, {}))
    saved[slug] = max(stars, saved.get(slug, 0))
    request.session[SESSION_STARS] = saved
    return saved[slug]


@transaction.atomic
def _save_best(user: Any, stars: dict[str, int]) -> dict[str, int]:
    best: dict[str, int] = {}
    for slug, n in stars.items():
        row, created = LessonProgress.objects.select_for_update().get_or_create(
            user=user, lesson=slug, defaults={"stars": n}
        )
        if not created and n > row.stars:
            row.stars = n
            row.save(update_fields=["stars", "completed_at"])
        best[slug] = max(n, row.stars)
    return best


def merge_session_into(session: SessionBase, user: Any) -> None:
    """A guest signed up or in: their stars join the account's (the best of both kept)."""
    from tutorials.lessons import BY_SLUG

    guest = {
        slug: int(n)
        for slug, n in (session.get(SESSION_STARS) or {}).items()
        if slug in BY_SLUG and 1 <= int(n) <= 3
    }
    if guest:
        _save_best(user, guest)
    session.pop(SESSION_STARS, None)
    for key, mine in (session.get(SESSION_MISTAKES) or {}).items():
        _save_mistake(user, str(key)[:40], bool(mine.get("solved")), int(mine.get("tries", 0)))
    session.pop(SESSION_MISTAKES, None)


def get_run(request: Any, slug: str) -> dict[str, int]:
    runs = request.session.get(SESSION_RUNS, {})
    run = runs.get(slug) or {}
    return {"step": int(run.get("step", 0)), "mistakes": int(run.get("mistakes", 0))}


def all_runs(request: Any) -> dict[str, int]:
    """Lesson slug -> the step (1-based) a run stopped at, for every lesson begun and not
    finished (a finished or restarted lesson has no run)."""
    runs = request.session.get(SESSION_RUNS, {})
    return {slug: int((run or {}).get("step", 0)) + 1 for slug, run in runs.items()}


def set_run(request: Any, slug: str, run: dict[str, int] | None) -> None:
    runs = dict(request.session.get(SESSION_RUNS, {}))
    if run is None:
        runs.pop(slug, None)
    else:
        runs[slug] = run
    request.session[SESSION_RUNS] = runs


# --- puzzles made from the player's own mistakes (tutorials.mistakes) ------------------


def mistakes(request: Any, prefix: str = "") -> dict[str, dict[str, Any]]:
    """Puzzle key -> {"solved", "tries"} for every puzzle tried whose key starts with
    ``prefix`` (``"<table>:<hand>:"``: one hand's)."""
    if request.user.is_authenticated:
        rows = MistakeProgress.objects.filter(user=request.user, key__startswith=prefix)
        return {r.key: {"solved": r.solved, "tries": r.tries} for r in rows}
    saved = request.session.get(SESSION_MISTAKES, {})
    return {k: dict(v) for k, v in saved.items() if k.startswith(prefix)}


def record_mistake(request: Any, key: str, solved: bool) -> dict[str, Any]:
    """One more legal answer to puzzle ``key``; ``solved``: it was right. A puzzle once
    solved stays solved."""
    if request.user.is_authenticated:
        return _save_mistake(request.user, key, solved, 1)
    saved = dict(request.session.get(SESSION_MISTAKES, {}))
    mine = dict(saved.get(key) or {"solved": False, "tries": 0})
    mine = {"solved": bool(mine["solved"]) or solved, "tries": int(mine["tries"]) + 1}
    saved[key] = mine
    request.session[SESSION_MISTAKES] = saved
    return mine


@transaction.atomic
def _save_mistake(user: Any, key: str, solved: bool, tries: int) -> dict[str, Any]:
    row, _created = MistakeProgress.objects.select_for_update().get_or_create(
        user=user, key=key
    )
    row.solved = row.solved or solved
    row.tries += max(0, tries)
    row.save(update_fields=["solved", "tries", "updated_at"])
    return {"solved": row.solved, "tries": row.tries}
