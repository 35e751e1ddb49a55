"""Shared checks that a page is really in its language, for every app's tests.

- ``english_left(text_or_html, lang)``: the English (any Latin letters) a reader of an Urdu
  or Hindi page, or of an email, would still see. Empty means the text is fully translated.
- ``catalogue_gaps(lang, under=…)``: every reason ``locale/<lang>/LC_MESSAGES/django.po``
  fails the UI strings of the code under the given folders. Empty means complete.

Both return human-readable findings, so a failing ``assert … == []`` names each one.

How a page is read (HTML): the way a person and a screen reader meet it. Visible text,
``<title>``, the meta description, the attributes that are shown or read out
(``aria-label``, ``title``, ``alt``, ``placeholder``) and the label of an
``<input type="submit|button">`` all count; only ``<script>``/``<style>`` (code and JSON-LD)
are skipped. Two exceptions are deliberate, not leaks: text inside an element that declares
another language with ``lang="…"`` (the switcher names "English" in English), and the card
ranks A, K, Q, J inside an SVG figure, drawn as on real cards. Every Latin letter counts,
a lone one too.

Plain text (an email: anything that does not start with ``<``): every line, with URLs and
email addresses taken out first (a reset link's key is not a word).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Collection, Iterable
from html.parser import HTMLParser
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LATIN = re.compile(r"[A-Za-z]+")
CARD_RANKS = frozenset({"A", "K", "Q", "J"})
SPOKEN_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
BUTTON_TYPES = frozenset({"submit", "button", "reset"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
ADDRESS = re.compile(r"https?://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


class _Reader(HTMLParser):
    def __init__(self, page_lang: str, allowed: Collection[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = page_lang
        self.allowed = allowed
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, inside an svg)
        self.found: list[str] = []

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _in_svg(self) -> bool:
        return bool(self.stack) and self.stack[-1][2]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        lang = a.get("lang")
        # <html lang> is the page's own claim, never an exemption for the whole page.
        skipped = self._skipped() or tag in ("script", "style") or (
            lang is not None and lang != self.page_lang and tag != "html"
        )
        in_svg = self._in_svg() or tag == "svg"
        if not skipped:
            for name in SPOKEN_ATTRIBUTES:
                self._check(a.get(name) or "", in_svg, f"@{name}")
            if tag == "meta" and a.get("name") == "description":
                self._check(a.get("content") or "", False, "meta description")
            if tag == "input" and a.get("type") in BUTTON_TYPES:
                self._check(a.get("value") or "", False, "button label")
        if tag not in VOID:
            self.stack.append((tag, skipped, in_svg))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching tag. A stray end tag closes everything: malformed markup
        # loses its exemptions (lang, svg) rather than hiding what follows it.
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipped():
            self._check(data, self._in_svg(), "text")

    def _check(self, text: str, in_svg: bool, where: str) -> None:
        for word in LATIN.findall(text):
            if (in_svg and word in CARD_RANKS) or word in self.allowed:
                continue
            self.found.append(f"{where}: {word!r} in {text.strip()[:80]!r}")


def english_left(
    text_or_html: str, lang: str, *, allowed: Collection[str] = frozenset()
) -> list[str]:
    """English a reader of ``lang`` would still see in a page or an email (module docstring).

    ``allowed``: words that are the test's own input, such as the usernames it typed.
    """
    if lang == "en":
        raise ValueError("english_left checks Urdu and Hindi text; English is the source")
    if text_or_html.lstrip().startswith("<"):
        reader = _Reader(lang, allowed)
        reader.feed(text_or_html)
        reader.close()
        return reader.found
    found = []
    for number, line in enumerate(text_or_html.splitlines(), start=1):
        words = [w for w in LATIN.findall(ADDRESS.sub(" ", line)) if w not in allowed]
        found += [f"line {number}: {word!r} in {line.strip()[:80]!r}" for word in words]
    return found


# --- catalogue completeness --------------------------------------------------------------

SKIP_DIRS = frozenset({".venv", "node_modules", "tests", "staticfiles", ".git", "bench"})
GETTEXT_NAMES = frozenset({"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext",
                           "pgettext_lazy", "ngettext", "ngettext_lazy"})
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


def _files(root: Path, under: Iterable[str], pattern: str) -> list[Path]:
    found: set[Path] = set()
    for folder in under:
        base = (root / folder).resolve()
        if not base.is_dir():
            raise ValueError(f"catalogue_gaps: no folder {folder!r} under {root}")
        found.update(
            p for p in base.rglob(pattern) if not SKIP_DIRS & set(p.relative_to(root).parts)
        )
    return sorted(found)


def template_msgids(root: Path = ROOT, under: Iterable[str] = (".",)) -> dict[str, str]:
    """msgid -> the template it came from, for every translatable string in the templates.

    Uses Django's own template parser (every {% translate %} and {% blocktranslate %} node,
    exactly as Django will look the string up), so no GNU gettext is needed.
    """
    from django.template import engines
    from django.templatetags.i18n import BlockTranslateNode, TranslateNode

    engine = engines["django"].engine  # type: ignore[attr-defined]
    root = root.resolve()
    found: dict[str, str] = {}
    for path in _files(root, under, "*.html"):
        if "templates" not in path.relative_to(root).parts:
            continue
        template = engine.from_string(path.read_text(encoding="utf-8"))
        for node in template.nodelist.get_nodes_by_type(TranslateNode):
            literal = getattr(node.filter_expression.var, "literal", None)
            if isinstance(literal, str):
                found[literal] = str(path.relative_to(root))
        for node in template.nodelist.get_nodes_by_type(BlockTranslateNode):
            msgid, _vars = node.render_token_list(node.singular)
            found[msgid] = str(path.relative_to(root))
    return found


def python_msgids(root: Path = ROOT, under: Iterable[str] = (".",)) -> dict[str, str]:
    """msgid -> the module it came from, for every gettext call with a literal string."""
    root = root.resolve()
    found: dict[str, str] = {}
    for path in _files(root, under, "*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in GETTEXT_NAMES:
                continue
            with_context = name.startswith("pgettext") and len(node.args) > 1
            arg = node.args[1] if with_context else node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found[arg.value] = str(path.relative_to(root))
    return found


def catalogue_gaps(
    lang: str, under: Iterable[str] = (".",), *, root: Path = ROOT
) -> list[str]:
    """Everything that keeps ``locale/<lang>/LC_MESSAGES/django.po`` from translating the
    code in the folders ``under`` (relative to the repository root; all of it by default).

    Faults of the file itself are always reported, since they break every page: entries
    untranslated, fuzzy or obsolete; a msgid twice (several branches append to the same
    file, and GNU msgfmt refuses a duplicate while polib silently picks one); a translation
    that drops or adds a placeholder (in every plural form). Then every UI string found in
    a template or gettext call under ``under`` without a translation.
    """
    root = root.resolve()
    po_path = root / "locale" / lang / "LC_MESSAGES" / "django.po"
    if not po_path.is_file():
        raise ValueError(f"catalogue_gaps: no catalogue at {po_path}")
    po = polib.pofile(str(po_path))
    gaps = [f"untranslated: {e.msgid!r}" for e in po.untranslated_entries()]
    gaps += [f"fuzzy: {e.msgid!r}" for e in po.fuzzy_entries()]
    gaps += [f"obsolete: {e.msgid!r}" for e in po.obsolete_entries()]
    counts = Counter((e.msgctxt, e.msgid) for e in po)
    gaps += [f"duplicate: {msgid!r} (context {ctx!r})" for (ctx, msgid), n in counts.items()
             if n > 1]
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            wanted = sorted(PLACEHOLDER.findall(entry.msgid_plural))
            forms = list(entry.msgstr_plural.values())
        else:
            wanted = sorted(PLACEHOLDER.findall(entry.msgid))
            forms = [entry.msgstr]
        if any(sorted(PLACEHOLDER.findall(form)) != wanted for form in forms):
            gaps.append(f"placeholders differ: {entry.msgid!r}")
    translated = {
        e.msgid for e in po if not e.fuzzy and not e.obsolete
        and (e.msgstr or any(e.msgstr_plural.values()))
    }
    under = list(under)
    wanted_ids = {**template_msgids(root, under), **python_msgids(root, under)}
    gaps += [f"missing: {msgid!r} (from {origin})" for msgid, origin in
             sorted(wanted_ids.items()) if msgid not in translated]
    return gaps
