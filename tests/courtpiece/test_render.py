"""game.courtpiece.render draws the table from a state payload: only legal moves are buttons, and no
card the seat may not see is in the HTML (scanned for names, codes and card faces)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.utils import translation

from game.courtpiece.words import card_name
from game.engine import courtpiece as cp
from game.tables.html import error_html, table_frame_html, table_live_html
from tests.language import english_left

from .payloads import RULESETS, payload, walk

ALL_CARDS = [r + s for s in "SHDC" for r in "AKQJT98765432"]


class Scan(HTMLParser):
    """Collects the action buttons (with their forms' fields), card codes and card labels."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, str]] = []
        self.buttons: list[dict[str, str]] = []
        self.labels: list[str] = []
        self.codes: list[str] = []
        self.faces = 0
        self._form: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"ws-send": str("ws-send" in a)}
            self.forms.append(self._form)
        if tag == "input" and self._form is not None:
            assert a.get("type") == "hidden", a
            self._form[a["name"]] = a["value"]
        if tag == "button":
            self.buttons.append(a)
        if "aria-label" in a:
            self.labels.append(a["aria-label"])
        if "data-card" in a:
            self.codes.append(a["data-card"])
        if tag == "svg" and "card-face" in a.get("class", ""):
            self.faces += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None


def scan(html: str) -> Scan:
    s = Scan()
    s.feed(html)
    return s


def visible_cards(view: dict[str, Any]) -> set[str]:
    """Every card a seat's own view shows it (the engine decides; we only draw it)."""
    hand = view["hand"]
    seen = set(hand["hand"])
    seen |= {p["card"] for p in hand["trick"]}
    for t in hand["completed_tricks"]:
        seen |= {p["card"] for p in t["cards"]}
    for o in hand["open_hands"]:
        seen |= set(o["cards"])
    for key in ("thirteenth_card", "turned_card"):
        if hand[key]:
            seen.add(hand[key])
    if hand["hidden"] and hand["hidden"]["card"]:
        seen.add(hand["hidden"]["card"])
    return seen


def private_cards(m: cp.Match, seat: int | None) -> set[str]:
    """Cards in other seats' hands (and a face-down trump) that `seat` may not see."""
    mine = visible_cards(m.view(seat))
    others: set[str] = set()
    for s in range(4):
        if s != seat:
            others |= set(m.view(s)["hand"]["hand"])
            hidden = m.view(s)["hand"]["hidden"]
            if hidden and hidden["card"]:
                others.add(hidden["card"])
    return others - mine


def names_in(labels: list[str]) -> set[str]:
    by_name = {card_name(c): c for c in ALL_CARDS}
    found = set()
    for label in labels:
        for name, code in by_name.items():
            if re.search(rf"(^|\W){re.escape(name)}($|\W)", label):
                found.add(code)
    return found


def split_summary(html: str) -> tuple[str, str]:
    """The frame without the last hand's summary, and the summary: that one shows cards of
    the hand that ended (its last trick), checked against that hand's own view."""
    slot = re.search(r'<div id="summary-slot-\d+"[^>]*>(</div>|.*?</section>\s*</div>)', html, re.S)
    if slot is None:
        return html, ""
    return html[: slot.start()] + html[slot.end() :], slot.group(0)


def check_frame(m: cp.Match, seat: int | None, version: int) -> str:
    p = payload(m, seat, version)
    full_html = table_frame_html(p, "en")
    html, summary = split_summary(full_html)
    if summary:
        seen = scan(summary)
        with translation.override("en"):
            named = names_in(seen.labels) | set(seen.codes)
        assert named <= visible_cards({"hand": p["last_hand"]})
        # No move in the summary: its one button only closes it (static/js/table.js).
        assert not seen.forms
        assert all(b.get("type") == "button" and "data-close-summary" in b for b in seen.buttons)
    s = scan(html)
    # Legal actions are exactly the action forms (no more, no fewer), each ws-send with the
    # version the client saw; every button is in one of them.
    actions = [f for f in s.forms if f.get("type") == "action"]
    assert sorted(f["action"] for f in actions) == sorted(p["legal"])
    assert all(f["ws-send"] == "True" and f["version"] == str(version) for f in actions)
    assert len(s.buttons) == len(s.forms)
    # No card the seat may not see: not by code, not by name, not as a face.
    with translation.override("en"):
        shown = names_in(s.labels) | set(s.codes)
    assert not shown & private_cards(m, seat)
    assert shown <= visible_cards(m.view(seat))
    assert s.faces <= len(s.labels)  # every drawn face carries a label we scanned
    for code in private_cards(m, seat):
        assert f'"{code}"' not in html and f"play:{code}" not in html and f"hide:{code}" not in html
    return full_html


