"""A lesson's words in one language: tutorials/content/<lang>/<slug>.md.

The guide's format (front matter, Markdown, `page:SLUG#anchor` links; see guide.content),
with one ``## <step-id>`` section per step of the lesson's data file. A section starts
with ``key: value`` lines, then a blank line, then the explanation in Markdown::

    ## lead-heart
    ask: Which card may you play?
    why: Hearts were led and you hold hearts, so a heart must go.
    rule: rung#playing-a-trick

    Everyone must follow the suit that was led ...

`ask` is the question, `why` the reason shown with the feedback (the rule in plain words),
`rule` the rules page and the anchor of the section that states it. A question about one
card writes ``{card}`` for it; a reason that states the answer writes ``{answer}`` for it
(tutorials.present fills both from the step, so the words cannot disagree with the engine).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from guide.content import ContentError, render_markdown, split_front_matter

CONTENT_DIR = Path(__file__).resolve().parent / "content"
STEP_HEADING = re.compile(r"^##\s+([a-z0-9-]+)\s*$", flags=re.MULTILINE)
STEP_KEYS = ("ask", "why", "rule")


@dataclass(frozen=True)
class StepText:
    id: str
    ask: str
    why: str
    rule_page: str
    rule_anchor: str
    html: str


@dataclass(frozen=True)
class LessonText:
    lang: str
    slug: str
    title: str
    description: str
    intro_html: str
    steps: tuple[StepText, ...]

    def step(self, step_id: str) -> StepText | None:
        return next((s for s in self.steps if s.id == step_id), None)


def content_path(lang: str, slug: str) -> Path:
    return CONTENT_DIR / lang / f"{slug}.md"


def available_languages(slug: str) -> list[str]:
    return [code for code, _ in settings.LANGUAGES if content_path(code, slug).is_file()]


def get_text(lang: str, slug: str) -> LessonText | None:
    path = content_path(lang, slug)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    return _load(lang, slug, mtime)


@lru_cache(maxsize=256)
def _load(lang: str, slug: str, mtime_ns: int) -> LessonText:
    path = content_path(lang, slug)
    return parse_lesson(lang, slug, path.read_text(encoding="utf-8"), str(path))


def parse_lesson(lang: str, slug: str, source: str, origin: str = "<string>") -> LessonText:
    from django.utils import translation

    meta, body = split_front_matter(source, origin)
    title, description = meta.get("title", ""), meta.get("description", "")
    if not title or not description:
        raise ContentError(f"{origin}: front matter needs both 'title' and 'description'")
    parts = STEP_HEADING.split(body)
    intro, sections = parts[0], list(zip(parts[1::2], parts[2::2], strict=True))
    if re.search(r"^#", intro, flags=re.MULTILINE):
        raise ContentError(f"{origin}: a heading that is not '## step-id'")
    steps = []
    with translation.override(lang):
        intro_html, _ = render_markdown(intro, lang, origin, figures_allowed=False)
        for step_id, text in sections:
            lines = text.strip("\n").split("\n")
            keys: dict[str, str] = {}
            while lines and lines[0].strip():
                key, sep, value = lines.pop(0).partition(":")
                if not sep or key.strip() not in STEP_KEYS:
                    raise ContentError(f"{origin}: step {step_id}: bad line {key!r}")
                keys[key.strip()] = value.strip()
            missing = [k for k in STEP_KEYS if not keys.get(k)]
            if missing:
                raise ContentError(f"{origin}: step {step_id} needs {', '.join(missing)}")
            page, _, anchor = keys["rule"].partition("#")
            html, _ = render_markdown("\n".join(lines), lang, origin, figures_allowed=False)
            if not html.strip():
                raise ContentError(f"{origin}: step {step_id} has no explanation")
            steps.append(StepText(step_id, keys["ask"], keys["why"], page, anchor, html))
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        raise ContentError(f"{origin}: a step id appears twice")
    return LessonText(lang, slug, title, description, intro_html, tuple(steps))
