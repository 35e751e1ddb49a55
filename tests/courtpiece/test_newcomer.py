"""What a newcomer at a Court Piece table needs to see, drawn from payloads: the trick just
won stays on the felt with its winner, the hand that just ended sits on top of the next
one until its first card, the claim warns before it claims, the trump call says what it
is, and every card name's possessive agrees with its rank in Urdu and Hindi."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from game.courtpiece.render import describe
from game.courtpiece.seats import Seats
from game.courtpiece.words import card_name, suit_name
from game.engine import courtpiece as cp
from game.tables.html import table_frame_html
from tests.language import english_left

from .payloads import RULESETS, payload

ALL_CARDS = [r + s for s in "SHDC" for r in "AKQJT98765432"]


def _play_until(m: cp.Match, done: Any, seed: int = 4) -> cp.Match:
    rng = random.Random(seed)
    for _step in range(400):
        if done(m):
            return m
        legal = [a for a in m.legal_actions() if a not in ("timeout", "claim", "redeal")]
        m = m.apply(rng.choice(legal))
    raise AssertionError("never reached")


def _slots(html: str) -> dict[str, str]:
    """place -> the card code drawn in that trick slot."""
    return dict(
        re.findall(
            r'<div class="slot slot-(\w+)"><span class="card-static played[^"]*"'
            r'[^>]*data-card="(\w\w)"',
            html,
        )
    )


def _trick_just_won(seed: str = "won") -> cp.Match:
    m = cp.Match(cp.Rules(variant="rung"), seed=seed, chain=50)
    return _play_until(
        m,
        lambda m: (
            m.hand.phase == "play"
            and not m.view(0)["hand"]["trick"]
            and len(m.view(0)["hand"]["completed_tricks"]) >= 2
        ),
    )


# --- 1. the trick just won, and the hand just ended ----------------------------------------


def test_the_fourth_card_stays_with_the_trick_until_the_next_card_and_the_winner_is_named() -> None:
    m = _trick_just_won()
    last = m.view(0)["hand"]["completed_tricks"][-1]
    winner = last["winner"]
    html = table_frame_html(payload(m, 0), "en")
    # All four cards of the trick still lie in the middle, each at its player's place.
    shown = _slots(html)
    assert sorted(shown.values()) == sorted(c["card"] for c in last["cards"])
    places = {0: "bottom", 1: "right", 2: "top", 3: "left"}
    assert shown == {places[c["seat"]]: c["card"] for c in last["cards"]}
    # The winner: in words in the middle, its card ringed, its seat badged.
    winning = next(c["card"] for c in last["cards"] if c["seat"] == winner)
    who = "You" if winner == 0 else f"Bot ({['South', 'East', 'North', 'West'][winner]})"
    assert re.search(rf'class="trick-winner"[^>]*>{re.escape(who)} won the trick\.<', html)
    assert re.search(rf'class="card-static played won"[^>]*data-card="{winning}"', html)
    assert html.count('class="card-static played won"') == 1
    won_seat = re.search(rf'<section data-seat="{winner}".*?</section>', html, re.S)
    assert won_seat and "Won the trick" in won_seat.group(0)
    # The aria-live region says it too.
    region = re.search(r'<div id="table-announce" hx-swap-oob="innerHTML">(.*?)</div>', html)
    assert region and "the trick." in region.group(1)
    # The next card clears it: only that card is in the middle, no winner any more.
    nxt = m.apply(m.legal_actions()[0])
    html = table_frame_html(payload(nxt, 0), "en")
    assert list(_slots(html).values()) == [nxt.view(0)["hand"]["trick"][0]["card"]]
    assert "trick-winner" not in html and "Won the trick" not in html


@pytest.mark.parametrize(("lang", "words"), [("ur", "چال"), ("hi", "चाल")])
def test_the_trick_winner_is_said_in_urdu_and_hindi(lang: str, words: str) -> None:
    html = table_frame_html(payload(_trick_just_won(), 2), lang)
    winner = re.search(r'class="trick-winner"[^>]*>([^<]+)<', html)
    assert winner and words in winner.group(1)
    assert english_left(html, lang, allowed={"asma", "UTC"}) == []


def _young_next_hand() -> cp.Match:
    m = cp.Match(cp.Rules(variant="rung"), seed="young-next", chain=50)
    return _play_until(m, lambda m: bool(m.hands) and m.hand.phase == "call")


def test_the_hand_that_ended_is_on_top_of_the_next_one_with_its_last_trick() -> None:
    m = _young_next_hand()
    ended = m.hands[-1].view(0)
    html = table_frame_html(payload(m, 0), "en")
    # Over the felt, first in it (laid over its top, not in the page's flow: issue 27), not
    # below the fold.
    felt, seats = html.index('class="felt"'), html.index("<section data-seat=")
    assert 0 < felt < html.index('class="hand-summary"') < seats
    summary = html[html.index('class="hand-summary"') : seats]
    assert "Hand 1 is over" in summary and "Winner:" in summary
    last = ended["completed_tricks"][-1]
    for c in last["cards"]:
        with translation.override("en"):
            assert card_name(c["card"]) in summary
    assert "won the trick." in summary
    region = re.search(r'<div id="table-announce" hx-swap-oob="innerHTML">(.*?)</div>', html)
    assert region and region.group(1).startswith("Hand 1 is over.")


def test_the_summary_stays_through_the_call_and_goes_with_the_first_card() -> None:
    m = _young_next_hand()
    p = payload(m, 0)
    p.pop("last_hand")  # the socket's frame: the page fetches the summary itself
    html = table_frame_html(p, "en")
    slot = re.search(r'<div id="summary-slot-1"[^>]*>', html)
    assert slot and 'hx-preserve="true"' in slot.group(0)  # kept across frames
    assert 'hx-get="summary/1/"' in slot.group(0)
    assert html.index('class="felt"') < html.index("summary-slot-1") < html.index(
        "<section data-seat="
    )
    # Trump called: still the young hand, the same slot (so the summary stays).
    called = _play_until(m, lambda m: m.hand.phase == "play")
    p = payload(called, 0)
    assert 'id="summary-slot-1"' in table_frame_html(p, "en")
    assert 'class="hand-summary"' in table_frame_html({**p, "last_hand": m.hands[-1].view(0)}, "en")
    # The first card of the new hand: the summary has had its time.
    first = called.apply(called.legal_actions()[0])
    for frame in (payload(first, 0), {**payload(first, 0), "last_hand": m.hands[-1].view(0)}):
        html = table_frame_html(frame, "en")
        assert "summary-slot" not in html and 'class="hand-summary"' not in html


# --- 3. the claim ------------------------------------------------------------------------


def _claim_offered() -> tuple[cp.Match, int]:
    m = cp.Match(cp.Rules(variant="rung"), seed="claim", chain=50)
    m = _play_until(m, lambda m: "claim" in m.legal_actions())
    assert m.to_move is not None
    return m, m.to_move


def test_the_claim_is_a_two_step_confirmation_that_says_what_happens() -> None:
    m, seat = _claim_offered()
    html = table_frame_html(payload(m, seat), "en")
    box = re.search(r'<details class="claim-confirm"[^>]*>(.*?)</details>', html, re.S)
    assert box, "the claim is not behind a confirmation"
    inside = box.group(1)
    # Step one is the <summary> (a keyboard control of its own, no script needed)...
    assert re.search(r"<summary[^>]*>Claim every trick \(open my hand\)…</summary>", inside)
    # ...which says what claiming does and what a wrong claim costs (RULES CP-RUNG-5)...
    assert "face up" in inside and "82" in inside
    assert "scored as if you had not claimed" in inside and "cannot be taken back" in inside
    assert 'href="/en/rules/rung/#biyasi"' in inside
    # ...and only step two sends the claim: the one claim form is inside the box.
    assert html.count('name="action" value="claim"') == 1
    assert 'name="action" value="claim"' in inside
    # It comes in every language.
    for lang in ("ur", "hi"):
        html = table_frame_html(payload(m, seat), lang)
        box = re.search(r'<details class="claim-confirm"[^>]*>(.*?)</details>', html, re.S)
        assert box and "82" in box.group(1)
        assert english_left(box.group(1), lang) == []


# --- 4. choosing trump -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "options", "rules"),
    [
        ("rung", {}, "/en/rules/rung/#deal"),
        ("single_sar", {}, "/en/rules/single-sar/#who-calls"),
        ("double_sar", {}, "/en/rules/double-sar/#same"),
        ("hidden", {}, "/en/rules/hidden-rung/#hiding"),
        ("hukum", {"bidding": False}, "/en/rules/hukum/#no-bidding"),
    ],
)
def test_the_trump_call_says_what_is_chosen_from_five_cards_and_links_the_rules(
    variant: str, options: dict[str, Any], rules: str
) -> None:
    m = cp.Match(cp.Rules(variant=variant, **options), seed=f"call-{variant}", chain=50)
    caller = m.to_move
    assert caller is not None and m.hand.phase == "call"
    html = table_frame_html(payload(m, caller), "en")
    help_box = re.search(r'<div class="call-help">(.*?)</div>', html, re.S)
    assert help_box, "no words for the trump call"
    text = help_box.group(1)
    assert "trump" in text and "only your first five cards" in text
    assert "the suit you hold the most of" in text
    assert f'href="{rules}"' in text
    # The other buttons of the call are explained after them, where they are offered.
    if "thirteenth" in m.legal_actions():
        extra = re.search(r'<p class="call-extra">(.*?)</p>', html, re.S)
        assert extra and "thirteenth card" in extra.group(1)
    if "pass" in m.legal_actions():
        assert "pass the choice to your partner once" in html
    # Only for the player choosing: the others see whose choice it is.
    other = (caller + 1) % 4
    assert "call-help" not in table_frame_html(payload(m, other), "en")
    for lang in ("ur", "hi"):
        html = table_frame_html(payload(m, caller), lang)
        help_box = re.search(r'<div class="call-help">(.*?)</div>', html, re.S)
        assert help_box and f'href="/{lang}/rules/' in help_box.group(1)
        assert english_left(help_box.group(1), lang) == []


# --- 5. card names in Urdu and Hindi ------------------------------------------------------

#: The rank's own word and its gender, decided word by word: Urdu اِکّا، بادشاہ، غلام، دہلا،
#: نہلا are masculine; بیگم and the -ی words اَٹھی … دُگّی feminine. Hindi writes 9…2 as
#: digits (RULES CP-12), read as numbers (नौ … दो), which take का like इक्का, बादशाह, गुलाम,
#: दहला; बेगम is feminine.
GENDER = {
    "ur": {"possessive": {"m": "کا", "f": "کی"}, "feminine": set("Q8765432")},
    "hi": {"possessive": {"m": "का", "f": "की"}, "feminine": set("Q")},
}
RANK_WORDS = {
    "ur": dict(
        zip(
            "AKQJT98765432",
            ["اِکّا", "بادشاہ", "بیگم", "غلام", "دہلا", "نہلا", "اَٹھی", "سَتی", "چِھکی",
             "پَنجی", "چوکی", "تِگی", "دُگّی"],
            strict=True,
        )
    ),
    "hi": dict(
        zip(
            "AKQJT98765432",
            ["इक्का", "बादशाह", "बेगम", "गुलाम", "दहला", "9", "8", "7", "6", "5", "4", "3", "2"],
            strict=True,
        )
    ),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_every_card_name_has_the_possessive_of_its_ranks_gender(lang: str) -> None:
    rules = GENDER[lang]
    wrong = []
    with translation.override(lang):
        for code in ALL_CARDS:
            rank, suit = code[0], code[1]
            gender = "f" if rank in rules["feminine"] else "m"
            want = f"{suit_name(suit)} {rules['possessive'][gender]} {RANK_WORDS[lang][rank]}"
            if card_name(code) != want:
                wrong.append((code, card_name(code), want))
    assert wrong == []


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_no_verb_after_a_card_name_has_to_agree_with_it(lang: str) -> None:
    """ "آپ نے حُکم کی بیگم چلا" is wrong and "چلی" would be wrong for an ace: the sentence
    is built so that nothing after the card name agrees with it."""
    seats = Seats({"seat": 0, "seats": []})
    with translation.override(lang):
        for code in ALL_CARDS:
            for seat in (0, 1):
                said = describe(seats, seat, f"play:{code}")
                name = card_name(code)
                assert name in said
                after = said.split(name, 1)[1]
                assert after.strip() in ("۔", "।"), said


# --- who chose trump --------------------------------------------------------------------


def _bar(html: str) -> str:
    start = html.index('<div class="table-bar"')
    return html[start : html.index("</div>", start) + 6]  # the bar holds no other <div>


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "chose {suit} as trump"), ("ur", "کو ترپ چُنا"), ("hi", "को तुरुप चुना")],
)
def test_the_status_bar_says_who_chose_trump_and_the_hakim_badge_explains_itself(
    lang: str, words: str
) -> None:
    m = _play_until(
        cp.Match(cp.Rules(variant="rung"), seed="who-called", chain=50),
        lambda m: m.hand.phase == "play",
    )
    caller, trump = m.hand.caller, m.view(0)["hand"]["trump"]
    assert caller is not None and trump
    viewer = (caller + 1) % 4  # someone else chose: their name is said
    html = table_frame_html(payload(m, viewer), lang)
    with translation.override(lang):
        who = Seats(payload(m, viewer)).name(caller)
        suit = suit_name(trump)
    bar = _bar(html)
    assert 'data-testid="trump-chosen"' in bar
    assert who in bar and suit in bar and words.format(suit=suit) in bar
    assert 'class="badge caller" title="' in html
    if lang != "en":
        assert english_left(bar, lang, allowed={"UTC"}) == []  # the clock's own words
    # The caller themself is told in the second person.
    mine = _bar(table_frame_html(payload(m, caller), "en"))
    with translation.override("en"):
        assert f"You chose {suit_name(trump)} as trump." in mine


def test_a_hidden_trump_is_said_to_be_chosen_without_its_suit() -> None:
    m = _play_until(
        cp.Match(cp.Rules(variant="hidden"), seed="who-hid", chain=50),
        lambda m: m.hand.phase == "play",
    )
    caller = m.hand.caller
    assert caller is not None and m.view(0)["hand"]["hidden"]["placed"]
    viewer = (caller + 1) % 4
    bar = _bar(table_frame_html(payload(m, viewer), "en"))
    assert "chose a hidden trump." in bar
    for s in ("Spades", "Hearts", "Diamonds", "Clubs"):
        assert f"chose {s}" not in bar


# --- the hand never moves ---------------------------------------------------------------


def test_choices_come_below_the_hand_so_the_cards_stay_put_and_the_claim_is_quiet() -> None:
    """The claim is offered only when leading; above the hand it pushed the cards ~100 px
    down and up between tricks. Every choice panel comes after the hand, and a panel with
    only the claim in it is the quiet (minor) one."""
    m, seat = _claim_offered()
    html = table_frame_html(payload(m, seat), "en")
    assert html.index('<section class="my-hand"') < html.index('<section class="choices minor"')
    # Choosing trump: the five cards first, then what to choose; not the quiet panel.
    m = cp.Match(cp.Rules(variant="rung"), seed="below", chain=50)
    chooser = m.to_move
    assert chooser is not None
    html = table_frame_html(payload(m, chooser), "en")
    assert html.index('<section class="my-hand"') < html.index('<section class="choices"')


# --- what the score means -----------------------------------------------------------------


def _ended(variant: str, options: dict[str, Any], seed: str) -> cp.Match:
    """The match just after its first hand that was not a redeal ended."""
    m = cp.Match(cp.Rules(variant=variant, **options), seed=seed, chain=50)
    return _play_until(
        m, lambda m: bool(m.hands) and m.hands[-1].view(0)["result"]["kind"] != "redeal"
    )


@pytest.mark.parametrize(("variant", "options"), RULESETS)
def test_the_summary_says_in_one_sentence_what_the_result_is_worth(
    variant: str, options: dict[str, Any]
) -> None:
    """RULES CP-RUNG-3 (7, 13, 52, 82 points), CP-SS-5 (1 a hand), CP-HK-6 (the bid, or
    double it lost): the sentence carries the engine's own number for this result."""
    m = _ended(variant, options, "worth")
    result = m.hands[-1].view(0)["result"]
    html = table_frame_html(payload(m, 0), "en")
    found = re.search(r'<p class="points-explained"[^>]*>(.*?)</p>', html, re.S)
    assert found, (variant, result["kind"])
    sentence = found.group(1)
    n = abs(next((p for p in result["points"] if p), 0))
    assert re.search(rf"\b{n}\b", sentence), (sentence, result)
    if variant == "rung" and result["kind"] == "win":
        assert "7 of the 13 tricks win the hand, and a win scores 7 points." in sentence
    # The target of the match comes with it, and in the status bar with what a hand is worth.
    assert "wins the match" in sentence or "loses the match" in sentence
    bar = _bar(html)
    assert 'data-testid="goal"' in bar and ("wins the match" in bar or "loses the match" in bar)
    for lang in ("ur", "hi"):
        html = table_frame_html(payload(m, 0), lang)
        found = re.search(r'<p class="points-explained"[^>]*>.*?</p>', html, re.S)
        assert found and english_left(found.group(0), lang) == []
        assert english_left(_bar(html), lang, allowed={"UTC"}) == []