@pytest.mark.parametrize(("variant", "options"), RULESETS)
def test_every_state_of_a_hand_renders_only_legal_buttons_and_no_hidden_card(
    variant: str, options: dict[str, Any]
) -> None:
    phases = set()
    for m, version in walk(variant, options, f"render-{variant}-{sorted(options)}"):
        phases.add(m.hand.phase)
        mover = m.to_move
        if version % 3 and m.hand.phase == "play":
            continue  # every call and bid, every third card: enough, and quick
        for seat in {0, 1, 2, 3, None} if version % 6 == 0 else {mover, (mover or 0) + 1 & 3}:
            check_frame(m, seat, version)
    assert "play" in phases


def _hidden_match() -> tuple[cp.Match, int]:
    for m, _v in walk("hidden", {}, "hidden-caller"):
        h = m.view(0)["hand"]
        if h["phase"] == "play" and h["hidden"]["placed"] and not h["hidden"]["revealed"]:
            caller = m.hand.caller
            if caller is not None and not h["hidden"]["blind"]:
                return m, caller
    raise AssertionError("no hidden card placed")


def test_cp_hid_1_the_face_down_card_is_named_only_for_its_caller() -> None:
    m, caller = _hidden_match()
    hidden = m.view(caller)["hand"]["hidden"]["card"]
    assert hidden
    with translation.override("en"):
        name = card_name(hidden)
    caller_html = table_frame_html(payload(m, caller), "en")
    assert "Your face-down card" in caller_html and name in caller_html
    for seat in [s for s in range(4) if s != caller] + [None]:
        html = table_frame_html(payload(m, seat), "en")
        assert "Trump is face down" in html
        assert "Your face-down card" not in html
        # The caller's own hand is theirs; for the others, the hidden card is nowhere.
        assert name not in html and f'"{hidden}"' not in html


def test_hand_is_grouped_by_suit_high_to_low_and_only_legal_cards_are_buttons() -> None:
    m = cp.Match(cp.Rules(variant="rung"), seed="sorted", chain=50)
    while m.hand.phase != "play":
        m = m.apply(m.legal_actions()[0])
    seat = m.to_move
    assert seat is not None
    html = table_frame_html(payload(m, seat, 3), "en")
    hand = m.view(seat)["hand"]["hand"]
    groups = re.findall(r'<ul class="suit-group" aria-label="(\w+)"', html)
    assert groups == [
        n
        for s, n in zip("SHDC", ["Spades", "Hearts", "Diamonds", "Clubs"], strict=True)
        if any(c[1] == s for c in hand)
    ]
    order = re.findall(
        r'data-(?:card|action)="(?:play:)?([2-9TJQKA][SHDC])"', html.split('class="my-hand"')[1]
    )
    order = list(dict.fromkeys(order))
    expect = [
        c
        for s in "SHDC"
        for c in sorted((x for x in hand if x[1] == s), key=lambda x: "AKQJT98765432".index(x[0]))
    ]
    assert order == expect
    legal = {a[5:] for a in m.legal_actions() if a.startswith("play:")}
    buttons = set(
        re.findall(
            r'<button type="submit" class="card playable" aria-label="[^"]+" '
            r'data-action="play:(\w+)"',
            html,
        )
    )
    assert buttons == legal
    # The caller leads the first trick (CP-3): every card is legal, none dimmed.
    assert "dimmed" not in html


def test_not_your_turn_has_no_card_buttons_and_says_whose_turn() -> None:
    m = cp.Match(cp.Rules(variant="rung"), seed="turn", chain=50)
    while m.hand.phase != "play":
        m = m.apply(m.legal_actions()[0])
    mover = m.to_move
    assert mover is not None
    other = (mover + 1) % 4
    html = table_frame_html(payload(m, other), "en")
    assert 'class="card playable"' not in html and "dimmed" not in html
    assert "to play." in html


def test_calling_choices_are_buttons_from_legal() -> None:
    m = cp.Match(cp.Rules(variant="rung"), seed="calls", chain=50)
    html = table_frame_html(payload(m, m.to_move), "en")
    for action in m.legal_actions():
        assert f'name="action" value="{action}"' in html
    assert "Choose trump" in html


def test_hukum_bids_grid_and_contract() -> None:
    m = cp.Match(cp.Rules(variant="hukum"), seed="bids", chain=50)
    html = table_frame_html(payload(m, m.to_move), "en")
    assert html.count('class="act bid"') == 28 and 'value="pass"' in html
    m = m.apply("bid:8H")
    while m.hand.phase == "bid":
        m = m.apply("pass")
    html = table_frame_html(payload(m, 0), "en")
    assert "Contract:" in html and "8 Hearts" in html and "Bids:" in html


def test_summary_uses_the_games_word_and_shows_the_fairness_check() -> None:
    for m, _v in walk("rung", {}, "summary"):
        if m.hands:
            break
    result = m.hands[-1].result
    assert result is not None
    for lang, words in {
        "en": {"court": "Court", "baawan": "Baawan", "biyasi": "Biyasi", "redeal": "Redeal"},
        "ur": {"court": "کوٹ", "baawan": "باون", "biyasi": "بیاسی"},
        "hi": {"court": "कोट", "baawan": "बावन", "biyasi": "बयासी"},
    }.items():
        html = table_frame_html(payload(m, 0), lang)
        assert 'class="hand-summary"' in html
        seeds = m.view(0)["fairness"]["server_seeds"]
        assert seeds[0] in html and m.view(0)["fairness"]["commitment"] in html
        if result.kind in words:
            assert words[result.kind] in html


