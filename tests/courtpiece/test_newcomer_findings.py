"""A newcomer's second look at a Court Piece table (their screenshots, December 2026): the
hand-over panel leads to the hand's replay; what a hand is worth is in the bar from the
first hand; Leave asks before it leaves; the mistakes puzzle says the same cost as the
replay. Drawn from payloads and templates; the layout is checked in a browser
(tests/browser/test_newcomer_cp.py)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from game.engine import courtpiece as cp
from game.tables.html import table_frame_html
from tests.language import english_left
from tutorials import mistakes

from .payloads import payload

LANGS = ["en", "ur", "hi"]


def _play_until(m: cp.Match, done: Any, seed: int = 4) -> cp.Match:
    rng = random.Random(seed)
    for _step in range(400):
        if done(m):
            return m
        m = m.apply(rng.choice([a for a in m.legal_actions() if a != "timeout"]))
    raise AssertionError("never got there")


def next_hand_called() -> cp.Match:
    """Rung, hand 1 over and hand 2 waiting for trump: the hand-over panel is up."""
    m = cp.Match(cp.Rules(variant="rung"), seed="newcomer-over", chain=50)
    return _play_until(m, lambda m: bool(m.hands) and m.hand.phase == "call")


def _bar(html: str) -> str:
    return html[html.index('class="table-bar"') : html.index('class="felt"')]


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_over_panel_links_to_the_hands_replay(lang: str) -> None:
    html = table_frame_html(payload(next_hand_called(), 0), lang)
    summary = html[html.index('class="hand-summary"') : html.index('class="fairness"')]
    link = re.search(r'<p class="summary-replay"><a href="([^"]+)"[^>]*>([^<]+)</a>', summary)
    assert link, "no replay link outside the folded fairness box"
    assert link.group(1) == "replay/1/"  # relative to /<lang>/play/<id>/
    if lang == "en":
        assert link.group(2) == "Replay this hand and see your mistakes"
    else:
        assert english_left(link.group(0), lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_what_a_hand_is_worth_is_in_the_bar_from_the_first_hand(lang: str) -> None:
    """RULES CP-RUNG-3: a hand won scores 7 points. Hand 1's bar said only the target on a
    phone: the worth was hidden there until the first summary had said it."""
    m = cp.Match(cp.Rules(variant="rung"), seed="newcomer-first", chain=50)
    with translation.override(lang):
        from game.courtpiece.words import score_hint

        hint = score_hint({"measure": "points"})
    first = _bar(table_frame_html(payload(m, 0), lang))
    assert re.search(r'<span class="score-hint">', first) and hint in first
    later = _bar(table_frame_html(payload(next_hand_called(), 0), lang))
    assert '<span class="score-hint said">' in later


def _tools(lang: str) -> str:
    table = SimpleNamespace(pk=7, status="playing")
    with translation.override(lang):
        return render_to_string(
            "game/partials/table_tools.html",
            {"seat": 0, "table": table, "leave_ends": True, "invite": "",
             "options": "courtpiece/table_options.html"},
        )


@pytest.mark.parametrize("lang", LANGS)
def test_leave_asks_first_and_its_form_still_posts(lang: str) -> None:
    html = _tools(lang)
    details = re.search(r'<details class="leave-confirm"[^>]*>(.*?)</details>', html, re.S)
    assert details, "Leave is one tap again"
    inside = details.group(1)
    # The first tap (the summary) opens; only the button inside leaves, by POST as before.
    assert re.search(r'<summary class="link-button leave-button">[^<]+</summary>', inside)
    assert re.search(r'<form method="post" action="[^"]*/play/7/leave/"', inside)
    assert 'type="submit" data-testid="leave-yes"' in inside
    assert html.count('type="submit"') == 1 and "<script" not in html and "onclick" not in html
    if lang != "en":
        assert english_left(inside, lang) == []


def _mistake(best: float, played: float) -> mistakes.Mistake:
    judged = {"best": best, "played": played, "loss": round(best - played, 2),
              "better": ["AS"], "card": "2H", "trick": 3, "seat": 0}
    return mistakes.Mistake(1, 1, 1, "courtpiece", 0, judged, None)


@pytest.mark.parametrize(
    ("best", "played", "shown"),
    [(6.46, 5.24, ("6.5", "5.2", "1.3")),  # the newcomer's: it said "cost 1.2"
     (6.45, 5.45, ("6.5", "5.5", "1.0")),  # halves up, as the replay's script
     (3.04, 1.96, ("3.0", "2.0", "1.0"))],
)
def test_the_puzzles_cost_is_the_difference_of_the_worths_it_shows(
    best: float, played: float, shown: tuple[str, str, str]
) -> None:
    with translation.override("en"):
        text = mistakes.explanation(_mistake(best, played))
    found = re.search(r"worth ([\d.]+) tricks.*?, ([\d.]+): it cost ([\d.]+) tricks", text)
    assert found, text
    assert found.groups() == shown