def test_each_rung_result_kind_has_its_own_points_sentence() -> None:
    from game.courtpiece.words import points_explained

    with translation.override("en"):
        for kind, n in (("win", 7), ("court", 13), ("baawan", 52), ("biyasi", 82)):
            text = points_explained("rung", {"kind": kind, "winner": 1, "points": [0, n]})
            assert str(n) in text, kind
        made = {"kind": "made", "winner": 0, "points": [9, 0], "contract": [9, 0]}
        assert "gain 9 points" in points_explained("hukum", made)
        missed = {"kind": "set", "winner": 1, "points": [-18, 0], "contract": [9, 0]}
        assert "lose 18 points" in points_explained("hukum", missed)


# --- Hindi words at the table -------------------------------------------------------------


def test_hindi_table_says_turup_for_trump_and_chaal_for_a_trick_and_keeps_rung_the_game() -> None:
    """"रंग" is the game's name and "हुकुम" both spades (CP-12) and a variant; a trump label
    "रंग हुकुम" read as either. At the table trump is "तुरुप" and a trick "चाल" ("हाथ"
    reads as the hand), and "रंग" is left to the game's name."""
    m = _play_until(
        cp.Match(cp.Rules(variant="rung"), seed="hindi-words", chain=50),
        lambda m: m.hand.phase == "play" and len(m.view(0)["hand"]["completed_tricks"]) >= 1,
    )
    html = table_frame_html(payload(m, 0), "hi")
    trump = re.search(r'<p class="trump"><span class="label">([^<]+)</span>', html)
    assert trump and trump.group(1) == "तुरुप"
    head = re.search(r'<table class="teams">.*?</thead>', html, re.S)
    assert head and "चालें" in head.group(0) and "हाथ" not in head.group(0)
    assert '<p class="variant">रंग</p>' in html
    rest = html.replace('<p class="variant">रंग</p>', "")
    assert "रंग" not in rest and "हाथ" not in rest
    with translation.override("hi"):
        assert suit_name("S") == "हुकुम"  # the suit keeps its name (RULES CP-12)
