"""Load and render the guide's content files (guide/content/<lang>/<slug>.md).

The format is described in README.md ("Rules pages"): front matter (title, description),
then Markdown with `[text](page:SLUG)` links and `[[figure NAME | caption]]` lines.

Files are parsed and rendered once per process and version of the file (the cache key
holds the file's mtime, so an author editing a file sees the change without a restart,
while a request never parses Markdown twice). Content files are trusted, but raw HTML in
them is still escaped, never rendered: only Markdown and our own figures reach the page.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from markdown.extensions import Extension
from markdown.extensions.toc import slugify_unicode
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from guide import figures
from guide.pages import BY_SLUG, PageSpec, url_name_and_kwargs

CONTENT_DIR = Path(__file__).resolve().parent / "content"
TITLE_MAX = 60
DESCRIPTION_MAX = 155
# A figure line: [[figure NAME | caption]] alone on its line.
FIGURE_LINE = re.compile(r"^\[\[figure\s+(?P<name>[a-z0-9-]+)\s*\|\s*(?P<caption>[^\]]+?)\s*\]\]$")
QUESTION_MARKS = ("?", "؟")
STACK_COLUMNS = 3  # tables this wide are read row by row on a phone


class ContentError(ValueError):
    """A content file breaks the format; the message names the file and what is wrong."""


@dataclass(frozen=True)
class FaqEntry:
    question: str
    answer_html: str
    answer_text: str


@dataclass(frozen=True)
class Page:
    lang: str
    spec: PageSpec
    title: str
    description: str
    html: str
    toc: tuple[tuple[str, str], ...]  # (anchor id, heading text) of each ## heading
    faq: tuple[FaqEntry, ...] = field(default=())

    @property
    def slug(self) -> str:
        return self.spec.slug

    @property
    def url(self) -> str:
        name, kwargs = url_name_and_kwargs(self.spec)
        with translation.override(self.lang):
            return reverse(name, kwargs=kwargs)

    def faq_json_ld(self) -> str:
        """FAQPage structured data, safe to place inside <script type=application/ld+json>."""
        data = {
            "@context": "https://schema.org",
            "@type": "FAQPage",
            "inLanguage": self.lang,
            "mainEntity": [
                {
                    "@type": "Question",
                    "name": entry.question,
                    "acceptedAnswer": {"@type": "Answer", "text": entry.answer_text},
                }
                for entry in self.faq
            ],
        }
        text = json.dumps(data, ensure_ascii=False)
        # A "</script>" inside a string must not end the script element.
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def content_path(lang: str, slug: str) -> Path:
    return CONTENT_DIR / lang / f"{slug}.md"


def available_languages(slug: str) -> list[str]:
    """The site languages that have this page's content file."""
    return [code for code, _ in settings.LANGUAGES if content_path(code, slug).is_file()]


def get_page(lang: str, slug: str) -> Page | None:
    """The rendered page, or None when this language has no file for it yet."""
    if slug not in BY_SLUG:
        raise ContentError(f"unknown guide page {slug!r}")
    path = content_path(lang, slug)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    return _load(lang, slug, mtime)


@lru_cache(maxsize=256)
def _load(lang: str, slug: str, mtime_ns: int) -> Page:
    path = content_path(lang, slug)
    source = path.read_text(encoding="utf-8")
    return parse_page(lang, slug, source, origin=str(path))


