"""A signed-in learner's finished lessons (guests keep theirs in the session)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LessonProgress(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress"
    )
    lesson = models.SlugField(max_length=64)  # tutorials.lessons slug
    stars = models.PositiveSmallIntegerField()  # 1..3, the best run so far
    completed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "lesson"], name="one_progress_per_lesson"),
            models.CheckConstraint(
                condition=models.Q(stars__gte=1, stars__lte=3), name="stars_1_to_3"
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.lesson} {self.stars}"


class MistakeProgress(models.Model):
    """A signed-in player's puzzle made from one of their own mistakes (tutorials.mistakes):
    solved or not, and how many legal answers they tried (guests keep theirs in the
    session)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mistake_progress"
    )
    key = models.CharField(max_length=40)  # "<table>:<hand>:<puzzle>" (tutorials.mistakes)
    solved = models.BooleanField(default=False)
    tries = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "key"], name="one_progress_per_mistake"),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.key} {'solved' if self.solved else self.tries}"
