"""Every lesson's language-neutral data, one module per lesson, in teaching order.

A module defines ``LESSON`` (tutorials.steps.base.Lesson). The words are in
tutorials/content/<lang>/<slug>.md; tests check both sides agree and that the engine
accepts every step.
"""

from __future__ import annotations

from importlib import import_module

from tutorials.steps.base import Lesson

MODULES = (
    "follow_suit",
    "when_to_trump",
    "trick_winner",
    "call_trump",
    "redeal",
    "rung_scoring",
    "count_trumps",
    "spot_renege",
    "partner_signals",
    "single_sar",
    "call_timers",
    "hidden_rung",
    "double_sar",
    "be_ranga",
    "mendikot",
    "hukum",
    "bg_moving",
    "bg_hitting",
    "bg_bar",
    "bg_bear_off",
    "bg_dice",
    "bg_cube",
)

LESSONS: tuple[Lesson, ...] = tuple(
    import_module(f"tutorials.lessons.{name}").LESSON for name in MODULES
)
BY_SLUG: dict[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}