def split_front_matter(source: str, origin: str) -> tuple[dict[str, str], str]:
    lines = source.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise ContentError(f"{origin}: must start with a '---' front matter line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ContentError(f"{origin}: front matter has no closing '---'") from None
    meta: dict[str, str] = {}
    for line in lines[1:end]:
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ContentError(f"{origin}: front matter line without 'key: value': {line!r}")
        meta[key.strip()] = value.strip()
    return meta, "\n".join(lines[end + 1 :]) + "\n"


def parse_page(lang: str, slug: str, source: str, origin: str = "<string>") -> Page:
    """Parse and render one content file's text. Raises ContentError on any format error."""
    spec = BY_SLUG[slug]
    meta, body = split_front_matter(source, origin)
    title, description = meta.get("title", ""), meta.get("description", "")
    if not title or not description:
        raise ContentError(f"{origin}: front matter needs both 'title' and 'description'")
    if len(title) > TITLE_MAX:
        raise ContentError(f"{origin}: title is {len(title)} characters, at most {TITLE_MAX}")
    if len(description) > DESCRIPTION_MAX:
        raise ContentError(
            f"{origin}: description is {len(description)} characters, at most {DESCRIPTION_MAX}"
        )
    if re.search(r"^#\s", body, flags=re.MULTILINE):
        raise ContentError(f"{origin}: headings start at '##' (the title is the page's <h1>)")

    # Figures and seat labels are drawn in the page's language.
    with translation.override(lang):
        page_html, toc = render_markdown(body, lang, origin)
        faq: tuple[FaqEntry, ...] = ()
        if spec.kind == "faq":
            faq = _faq_entries(body, lang, origin)
    return Page(lang, spec, title, description, page_html, toc, faq)


def _faq_entries(body: str, lang: str, origin: str) -> tuple[FaqEntry, ...]:
    entries = []
    # Split on "## " headings; the text before the first one is the intro.
    parts = re.split(r"^##\s+(.+?)\s*$", body, flags=re.MULTILINE)
    for question, answer in zip(parts[1::2], parts[2::2], strict=True):
        if not question.endswith(QUESTION_MARKS):
            raise ContentError(f"{origin}: FAQ heading must end with a question mark: {question!r}")
        answer_html, _ = render_markdown(answer, lang, origin, figures_allowed=False)
        if not answer_html.strip():
            raise ContentError(f"{origin}: FAQ question has no answer: {question!r}")
        entries.append(FaqEntry(question, answer_html, _plain_text(answer_html)))
    if not entries:
        raise ContentError(f"{origin}: an FAQ page needs '## question?' headings")
    return tuple(entries)


def _plain_text(fragment: str) -> str:
    # Block boundaries become spaces; inline tags (<strong>, <a>) vanish without one.
    text = re.sub(r"</?(p|li|ul|ol|h\d|br|tr|td|th|table|thead|tbody)\b[^>]*>", " ", fragment)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


class _FigurePreprocessor(Preprocessor):
    """Replaces figure lines with our own SVG, stashed so Markdown leaves it alone."""

    def __init__(self, md: markdown.Markdown, lang: str, origin: str, allowed: bool) -> None:
        super().__init__(md)
        self.lang, self.origin, self.allowed = lang, origin, allowed

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("[[figure"):
                match = FIGURE_LINE.match(stripped)
                if not match:
                    raise ContentError(f"{self.origin}: malformed figure line {stripped!r}")
                if not self.allowed:
                    # Inside an FAQ answer (structured data) the figure is left out of the text.
                    continue
                name, caption = match["name"], match["caption"]
                if name not in figures.FIGURES:
                    raise ContentError(f"{self.origin}: unknown figure {name!r}")
                svg = figures.render(name, self.lang)
                block = (
                    f'<figure class="figure figure-{name}">{svg}'
                    f"<figcaption>{html.escape(caption)}</figcaption></figure>"
                )
                out.extend(["", self.md.htmlStash.store(block), ""])
            else:
                out.append(line)
        return out


class _LinkTreeprocessor(Treeprocessor):
    """Resolves page:SLUG links to the same page in the same language; rejects others."""

    def __init__(self, md: markdown.Markdown, lang: str, origin: str) -> None:
        super().__init__(md)
        self.lang, self.origin = lang, origin

    def run(self, root: ET.Element) -> None:
        for a in root.iter("a"):
            href = a.get("href", "")
            if href.startswith("page:"):
                target, _, anchor = href.removeprefix("page:").partition("#")
                spec = BY_SLUG.get(target)
                if spec is None:
                    raise ContentError(f"{self.origin}: link to unknown page {target!r}")
                name, kwargs = url_name_and_kwargs(spec)
                with translation.override(self.lang):
                    url = reverse(name, kwargs=kwargs)
                a.set("href", url + (f"#{anchor}" if anchor else ""))
            elif href.startswith("#"):
                continue
            elif not href.startswith("https://"):
                raise ContentError(
                    f"{self.origin}: links must be page:SLUG, #anchor or https://: {href!r}"
                )
        if root.find(".//img") is not None:
            raise ContentError(f"{self.origin}: images are figures, not Markdown images")
        self._sections(root)
        # Tables scroll inside their own box on a phone instead of widening the page; a table
        # of three or more columns is read row by row there instead (site.css, .table-stack),
        # each cell labelled with its column's heading, since three or four columns in 390 px leave
        # a description one word wide.
        for parent in list(root.iter()):
            for index, child in enumerate(list(parent)):
                if child.tag == "table":
                    headings = ["".join(th.itertext()).strip() for th in child.iter("th")]
                    css = "table-wrap"
                    if len(headings) >= STACK_COLUMNS:
                        css += " table-stack"
                        for row in child.iter("tr"):
                            for cell, heading in zip(row.findall("td"), headings, strict=False):
                                cell.set("data-label", heading)
                    wrapper = ET.Element("div", {"class": css})
                    parent.remove(child)
                    wrapper.append(child)
                    parent.insert(index, wrapper)


    @staticmethod
    def _sections(root: ET.Element) -> None:
        """Wrap each "## " heading and what follows it in a <section>.

        Sections let the browser skip laying out what is off screen (content-visibility in
        site.css): Nastaliq shaping is costly, and a long Urdu page is mostly below the fold.
        """
        children = list(root)
        if not any(child.tag == "h2" for child in children):
            return
        for child in children:
            root.remove(child)
        current: ET.Element | None = None
        for child in children:
            if child.tag == "h2":
                current = ET.SubElement(root, "section")
            (current if current is not None else root).append(child)


class _GuideExtension(Extension):
    def __init__(self, lang: str, origin: str, figures_allowed: bool) -> None:
        super().__init__()
        self.lang, self.origin, self.figures_allowed = lang, origin, figures_allowed

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # No raw HTML from content files: drop the block and inline HTML parsers, so
        # "<b>" is shown as text instead of becoming markup.
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.preprocessors.register(
            _FigurePreprocessor(md, self.lang, self.origin, self.figures_allowed), "figure", 25
        )
        md.treeprocessors.register(_LinkTreeprocessor(md, self.lang, self.origin), "pagelinks", 5)


def render_markdown(
    body: str, lang: str, origin: str, figures_allowed: bool = True
) -> tuple[str, tuple[tuple[str, str], ...]]:
    md = markdown.Markdown(
        extensions=[
            "tables",
            "attr_list",
            "toc",
            _GuideExtension(lang, origin, figures_allowed),
        ],
        extension_configs={"toc": {"slugify": slugify_unicode, "toc_depth": "2"}},
        output_format="html",
    )
    rendered = md.convert(body)
    # toc names come HTML-escaped; the template escapes them again, so unescape here.
    toc = tuple(
        (tok["id"], html.unescape(tok["name"])) for tok in md.toc_tokens  # type: ignore[attr-defined]
    )
    return rendered, toc
