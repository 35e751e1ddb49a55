"""locale/*/LC_MESSAGES/django.po: complete, not fuzzy, and covering every UI string.

Extraction uses Django's own template parser (every {% translate %} and
{% blocktranslate %} node, exactly as Django will look the string up) and Python's ast for
gettext calls, so the check needs no GNU gettext on the machine.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import polib
import pytest
from django.template import engines
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("ur", "hi")
SKIP_DIRS = {".venv", "node_modules", "tests", "staticfiles", ".git", "bench"}
GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy"}


def _files(pattern: str) -> list[Path]:
    return [
        p for p in ROOT.rglob(pattern) if not SKIP_DIRS & set(p.relative_to(ROOT).parts)
    ]


def _po(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def template_msgids() -> dict[str, str]:
    """msgid -> the template it came from, for every translatable string in our templates."""
    engine = engines["django"].engine  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for path in _files("*.html"):
        if "templates" not in path.parts:
            continue
        template = engine.from_string(path.read_text(encoding="utf-8"))
        for node in template.nodelist.get_nodes_by_type(TranslateNode):
            var = node.filter_expression.var
            literal = getattr(var, "literal", None)
            if isinstance(literal, str):
                found[literal] = str(path.relative_to(ROOT))
        for node in template.nodelist.get_nodes_by_type(BlockTranslateNode):
            msgid, _vars = node.render_token_list(node.singular)
            found[msgid] = str(path.relative_to(ROOT))
    return found


def python_msgids() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in _files("*.py"):
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
                found[arg.value] = str(path.relative_to(ROOT))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_po_has_no_untranslated_or_fuzzy_entries(lang: str) -> None:
    po = _po(lang)
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert [e.msgid for e in po if e.obsolete] == []


@pytest.mark.parametrize("lang", LANGS)
def test_po_has_no_duplicate_msgids(lang: str) -> None:
    # Several branches append to the same file: a duplicate would make msgfmt refuse it.
    counts = Counter((e.msgctxt, e.msgid) for e in _po(lang))
    assert [key for key, n in counts.items() if n > 1] == []


def test_extraction_finds_known_strings() -> None:
    # Guards the extractor itself: a broken walk would find nothing and pass vacuously.
    templates = template_msgids()
    assert "Skip to content" in templates  # {% translate %} in base.html
    # {% blocktranslate trimmed %} in home.html
    assert any(m.startswith("Learn and play Court Piece — Rung") for m in templates)
    assert "On this page" in templates  # an app template
    assert "South" in python_msgids()  # guide/figures.py


@pytest.mark.parametrize("lang", LANGS)
def test_every_ui_string_is_translated(lang: str) -> None:
    # A plural entry keeps its text in msgstr_plural (every form must be filled).
    translated = {
        e.msgid
        for e in _po(lang)
        if not e.fuzzy and (e.msgstr or (e.msgstr_plural and all(e.msgstr_plural.values())))
    }
    missing = {
        msgid: origin
        for msgid, origin in {**template_msgids(), **python_msgids()}.items()
        if msgid not in translated
    }
    assert missing == {}, f"add these to locale/{lang}/LC_MESSAGES/django.po"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_placeholders(lang: str) -> None:
    import re

    placeholder = re.compile(r"%\(\w+\)[sd]|%[sd]")
    for entry in _po(lang):
        if entry.msgid_plural:
            # Plural entries keep their text in msgstr_plural: every form must carry the
            # placeholders of the plural msgid (the number is always shown).
            wanted = sorted(placeholder.findall(entry.msgid_plural))
            for form in entry.msgstr_plural.values():
                assert sorted(placeholder.findall(form)) == wanted, entry.msgid
            continue
        assert sorted(placeholder.findall(entry.msgid)) == sorted(
            placeholder.findall(entry.msgstr)
        ), entry.msgid
