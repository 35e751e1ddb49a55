"""guide.content: the content file format, and the content files themselves.

The format is in README.md ("Rules pages"). The last tests here check the real files:
every slug in all three languages (so they fail until the Urdu and Hindi files are merged),
front matter within limits, FAQ pages with 12-18 questions.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from guide import content
from guide.content import ContentError, get_page, parse_page
from guide.pages import ALL_SLUGS, FAQ_SLUGS, RULES_SLUGS

LANGS = ("ur", "hi", "en")


def _src(body: str, title: str = "A title", description: str = "A description.") -> str:
    return f"---\ntitle: {title}\ndescription: {description}\n---\n{body}"


def test_front_matter_and_body_render() -> None:
    body = "Intro **bold**.\n\n## Section\n\n| a | b |\n| - | - |\n| 1 | 2 |\n"
    page = parse_page("en", "rung", _src(body))
    assert page.title == "A title"
    assert page.description == "A description."
    assert "<strong>bold</strong>" in page.html
    assert "<div class=\"table-wrap\"><table>" in page.html.replace("\n", "")
    assert page.toc == (("section", "Section"),)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("no front matter\n", "must start with"),
        ("---\ntitle: x\n", "no closing"),
        ("---\ntitle: x\n---\nbody\n", "both 'title' and 'description'"),
        (_src("body", title="x" * 61), "title is 61 characters"),
        (_src("body", description="x" * 156), "description is 156 characters"),
        (_src("# A level-one heading\n"), "headings start at '##'"),
        (_src("[x](page:no-such-page)\n"), "unknown page 'no-such-page'"),
        (_src("[x](javascript:alert(1))\n"), "links must be"),
        (_src("[x](http://example.com/)\n"), "links must be"),
        (_src("![alt](https://example.com/x.png)\n"), "images are figures"),
        (_src("[[figure no-such-figure | caption]]\n"), "unknown figure"),
        (_src("[[figure suits caption without bar]]\n"), "malformed figure line"),
    ],
)
def test_format_errors_are_clear(source: str, message: str) -> None:
    with pytest.raises(ContentError, match=re.escape(message)):
        parse_page("en", "rung", source, origin="test.md")


def test_headings_keep_their_text_in_the_contents() -> None:
    page = parse_page("en", "rung", _src("## Points & <tricks>\n\nText.\n"))
    assert page.toc[0][1] == "Points & <tricks>"  # plain text; the template escapes it
    assert "&lt;tricks&gt;" in page.html


def test_raw_html_is_escaped_not_rendered() -> None:
    page = parse_page("en", "rung", _src("<script>alert(1)</script>\n\nText <b>bold</b> here.\n"))
    assert "<script>" not in page.html
    assert "<b>" not in page.html
    assert "&lt;script&gt;" in page.html
    assert "&lt;b&gt;" in page.html


def test_page_links_resolve_in_the_same_language() -> None:
    src = _src(
        "[a](page:hidden-rung) [b](page:faq-hukum#who) [c](page:glossary) [d](page:house-rules)\n"
    )
    assert 'href="/ur/rules/hidden-rung/"' in parse_page("ur", "rung", src).html
    html = parse_page("hi", "rung", src).html
    assert 'href="/hi/faq/hukum/#who"' in html
    assert 'href="/hi/glossary/"' in html
    assert 'href="/hi/house-rules/"' in html


def test_figure_line_becomes_inline_svg_with_escaped_caption() -> None:
    body = "Before.\n\n[[figure trick-trump-cut | Two <of> hearts]]\n\nAfter.\n"
    page = parse_page("en", "rung", _src(body))
    assert '<figure class="figure figure-trick-trump-cut"><svg' in page.html
    assert "<figcaption>Two &lt;of&gt; hearts</figcaption>" in page.html
    # The figure is not wrapped in a paragraph.
    assert "<p><figure" not in page.html


def test_figures_are_drawn_in_the_page_language() -> None:
    page = parse_page("ur", "rung", _src("[[figure trick-follow-suit | عنوان]]\n"))
    assert "جنوب" in page.html  # South, from locale/ur
    assert "South" not in page.html


def test_faq_entries_and_structured_data() -> None:
    body = "Intro.\n\n## First question?\n\nAnswer one.\n\n## Second question?\n\nAnswer **two**.\n"
    page = parse_page("en", "faq-hukum", _src(body))
    assert [e.question for e in page.faq] == ["First question?", "Second question?"]
    assert page.faq[1].answer_text == "Answer two."
    data = json.loads(page.faq_json_ld())
    assert data["@type"] == "FAQPage"
    assert data["mainEntity"][0]["acceptedAnswer"]["text"] == "Answer one."


def test_faq_json_ld_cannot_close_its_script_element() -> None:
    body = "## Is </script> safe?\n\nYes </script><b>.\n"
    page = parse_page("en", "faq-hukum", _src(body))
    assert "</script>" not in page.faq_json_ld()
    assert json.loads(page.faq_json_ld())["mainEntity"][0]["name"] == "Is </script> safe?"


def test_faq_questions_need_question_marks_and_answers() -> None:
    with pytest.raises(ContentError, match="question mark"):
        parse_page("en", "faq-hukum", _src("## Not a question\n\nText.\n"))
    with pytest.raises(ContentError, match="no answer"):
        parse_page("en", "faq-hukum", _src("## A question?\n\n## Another?\n\nText.\n"))
    # Urdu question mark counts.
    page = parse_page("ur", "faq-hukum", _src("## کیا یہ سوال ہے؟\n\nجی ہاں۔\n"))
    assert len(page.faq) == 1


def test_pages_are_parsed_once_per_file_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = content.content_path("en", "rung").read_text(encoding="utf-8")
    (tmp_path / "en").mkdir()
    page_file = tmp_path / "en" / "rung.md"
    page_file.write_text(source, encoding="utf-8")
    os.utime(page_file, ns=(1_000_000_001, 1_000_000_001))  # a version nothing has cached
    monkeypatch.setattr(content, "CONTENT_DIR", tmp_path)
    parsed: list[tuple[str, str]] = []
    parse = content.parse_page

    def counting(lang: str, slug: str, *args: Any, **kwargs: Any) -> content.Page:
        parsed.append((lang, slug))
        return parse(lang, slug, *args, **kwargs)

    monkeypatch.setattr(content, "parse_page", counting)
    first = get_page("en", "rung")
    second = get_page("en", "rung")
    assert first is second
    assert parsed == [("en", "rung")]  # the second call was served from the cache
    os.utime(page_file, ns=(2_000_000_002, 2_000_000_002))  # the file edited
    assert get_page("en", "rung") is not first
    assert len(parsed) == 2


def test_unknown_slug_is_an_error() -> None:
    with pytest.raises(ContentError, match="unknown guide page"):
        get_page("en", "poker")


# --- the real content files ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_content_file_exists_in_every_language(lang: str) -> None:
    missing = [slug for slug in ALL_SLUGS if not content.content_path(lang, slug).is_file()]
    assert missing == [], f"guide/content/{lang}/ lacks: {', '.join(missing)}"


def test_no_stray_content_files() -> None:
    for lang_dir in content.CONTENT_DIR.iterdir():
        assert lang_dir.name in LANGS, f"unexpected folder {lang_dir}"
        extra = {p.stem for p in lang_dir.glob("*.md")} - set(ALL_SLUGS)
        assert not extra, f"{lang_dir}: files for unknown slugs {sorted(extra)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", ALL_SLUGS)
def test_content_file_parses(lang: str, slug: str) -> None:
    if not content.content_path(lang, slug).is_file():
        pytest.fail(f"guide/content/{lang}/{slug}.md is missing")
    page = get_page(lang, slug)
    assert page is not None
    assert page.title and page.description
    if slug in FAQ_SLUGS:
        assert 12 <= len(page.faq) <= 18, f"{lang}/{slug}: {len(page.faq)} questions"


@pytest.mark.parametrize("slug", RULES_SLUGS)
def test_english_rules_pages_are_full_length(slug: str) -> None:
    words = len(content.content_path("en", slug).read_text(encoding="utf-8").split())
    assert 500 <= words <= 1300, f"{slug}: {words} words"


def test_english_house_rules_name_every_table_option() -> None:
    text = content.content_path("en", "house-rules").read_text(encoding="utf-8")
    for words in (
        "Redeal", "Thirteenth", "Court", "82 claim", "Ace rule", "Bidding", "Kot both sides",
        "52 points", "10 hands", "52 points behind", "20 seconds", "10 seconds",
        "Automatic doubles", "Crawford", "Jacoby", "Beaver", "No cube", "Nackgammon",
        "Match length",
    ):
        assert words in text, words
