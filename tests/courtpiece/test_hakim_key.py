"""The "Hakim" badge explains itself on a phone too: whenever a seat wears it, the table's
bar shows the same badge with words beside it (who chose trump), and the seat's badge
points at those words for a screen reader. It was explained only by a title= (hover),
which touch screens never show, and the badge's note "(chose trump)" is hidden under
40rem."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from game.courtpiece.seats import Seats
from game.courtpiece.words import suit_name
from game.engine import courtpiece as cp
from game.tables.html import table_frame_html
from tests.language import english_left

from .payloads import payload


def _play_until(m: cp.Match, done: Any, seed: int = 4) -> cp.Match:
    rng = random.Random(seed)
    for _step in range(400):
        if done(m):
            return m
        legal = [a for a in m.legal_actions() if a not in ("timeout", "claim", "redeal")]
        m = m.apply(rng.choice(legal))
    raise AssertionError("never reached")


def _key(html: str) -> str:
    found = re.search(r'<p class="trump-chosen" id="hakim-key"[^>]*>(.*?)</p>', html)
    assert found is not None, "a seat wears the Hakim badge: the bar explains it"
    return found.group(1)


def _visible_words(fragment: str) -> str:
    fragment = re.sub(r'<span class="visually-hidden">.*?</span>', "", fragment)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.mark.parametrize(
    ("lang", "chose"),
    [("en", "chose {suit} as trump"), ("ur", "کو ترپ چُنا"), ("hi", "को तुरुप चुना")],
)
def test_the_bar_explains_the_hakim_badge_in_words_once_trump_is_chosen(
    lang: str, chose: str
) -> None:
    m = _play_until(
        cp.Match(cp.Rules(variant="rung"), seed="hakim-key", chain=50),
        lambda m: m.hand.phase == "play",
    )
    caller, trump = m.hand.caller, m.view(0)["hand"]["trump"]
    viewer = (caller + 1) % 4
    html = table_frame_html(payload(m, viewer), lang)
    with translation.override(lang):
        hakim = translation.gettext("Hakim")
        who, suit = Seats(payload(m, viewer)).name(caller), suit_name(trump)
    key = _key(html)
    words = _visible_words(key)
    # The same badge the seat wears, then who chose which trump: visible text, no hover.
    assert f'<span class="badge caller-key">{hakim}</span>' in key
    assert words.startswith(hakim) and who in words and chose.format(suit=suit) in words
    assert 'class="badge caller" title="' in html and 'aria-describedby="hakim-key"' in html
    if lang != "en":
        assert english_left(key, lang) == []


def test_every_seat_with_the_badge_has_the_key_in_the_bar() -> None:
    """Through whole hands of every game: a frame with a seat wearing the Hakim badge has
    the key in its bar, and a frame without one has none."""
    for variant in cp.VARIANTS:
        m = cp.Match(cp.Rules(variant=variant), seed=f"key-{variant}", chain=50)
        rng = random.Random(variant)
        for _step in range(120):
            html = table_frame_html(payload(m, 0), "en")
            badge = 'class="badge caller"' in html
            assert badge == ('id="hakim-key"' in html), (variant, m.hand.phase)
            legal = [a for a in m.legal_actions() if a not in ("timeout", "claim", "redeal")]
            if m.is_over or not legal:
                break
            m = m.apply(rng.choice(legal))


def test_no_badge_no_key() -> None:
    """Be-Ranga's trump comes from the first void card, chosen by no one: no seat wears the
    badge, and the bar has no key for it."""
    m = cp.Match(cp.Rules(variant="be_ranga"), seed="no-hakim", chain=50)
    html = table_frame_html(payload(m, 0), "en")
    assert 'class="badge caller"' not in html and 'id="hakim-key"' not in html
