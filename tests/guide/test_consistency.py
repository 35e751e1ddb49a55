"""What the three languages' guides must agree on, and the Hindi guide's fixed words."""

from __future__ import annotations

import re

import polib
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


# One spelling for each word across everything a Hindi reader sees: the guide, the lessons
# and the catalogue's translations.
FORBIDDEN_HINDI = {
    "हिन्दी": "हिंदी",
    "बेरंगा": "बे-रंगा",
    "बे रंगा": "बे-रंगा",
}
ROOT = CONTENT_DIR.parents[1]
HINDI_PO = ROOT / "locale" / "hi" / "LC_MESSAGES" / "django.po"


def _hindi_texts() -> list[tuple[str, str]]:
    """(where, text) for every Hindi guide page and lesson, and each msgstr of the Hindi
    catalogue (the msgids are the English source)."""
    files = [
        *sorted((CONTENT_DIR / "hi").glob("*.md")),
        *sorted((ROOT / "tutorials" / "content" / "hi").glob("*.md")),
    ]
    texts = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files]
    for entry in polib.pofile(str(HINDI_PO)):
        for msgstr in [entry.msgstr, *entry.msgstr_plural.values()]:
            if msgstr:
                texts.append((f"django.po: {entry.msgid[:50]}", msgstr))
    return texts


def test_hindi_texts_cover_the_guide_the_lessons_and_the_catalogue() -> None:
    where = [name for name, _text in _hindi_texts()]
    assert "guide/content/hi/rung.md" in where
    assert "tutorials/content/hi/be-ranga.md" in where
    assert sum(name.startswith("django.po: ") for name in where) > 500


def test_hindi_guide_uses_one_spelling_for_each_word() -> None:
    found = [
        (name, wrong, right)
        for name, text in _hindi_texts()
        for wrong, right in FORBIDDEN_HINDI.items()
        if wrong in text
    ]
    assert found == []


# Hindi words for the game (the live table's, glossary): a trick is "चाल" (feminine: चाल
# जीती, पहली चाल, सात चालें), a hand dealt and played out is "बाज़ी", and "हाथ" is only ever
# the cards a player holds, always as someone's: "अपने हाथ में", "आपके हाथ के पान",
# "अपने हाथ वाले". Any other "हाथ" (पहला हाथ, हाथ जीतना, सात हाथ, हाथों की गिनती, इस हाथ
# में, and idioms such as "दाएँ हाथ की ओर" or "के हाथ आए") reads as a trick or as something
# else, so it fails.
HAATH = re.compile(r"हाथ[\u0900-\u097F]*")
HAATH_HELD = re.compile(r"(?:अपने|आपके|उसके|उनके|के) हाथ (?:में|के|वाले)(?![\u0900-\u097F])")
# "Held" in form only: a card is trump "in its own hand", i.e. in the trick it is played to.
HAATH_HELD_BY_A_CARD = re.compile(r"पत्ता[^।;:]{0,30}अपने (?:ही )?हाथ में")
GLOSSARY_HEADWORD = "| हाथ | "
# चाल is feminine; these are its masculine forms.
CHAAL_MASCULINE = re.compile(
    r"(?:पहला|दूसरा|तीसरा|चौथा|पाँचवाँ|छठा|सातवाँ|तेरहवाँ|अगला|पिछला|आख़िरी वाला) चाल"
    r"|चाल (?:किसने |\S+ ने )?(?:जीता|लिया|उठाया|हुआ)(?![\u0900-\u097F])"
)


def haath_not_held(text: str) -> list[str]:
    """Every "हाथ" in `text` that is not the cards someone holds, with its neighbourhood."""
    held = {m.start() + m.group(0).index("हाथ") for m in HAATH_HELD.finditer(text)}
    held -= {
        m.start() + m.group(0).rindex("हाथ") for m in HAATH_HELD_BY_A_CARD.finditer(text)
    }
    found = []
    for m in HAATH.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text.startswith(GLOSSARY_HEADWORD, line_start) and m.start() == line_start + 2:
            continue  # the glossary's own entry for the word
        if m.start() not in held:
            found.append(text[max(0, m.start() - 25) : m.end() + 15].replace("\n", " "))
    return found


def test_a_trick_called_haath_is_caught_and_the_cards_held_are_not() -> None:
    for trick in (
        "साथी हाथ जीत ही रहा हो",
        "पहला हाथ हाकिम शुरू करता है",
        "और पहले हाथ की शुरुआत वही करता है",
        "शुरू के सातों हाथ लगातार जीत ले",
        "13 में से 7 हाथ जो टीम बना ले",
        "सात हाथ पर बाज़ी",
        "सिंगल सर: हाथ-हाथ की गिनती",
        "इसमें गिनती हाथों की नहीं, दहलों की",
        "पान रंग है, पर इस हाथ में किसी ने रंग नहीं डाला",
        "वह पत्ता अपने हाथ में भी रंग गिना जाता है",
        "रंग तय करने वाला पत्ता अपने ही हाथ में रंग है",
        "चारों दहले एक टीम के हाथ आए।",
        "आपके दाएँ हाथ की ओर",
    ):
        assert haath_not_held(trick), trick
    for held in (
        "पहले अपने हाथ के रंग गिनिए",
        "कुल तेरह रंग: अपने हाथ वाले घटा दीजिए",
        "जो आपके हाथ में है, उन्हें गिनिए",
        "माँगने वाले के हाथ में अपने ही पत्ते हों",
        "| हाथ | किसी खिलाड़ी के अपने पत्ते |",
    ):
        assert haath_not_held(held) == [], held
    assert CHAAL_MASCULINE.search("पहला चाल आपने जीता")
    assert CHAAL_MASCULINE.search("यह चाल किसने जीता?")
    assert not CHAAL_MASCULINE.search("यह चाल किसने जीती? पहली चाल, सात चालें")


def test_hindi_chaal_is_a_trick_and_haath_only_the_cards_held() -> None:
    glossary = (CONTENT_DIR / "hi" / "glossary.md").read_text(encoding="utf-8")
    assert "| चाल | एक चक्कर में चारों खिलाड़ियों के डाले चार पत्ते" in glossary
    assert "| हाथ | किसी खिलाड़ी के अपने पत्ते" in glossary
    # रंग stays the trump suit (it is the game's name), with तुरुप as its other name.
    assert "| रंग | तुरुप, यानी वह सूट जो बाकी तीनों को काटता है" in glossary
    assert "| तुरुप | रंग का दूसरा नाम" in glossary
    found = [
        (name, context) for name, text in _hindi_texts() for context in haath_not_held(text)
    ]
    assert found == []
    masculine = [
        (name, m.group(0)) for name, text in _hindi_texts() for m in CHAAL_MASCULINE.finditer(text)
    ]
    assert masculine == []


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
