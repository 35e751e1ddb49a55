"""Template tags other pages use to point at lessons: the rules pages and the profile."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation

from tutorials.content import get_text
from tutorials.lessons import LESSONS
from tutorials.models import LessonProgress

register = template.Library()


@register.inclusion_tag("tutorials/rule_lessons.html")
def lessons_for_page(slug: str) -> dict[str, Any]:
    """The lessons that teach a rules page (each lesson names its page)."""
    lang = translation.get_language()
    found = []
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        if lesson.rules_page == slug and text is not None:
            found.append({"slug": lesson.slug, "title": text.title})
    return {"lessons": found}


@register.inclusion_tag("tutorials/profile_progress.html")
def lessons_completed(user: Any) -> dict[str, Any]:
    lang = translation.get_language()
    rows = dict(LessonProgress.objects.filter(user=user).values_list("lesson", "stars"))
    done = []
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        if lesson.slug in rows and text is not None:
            done.append({"slug": lesson.slug, "title": text.title, "stars": rows[lesson.slug]})
    return {"done": done, "total": len(LESSONS)}
