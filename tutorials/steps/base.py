"""What every lesson step shares, whichever game it teaches.

A step holds only a position (a Court Piece deal and the actions played on it, or a
backgammon Position ID and dice) and what it asks. Which answers are right is never
written down: `correct()` works it out from the engine's public surface (docs/ENGINE_CONTRACT.md)
each time, so a lesson can never disagree with the tables. A step whose data makes no
sense to the engine (an illegal action, no wrong option to choose, a question with no
answer) raises `LessonError` when it is built; tests build every step.

Widgets (how the learner answers) are few: ``cards`` (click a card), ``choice`` (buttons,
one per option), ``number`` (type a number), ``yesno``, ``tricks`` (click a card in a
trick list) and ``move`` (move checkers on the board).

Nothing here asks an engine: each game's steps (tutorials.steps.courtpiece,
tutorials.steps.backgammon) import this module, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


class LessonError(ValueError):
    """A step's data does not work with the engine; the message says which step and why."""


@dataclass(frozen=True)
class Option:
    value: str  # what the form posts; never says whether it is right
    kind: str  # "card" | "action" | "seat" | "suit" | "team" | "number" | "play" | "yesno"
    data: str = ""  # the card, action, seat … the label is drawn from


@dataclass(eq=False)
class Step:
    id: str
    widget: ClassVar[str] = "choice"
    game: ClassVar[str] = "courtpiece"  # every Court Piece step's; BgStep sets its own

    def options(self) -> list[Option]:
        return []

    def correct(self) -> frozenset[str]:
        raise NotImplementedError

    def check(self, answer: str) -> bool:
        return answer.strip() in self.correct()

    def validate(self) -> None:
        """Raise LessonError unless the step has a right and a wrong answer."""
        right = self.correct()
        if not right:
            raise LessonError(f"step {self.id}: the engine gives no right answer")
        if self.widget in ("choice", "cards", "yesno"):
            values = {o.value for o in self.options()}
            if not right <= values:
                raise LessonError(f"step {self.id}: a right answer is not offered")
            if not values - right:
                raise LessonError(f"step {self.id}: every option is right; nothing to learn")

    def a_wrong_answer(self) -> str:
        """One wrong answer (tests use it; the page never shows which is which)."""
        right = self.correct()
        if self.widget == "number":
            return str(int(next(iter(right))) + 1)
        return next(o.value for o in self.options() if o.value not in right)

    def context(self) -> dict[str, Any]:
        """What the template draws: hands, tricks, boards (never which answer is right)."""
        return {}


@dataclass(frozen=True)
class Lesson:
    slug: str
    game: str  # "courtpiece" | "backgammon"
    rules_page: str  # the guide page it teaches (RULES_SLUGS)
    steps: tuple[Step, ...] = field(default=())
    order: int = 0

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)
