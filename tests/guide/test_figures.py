"""guide.figures: every figure is well-formed SVG, labelled in the page language, and shows
the trick or position the content format describes (docs: README "Rules pages")."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from guide import figures

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("name", list(figures.FIGURES))
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_figure_is_valid_svg_with_a_title_in_the_language(name: str, lang: str) -> None:
    root = _parse(figures.render(name, lang))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text
    assert root.get("aria-labelledby") == title.get("id")
    if lang == "en":
        assert title.text.isascii()
    elif lang == "ur":
        assert any("\u0600" <= ch <= "\u06ff" for ch in title.text)
    else:
        assert any("\u0900" <= ch <= "\u097f" for ch in title.text)


def test_unknown_figure_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown figure"):
        figures.render("poker-hand", "en")


def _winner_rank(svg: str) -> str:
    """The rank printed on the card drawn with the winner's highlight."""
    root = _parse(svg)
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "card":
            continue
        rect = group.find(f"{SVG}rect")
        if rect is not None and rect.get("stroke") == figures.WIN:
            text = group.find(f"{SVG}text")
            assert text is not None
            return text.text or ""
    raise AssertionError("no highlighted card")


@pytest.mark.parametrize(
    ("name", "rank", "seat_label"),
    [
        ("trick-follow-suit", "A", "North"),  # CP-7: highest of the led suit
        ("trick-trump-cut", "2", "North"),  # CP-7: any trump beats the led suit
        ("trick-off-suit", "Q", "South"),  # CP-7: a third suit wins nothing
        ("trick-hidden-reveal", "3", "West"),  # CP-HID-3/5: trump only after the reveal
    ],
)
def test_trick_figures_highlight_the_winner(name: str, rank: str, seat_label: str) -> None:
    svg = figures.render(name, "en")
    assert _winner_rank(svg) == rank
    texts = _texts(_parse(svg))
    assert texts.count("Wins") == 1
    assert texts[texts.index("Wins") - 1] == seat_label


def test_seats_play_anticlockwise_from_the_bottom() -> None:
    # CP-1/CP-3: seat 0 at the bottom, then right, top, left; discs show the order 1..4.
    # The follow-suit trick is played by seats 0, 1, 2, 3 in that order.
    for lang in ("ur", "hi", "en"):
        root = _parse(figures.render("trick-follow-suit", lang))
        rects = [g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if g.get("class") == "card"]
        xs_ys = [(float(r.get("x")), float(r.get("y"))) for r in rects if r is not None]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = xs_ys
        assert y0 > y1 > y2 and x1 > x0 > x3 and y3 == y1 and x2 == x0


def test_ranks_figure_uses_the_language_names() -> None:
    texts = _texts(_parse(figures.render("ranks", "ur")))
    for name in ("اِکّا", "بادشاہ", "بیگم", "غلام", "دہلا", "دُگّی"):  # CP-12
        assert name in texts
    texts = _texts(_parse(figures.render("suits", "hi")))
    for name in ("हुकुम", "पान", "ईंट", "चिड़ी"):  # CP-12
        assert name in texts


@pytest.mark.parametrize(
    "position", [figures.START, figures.HIT, figures.BAR_ENTRY, figures.BEAR_OFF]
)
def test_backgammon_positions_hold_fifteen_checkers_a_side(position: figures.BgPosition) -> None:
    for side in ("light", "dark"):
        points = getattr(position, side)
        bar, off = getattr(position, f"{side}_bar"), getattr(position, f"{side}_off")
        total = sum(points.values()) + bar + off
        assert total == 15


def test_start_position_is_the_standard_one() -> None:
    # BG-1, light from its own side; dark mirrored (25 - point).
    assert figures.START.light == {24: 2, 13: 5, 8: 3, 6: 5}
    assert figures.START.dark == {25 - p: n for p, n in figures.START.light.items()}


def test_bear_off_position_has_every_light_checker_home() -> None:
    assert all(p <= 6 for p in figures.BEAR_OFF.light)  # BG-9


def test_bar_entry_lands_on_an_open_point() -> None:
    # Light on the bar rolls 3: enters on 25 - 3 = 22, which dark has not closed (BG-8).
    assert figures.BAR_ENTRY.light_bar == 1
    assert figures.BAR_ENTRY.dark.get(22, 0) < 2


def test_bad_position_is_refused() -> None:
    with pytest.raises(ValueError, match="15 checkers"):
        figures.BgPosition(light={1: 14}, dark={24: 15})
    with pytest.raises(ValueError, match="one side only"):
        figures.BgPosition(light={1: 15}, dark={1: 15})


def test_board_shows_more_than_five_as_a_number() -> None:
    # Seven light checkers on the 6-point, and no other checker on the board.
    alone = figures.BgPosition(light={6: 7}, dark={}, light_off=8, dark_off=15)
    svg = figures.board_body(alone)
    assert svg.count("<circle") == 5
    assert f'fill="{figures.BLACK}">7</text>' in svg  # on the top checker (the points'
    # own numbers are in another ink)
