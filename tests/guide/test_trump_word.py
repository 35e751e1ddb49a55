"""One Hindi word for trump on the table and in the lessons: "तुरुप" (a newcomer read "रंग"
and "तुरुप" for the same suit on one lesson screen). "रंग" stays the game's name (रंग, बंद
रंग, बे-रंगा) and a colour; the glossary keeps both words and says which is used where. A
renege is said in Hindi and Urdu ("सूट की चोरी", "سوٹ کی چوری"), not transliterated."""

from __future__ import annotations

import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[2]
HI_PO = ROOT / "locale" / "hi" / "LC_MESSAGES" / "django.po"
UR_PO = ROOT / "locale" / "ur" / "LC_MESSAGES" / "django.po"
LESSONS = ROOT / "tutorials" / "content"
# "रंग" that is not trump: the games' names, a colour (a checker's, a verdict's).
NOT_TRUMP = re.compile(r"बंद रंग|बे-रंगा|(?:हल्के|गहरे) रंग|नारंगी|रंग के अंक|रंग की बाज़ी")


def _rang_as_trump(text: str) -> list[str]:
    return [
        text[max(0, m.start() - 20) : m.end() + 20]
        for m in re.finditer("रंग", NOT_TRUMP.sub("", text))
    ]


def test_hindi_catalogue_says_trump_with_one_word() -> None:
    found = []
    for entry in polib.pofile(str(HI_PO)):
        if "trump" not in entry.msgid.lower() and "reveal" not in entry.msgid.lower():
            continue
        for msgstr in [entry.msgstr, *entry.msgstr_plural.values()]:
            found += [(entry.msgid[:40], c) for c in _rang_as_trump(msgstr)]
    assert found == []


def test_hindi_card_lessons_say_trump_with_one_word() -> None:
    found = []
    for path in sorted((LESSONS / "hi").glob("*.md")):
        if path.name.startswith("bg-"):
            continue  # backgammon: "रंग" is the checkers' colour there
        found += [(path.name, c) for c in _rang_as_trump(path.read_text(encoding="utf-8"))]
    assert found == []
    # the lesson the newcomer read: its prose and its table label agree
    follow = (LESSONS / "hi" / "follow-suit.md").read_text(encoding="utf-8")
    assert "पान को तुरुप बोला" in follow


def test_following_suit_is_said_with_suit_not_rang() -> None:
    """CP rules, follow suit: the led suit is a सूट/سوٹ; "रंग"/"رنگ" there read as trump."""
    msgid = (
        "You may not play that card: you hold %(suit)s, the suit that was led, so you must "
        "follow suit."
    )
    for po, suit, rang in ((HI_PO, "सूट", "रंग"), (UR_PO, "سوٹ", "رنگ")):
        entry = polib.pofile(str(po)).find(msgid)
        assert entry is not None
        assert suit in entry.msgstr and rang not in entry.msgstr


def test_renege_is_said_in_hindi_and_urdu() -> None:
    for po, word, english in ((HI_PO, "सूट की चोरी", "रिनेग"), (UR_PO, "سوٹ کی چوری", "رینیگ")):
        entries = polib.pofile(str(po))
        entry = entries.find("Spot the renege")
        assert entry is not None and word in entry.msgstr
        assert all(english not in e.msgstr for e in entries)
    for lang, english in (("hi", "रिनेग"), ("ur", "رینیگ")):
        lesson = (LESSONS / lang / "spot-renege.md").read_text(encoding="utf-8")
        assert english not in lesson


def test_the_shuffle_seed_is_not_called_a_seed_of_a_plant() -> None:
    """The word for a plant's seed ("बीज", "بیج") read oddly for the fairness secret and
    the players' own letters: the table's secret is राज़/راز, the players' part their
    अक्षर/حروف; the "Fair deal" line's label names the secret's mark, not a bare "promise"."""
    for lang, seed in (("hi", "बीज"), ("ur", "بیج")):
        po = polib.pofile(str(HI_PO if lang == "hi" else UR_PO))
        assert [e.msgid[:40] for e in po if seed in e.msgstr] == []
        for folder in (ROOT / "guide" / "content" / lang, LESSONS / lang):
            for path in folder.glob("*.md"):
                assert seed not in path.read_text(encoding="utf-8"), path.name
    ur = polib.pofile(str(UR_PO))
    label = ur.find("promise")
    assert label is not None and label.msgstr != "وعدہ"
