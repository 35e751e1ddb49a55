"""Every lesson's language-neutral data, one module per lesson, in teaching order.

A module defines ``LESSON`` (tutorials.steps.Lesson). The words are in
tutorials/content/<lang>/<slug>.md; tests check both sides agree and that the engine
accepts every step.
"""

from __future__ import annotations

from importlib import import_module

from tutorials.steps import Lesson

MODULES = (
    "follow_suit",
    "when_to_trump",
    "trick_winner",
    "count_trumps",
    "spot_renege",
    "bg_moving",
)

LESSONS: tuple[Lesson, ...] = tuple(
    import_module(f"tutorials.lessons.{name}").LESSON for name in MODULES
)
BY_SLUG: dict[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}