@pytest.mark.parametrize(
    "kind", ["kot", "gone_kot", "court", "baawan", "biyasi", "mendikot", "made", "set", "redeal"]
)
def test_every_result_kind_has_its_own_word_in_every_language(kind: str) -> None:
    from game.courtpiece.words import result_word

    words = []
    for lang in ("en", "ur", "hi"):
        with translation.override(lang):
            words.append(result_word(kind))
    assert all(words) and len(set(words)) == 3  # translated, not left in English


def test_match_over_says_who_won() -> None:
    m = cp.Match(cp.Rules(variant="single_sar"), seed="short", chain=50, target=1)
    import random

    rng = random.Random(1)
    while not m.is_over:
        m = m.apply(rng.choice([a for a in m.legal_actions() if a != "timeout"]))
    winner = m.winner
    assert winner is not None
    html = table_frame_html(payload(m, winner), "en")
    assert "You won the match!" in html
    assert "You lost the match." in table_frame_html(payload(m, 1 - winner), "en")


def test_announcement_says_the_card_the_winner_and_whose_turn() -> None:
    m = cp.Match(cp.Rules(variant="rung"), seed="say", chain=50)
    while (
        m.hand.phase != "play"
        or m.view(0)["hand"]["completed_tricks"] == []
        or m.view(0)["hand"]["trick"]
    ):
        m = m.apply(m.legal_actions()[0])
    html = table_frame_html(payload(m, 0), "en")
    region = re.search(r'<div id="table-announce" hx-swap-oob="innerHTML">(.*?)</div>', html, re.S)
    assert region
    text = region.group(1)
    assert "played the" in text
    assert "wins the trick." in text or "You win the trick." in text
    assert "to play." in text or "Your turn." in text


def test_frame_is_out_of_band_and_live_page_html_is_not() -> None:
    m = cp.Match(cp.Rules(variant="rung"), seed="oob", chain=50)
    frame = table_frame_html(payload(m, 0), "en")
    assert frame.startswith('<div id="table-live" hx-swap-oob="true"')
    page = table_live_html(payload(m, 0), "en")
    assert "hx-swap-oob" not in page and 'id="table-live"' in page


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_no_english_left_in_ur_and_hi_frames(lang: str) -> None:
    allowed = {"asma", "UTC", "SHA", "Python"}
    for variant, options in RULESETS:
        for m, version in walk(variant, options, f"words-{variant}"):
            if version % 9 and not m.hands:
                continue
            for seat in (m.to_move, None):
                html = table_frame_html(payload(m, seat, version), lang)
                assert english_left(html, lang, allowed=allowed) == [], (variant, version)


@pytest.mark.parametrize(
    "code", ["malformed", "not_seated", "not_your_turn", "illegal", "stale", "rate_limited"]
)
def test_error_html_is_an_alert_in_each_language(code: str) -> None:
    for lang in ("ur", "hi", "en"):
        html = error_html(code, "the engine says no", lang)
        assert html.startswith('<div id="table-error" hx-swap-oob="innerHTML">')
        assert 'role="alert"' in html
        assert ("the engine says no" in html) == (lang == "en")


def test_a_young_next_hand_asks_the_page_for_the_last_hands_summary() -> None:
    for m, _v in walk("rung", {}, "young"):
        if m.hands:
            break
    p = payload(m, 0)
    p.pop("last_hand", None)
    html = table_frame_html(p, "en")
    assert 'hx-get="summary/1/" hx-trigger="load"' in html
    assert 'class="hand-summary"' not in html


def test_every_card_svg_is_drawn_left_to_right_even_on_an_urdu_page() -> None:
    """An Urdu page is right to left; a card's rank <text> inherited that and hung off the
    card's top-left corner. Every card, back and pip <svg> says direction="ltr" itself, and
    table.css (shared by the table and the replay page) says it too."""
    from pathlib import Path

    m = cp.Match(cp.Rules(variant="rung"), seed="ltr-cards", chain=50)
    while m.hand.phase != "play":
        m = m.apply(next(a for a in m.legal_actions() if a.startswith("call:")))
    m = m.apply(m.legal_actions()[0])
    html = table_frame_html(payload(m, 0), "ur")
    svgs = re.findall(r"<svg\b[^>]*>", html)
    assert len([s for s in svgs if "card-face" in s]) >= 13
    assert svgs and all('direction="ltr"' in s for s in svgs), [
        s for s in svgs if 'direction="ltr"' not in s
    ][:3]
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "table.css").read_text()
    assert re.search(r"svg\.card-face[^{]*\{[^}]*direction:\s*ltr", css)
