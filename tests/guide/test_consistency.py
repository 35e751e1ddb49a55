"""What the three languages' guides must agree on, and the Hindi guide's fixed words."""

from __future__ import annotations

import re

import pytest

from guide.content import CONTENT_DIR, get_page
from guide.pages import RULES_SLUGS

LANGS = ("ur", "hi", "en")
COURT_PIECE = [s for s in RULES_SLUGS if s not in ("rung", "backgammon")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_rung_page_shows_suits_and_ranks_and_links_the_other_games(lang: str) -> None:
    page = get_page(lang, "rung")
    assert page is not None
    assert "figure-suits" in page.html and "figure-ranks" in page.html
    for slug in COURT_PIECE:
        assert f'href="/{lang}/rules/{slug}/"' in page.html, slug


def test_cp_4_every_rung_page_says_the_trump_suit_is_the_rung() -> None:
    # English "That suit is the rung", Hindi "रंग ... सूट", Urdu "ترپ کا یہی سوٹ ... رنگ ہے".
    assert "the **rung**" in (CONTENT_DIR / "en" / "rung.md").read_text(encoding="utf-8")
    assert "**रंग**" in (CONTENT_DIR / "hi" / "rung.md").read_text(encoding="utf-8")
    assert "اس بازی کا **رنگ** ہے" in (CONTENT_DIR / "ur" / "rung.md").read_text(encoding="utf-8")


# One spelling for each word across the Hindi guide and catalogue.
FORBIDDEN_HINDI = {
    "हिन्दी": "हिंदी",
    "बेरंगा": "बे-रंगा",
    "बे रंगा": "बे-रंगा",
}
# In the Hindi guide "हाथ" is a trick (glossary); the cards a player holds are "पत्ते". These
# phrasings would read as "the cards in one's hand" and so make "हाथ" mean both.
HAND_AS_CARDS = re.compile(r"(के|अपने|उसके|आपके) हाथ में (लौट|रह)|पत्ते हाथ में")


def _hindi_texts() -> list[tuple[str, str]]:
    files = sorted((CONTENT_DIR / "hi").glob("*.md"))
    po = CONTENT_DIR.parents[1] / "locale" / "hi" / "LC_MESSAGES" / "django.po"
    return [(p.name, p.read_text(encoding="utf-8")) for p in [*files, po]]


def test_hindi_guide_uses_one_spelling_for_each_word() -> None:
    found = [
        (name, wrong, right)
        for name, text in _hindi_texts()
        for wrong, right in FORBIDDEN_HINDI.items()
        if wrong in text
    ]
    assert found == []


def test_hindi_haath_is_only_ever_a_trick() -> None:
    glossary = (CONTENT_DIR / "hi" / "glossary.md").read_text(encoding="utf-8")
    assert "| हाथ | एक चक्कर में चारों खिलाड़ियों के डाले चार पत्ते" in glossary
    found = [
        (name, m.group(0)) for name, text in _hindi_texts() for m in HAND_AS_CARDS.finditer(text)
    ]
    assert found == []


NOTES_PHRASING = {
    "en": re.compile(r"\bsources?\b|rules are silent on", re.IGNORECASE),
    "hi": re.compile(r"स्रोत|नियम कोई अंक नहीं|गिनती नहीं बताते"),
    "ur": re.compile(r"ماخذ|قاعدے .{0,20}(خاموش ہیں|کچھ نہیں کہتے|حساب نہیں دیتے)|قاعدوں میں نہیں"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_pages_tell_players_the_rule_not_our_research_notes(lang: str) -> None:
    found = []
    for path in sorted((CONTENT_DIR / lang).glob("*.md")):
        body = path.read_text(encoding="utf-8").split("---", 2)[2]
        found += [(path.name, m.group(0)) for m in NOTES_PHRASING[lang].finditer(body)]
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
def test_cp_hk_9_kot_both_sides_is_a_kot_not_a_gone_kot(lang: str) -> None:
    text = (CONTENT_DIR / lang / "house-rules.md").read_text(encoding="utf-8")
    said = {"en": "counts as a kot for that team", "hi": "उसी टीम का कोट", "ur": "اسی ٹیم کا کوٹ"}
    assert said[lang] in text
    assert "counted as a gone kot" not in text


# Every rules page has one outline: the same "## " sections, in the same order, in all
# three languages, each with the same anchor (`## Heading {#anchor}`), so a link to a section
# works in every language and no language's reader misses a part of the rules.
ONE_OUTLINE = RULES_SLUGS


@pytest.mark.parametrize("slug", ONE_OUTLINE)
def test_rules_page_has_one_outline_in_every_language(slug: str) -> None:
    outlines = {}
    for lang in LANGS:
        page = get_page(lang, slug)
        assert page is not None
        outlines[lang] = [anchor for anchor, _name in page.toc]
        assert all("{" not in name for _anchor, name in page.toc)
    assert outlines["ur"] == outlines["hi"] == outlines["en"], outlines
    assert len(outlines["en"]) >= 4
