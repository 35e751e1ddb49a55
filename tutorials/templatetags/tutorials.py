"""Template tags other pages use to point at lessons: the rules pages and the profile."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext

from tutorials.content import get_text
from tutorials.lessons import LESSONS
from tutorials.models import LessonProgress

register = template.Library()

# The guide wraps each "## " heading and what follows it in one <section> (never nested:
# guide.content._LinkTreeprocessor._sections), the heading first, carrying its anchor.
_SECTION = re.compile(r'<section><h2 id="(?P<anchor>[^"]+)">.*?</section>', flags=re.DOTALL)


def cited_sections(page: str, lang: str) -> dict[str, list[dict[str, str]]]:
    """Anchor of a section of guide page `page` -> the lessons whose steps cite it (their
    ``rule:`` lines, in this language), in teaching order, each once."""
    found: dict[str, list[dict[str, str]]] = {}
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        if text is None:
            continue
        for step in text.steps:
            if step.rule_page != page or not step.rule_anchor:
                continue
            row = {"slug": lesson.slug, "title": text.title}
            if row not in found.setdefault(step.rule_anchor, []):
                found[step.rule_anchor].append(row)
    return found


def _section_links(lessons: list[dict[str, str]]) -> SafeString:
    links = format_html_join(
        " · ",
        '<a href="{}">{}</a>',
        ((reverse("tutorials:lesson", kwargs={"slug": x["slug"]}), x["title"]) for x in lessons),
    )
    label = ngettext("Lesson:", "Lessons:", len(lessons))
    return format_html('<p class="section-lessons">{} {}</p>', label, links)


@register.filter
def with_lesson_links(html: str, page: str) -> SafeString:
    """A rules (or house-rules) page's HTML with, at the end of each section a lesson's
    steps cite, a link to that lesson: the rule read, the learner can play it there."""
    cited = cited_sections(page, translation.get_language())

    def add(match: re.Match[str]) -> str:
        lessons = cited.get(match["anchor"])
        section = match.group(0)
        if not lessons:
            return section
        end = section.rindex("</section>")
        return section[:end] + _section_links(lessons) + section[end:]

    # The page's HTML is our own rendering of trusted content (guide.content), already safe.
    return mark_safe(_SECTION.sub(add, html))


@register.inclusion_tag("tutorials/rule_lessons.html")
def lessons_for_page(slug: str) -> dict[str, Any]:
    """The lessons that teach a rules page: each lesson names its page, and a lesson whose
    steps cite the page (the house rules) counts too."""
    lang = translation.get_language()
    citing = {x["slug"] for rows in cited_sections(slug, lang).values() for x in rows}
    found = []
    for lesson in LESSONS:
        text = get_text(lang, lesson.slug)
        if (lesson.rules_page == slug or lesson.slug in citing) and text is not None:
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
