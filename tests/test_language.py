"""The shared language checks (tests/language.py) are strict and fair, and fail on bad input.

Every app's "no English left" and "catalogue complete" tests stand on these two helpers, so
a helper that found nothing would make all of them pass vacuously.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.language import catalogue_gaps, english_left, python_msgids, template_msgids

GOOD_URDU_PAGE = (
    '<!doctype html><html lang="ur"><head><title>قاعدے</title>'
    '<meta name="description" content="رنگ کے قاعدے">'
    '<script>var x = "English";</script><style>p { color: red }</style>'
    '<script type="application/ld+json">{"@type": "FAQPage"}</script></head>'
    '<body><a lang="en" href="/en/">English <b>too</b></a>'
    '<svg aria-label="پتّا"><text>K</text><text>10</text><text>Q</text></svg>'
    '<p>ترپ 13</p><input type="submit" value="بھیجیں"><input type="text" name="login">'
    '<img src="/static/x.svg" alt="تصویر"><br/></body></html>'
)


def test_english_left_passes_a_fully_translated_page() -> None:
    assert english_left(GOOD_URDU_PAGE, "ur") == []


@pytest.mark.parametrize(
    "bad",
    [
        '<html lang="ur"><body><p>ترپ is trump</p></body></html>',
        '<html lang="ur"><head><title>Rules</title></head></html>',
        '<html lang="ur"><head><meta name="description" content="Rules"></head></html>',
        '<html lang="ur"><body><nav aria-label="Main"></nav></body></html>',
        '<html lang="ur"><body><span title="Close">×</span></body></html>',
        '<html lang="ur"><body><img src="x.png" alt="A card"></body></html>',
        '<html lang="ur"><body><input name="q" placeholder="Username"></body></html>',
        '<html lang="ur"><body><input type="submit" value="Sign in"></body></html>',
        '<html lang="ur"><body><p>K</p></body></html>',  # a rank outside a figure
        '<html lang="ur"><body><p>x</p></body></html>',  # a lone letter counts too
        '<html lang="ur"><body><svg><text>South</text></svg></body></html>',
        '<html lang="ur"><body><svg><title>Trick</title></svg></body></html>',
        # After a foreign-language element closes, the page's language applies again.
        '<html lang="ur"><body><a lang="en">English</a><p>Rules</p></body></html>',
        # <html lang> is the page's claim, not an exemption: a wrong one hides nothing.
        '<html lang="en"><body><p>Rules</p></body></html>',
        # A stray end tag must not end the check early, nor keep an exemption open.
        '<html lang="ur"><body></div><p>Rules</p></body></html>',
        '<html lang="ur"><body><a lang="en">English</b> Rules</a></body></html>',
    ],
)
def test_english_left_finds_every_kind_of_leftover(bad: str) -> None:
    assert english_left(bad, "ur"), bad


def test_english_left_names_what_it_found_and_where() -> None:
    found = english_left('<html lang="hi"><body><button>खेलें now</button></body></html>', "hi")
    assert found == ["text: 'now' in 'खेलें now'"]


def test_english_left_skips_only_the_words_the_test_typed() -> None:
    page = '<html lang="hi"><body><p>alice का खाता</p><p>bob Profile</p></body></html>'
    assert english_left(page, "hi", allowed={"alice", "bob"}) == [
        "text: 'Profile' in 'bob Profile'"
    ]


def test_english_left_reads_an_email_line_by_line() -> None:
    email = (
        "بیٹھک: اپنا ای میل پتا تصدیق کریں\n"
        "یہ لنک کھولیں: https://testserver/ur/accounts/confirm-email/MQ:1tZk:abcDEF/\n"
        "سوال؟ help@example.com\n"
    )
    assert english_left(email, "ur") == []
    found = english_left(email + "Thanks, the team\n", "ur")
    assert found == [
        f"line 4: {word!r} in 'Thanks, the team'" for word in ("Thanks", "the", "team")
    ]


def test_english_left_refuses_english_as_the_language() -> None:
    with pytest.raises(ValueError, match="English is the source"):
        english_left("<p>Rules</p>", "en")


def test_extraction_finds_known_strings() -> None:
    # Guards the extractor on the real repository: a broken walk would find nothing.
    templates = template_msgids()
    assert "Skip to content" in templates  # {% translate %} in base.html
    # {% blocktranslate trimmed %} in home.html
    assert any(m.startswith("Play a game of Rung against bots") for m in templates)
    assert "On this page" in templates  # an app template
    assert "South" in python_msgids()  # guide/figures.py
    assert "South" not in python_msgids(under=["accounts"])  # `under` narrows the walk


def _repo(tmp_path: Path, po_body: str) -> Path:
    (tmp_path / "locale" / "xx" / "LC_MESSAGES").mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    (tmp_path / "locale" / "xx" / "LC_MESSAGES" / "django.po").write_text(
        header + po_body, encoding="utf-8"
    )
    templates = tmp_path / "app" / "templates" / "app"
    templates.mkdir(parents=True)
    (templates / "page.html").write_text(
        '{% load i18n %}<h1>{% translate "Title" %}</h1>'
        "<p>{% blocktranslate trimmed with n=3 %}Seat {{ n }}{% endblocktranslate %}</p>",
        encoding="utf-8",
    )
    (tmp_path / "app" / "views.py").write_text(
        'from django.utils.translation import gettext as _\nLABEL = _("Label")\n',
        encoding="utf-8",
    )
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "views.py").write_text(
        'from django.utils.translation import gettext_lazy\nX = gettext_lazy("Elsewhere")\n',
        encoding="utf-8",
    )
    return tmp_path


COMPLETE = (
    'msgid "Title"\nmsgstr "عنوان"\n\n'
    'msgid "Seat %(n)s"\nmsgstr "نشست %(n)s"\n\n'
    'msgid "Label"\nmsgstr "نام"\n\n'
    'msgid "Elsewhere"\nmsgstr "کہیں اور"\n\n'
)


def test_catalogue_gaps_passes_a_complete_catalogue(tmp_path: Path) -> None:
    assert catalogue_gaps("xx", root=_repo(tmp_path, COMPLETE)) == []


def test_catalogue_gaps_finds_every_fault(tmp_path: Path) -> None:
    po = (
        'msgid "Title"\nmsgstr ""\n\n'  # untranslated
        '#, fuzzy\nmsgid "Label"\nmsgstr "نام"\n\n'  # fuzzy: not a translation yet
        'msgid "Seat %(n)s"\nmsgstr "نشست"\n\n'  # the placeholder is lost
        'msgid "One trick"\nmsgid_plural "%(n)s tricks"\n'
        'msgstr[0] "ایک"\nmsgstr[1] "%(n)s"\n\n'  # a plural form lost it
        'msgid "Twice"\nmsgstr "دو بار"\n\n'
        'msgid "Twice"\nmsgstr "دوبارہ"\n\n'  # a msgid appended twice
        '#~ msgid "Gone"\n#~ msgstr "گیا"\n'  # obsolete
    )
    gaps = catalogue_gaps("xx", root=_repo(tmp_path, po))
    assert sorted(gaps) == sorted({
        "untranslated: 'Title'",
        "fuzzy: 'Label'",
        "obsolete: 'Gone'",
        "duplicate: 'Twice' (context None)",
        "placeholders differ: 'Seat %(n)s'",
        "placeholders differ: 'One trick'",
        "missing: 'Title' (from app/templates/app/page.html)",
        "missing: 'Label' (from app/views.py)",
        "missing: 'Elsewhere' (from other/views.py)",
    })


def test_catalogue_gaps_checks_only_the_strings_under_the_given_folders(tmp_path: Path) -> None:
    root = _repo(tmp_path, COMPLETE.replace('msgid "Elsewhere"\nmsgstr "کہیں اور"\n\n', ""))
    assert catalogue_gaps("xx", ["app"], root=root) == []
    assert catalogue_gaps("xx", ["other"], root=root) == [
        "missing: 'Elsewhere' (from other/views.py)"
    ]


def test_catalogue_gaps_refuses_a_missing_catalogue_or_folder(tmp_path: Path) -> None:
    root = _repo(tmp_path, COMPLETE)
    with pytest.raises(ValueError, match="no catalogue"):
        catalogue_gaps("zz", root=root)
    with pytest.raises(ValueError, match="no folder 'nowhere'"):
        catalogue_gaps("xx", ["nowhere"], root=root)
