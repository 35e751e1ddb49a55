"""The live backgammon frame drawn from real engine payloads (bg.Game and bg.Match views)
in every phase, for both seats and a spectator: only the legal actions are offered, no
future die and no unrevealed seed is in the HTML, Urdu and Hindi frames have no English."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from game.engine import backgammon as bg
from game.engine import fair
from game.tables.html import table_frame_html
from tests.backgammon import payloads as P
from tests.language import english_left

ACTION = re.compile(r'name="action" value="([^"]*)"')
STEP = re.compile(r'data-from="(\d+)" data-to="(\d+)"')
ALLOWED = {"asma", "UTC"}


def _offered(html: str) -> set[str]:
    return {a for a in ACTION.findall(html) if a}  # the empty one is the Confirm carrier


def _states() -> list[Any]:
    out = list(P.walk(P.money("money-a", beaver=True, jacoby=True), "a"))
    out += list(P.walk(P.match(3, "match-b"), "b"))
    return out


STATES = _states()


def test_bg_walk_reaches_every_phase() -> None:
    phases = {(s.game if isinstance(s, bg.Match) else s).phase for s in STATES}
    assert phases == {"roll", "move", "doubled", "resign", "over"}


@pytest.mark.parametrize("seat", [0, 1, None])
def test_bg_frame_offers_exactly_the_legal_non_move_actions(seat: int | None) -> None:
    for s in STATES:
        payload = P.payload(s, seat)
        html = table_frame_html(payload, "en")
        legal = set(payload["legal"])
        moves = {a for a in legal if a.startswith("move:")}
        expected = legal - moves
        if len(moves) == 1:
            expected |= moves  # a forced play: one click
        assert _offered(html) == expected, (s.history[-3:], seat)
        if seat is None or s.to_move != seat:
            assert 'data-interactive="1"' not in html
            assert "bg-src" not in html


def test_bg_6_move_frame_offers_only_steps_of_legal_plays() -> None:
    from game.backgammon.moves import Turn

    checked = 0
    for s in STATES:
        game = s.game if isinstance(s, bg.Match) else s
        if game.phase != "move" or s.to_move is None:
            continue
        html = table_frame_html(P.payload(s, s.to_move), "en")
        turn = Turn(game.pos, game.dice)
        allowed = {(t.src, t.dst) for ts in turn.movable().values() for t in ts}
        shown = {(int(a), int(b)) for a, b in STEP.findall(html)}
        assert shown == allowed
        checked += 1
    assert checked > 10


def _unrevealed(s: Any) -> list[str]:
    """Seeds the view has not revealed (the chain's later links, the money game's seed)."""
    view = s.view(0)
    revealed = set(view["fairness"].get("server_seeds") or [])
    if view["fairness"].get("server_seed"):
        revealed.add(view["fairness"]["server_seed"])
    seeds = [s.seed] if isinstance(s, bg.Game) else list(fair.chain(s.seed, 6))
    return [x for x in seeds if x and x not in revealed]


@pytest.mark.parametrize("seat", [0, 1, None])
def test_bg_frame_holds_no_unrevealed_seed_nor_future_dice(seat: int | None) -> None:
    for s in STATES:
        html = table_frame_html(P.payload(s, seat), "en")
        hidden = _unrevealed(s)
        for seed in hidden:
            assert seed not in html
        # Future throws come only from an unrevealed seed (fair.dice), so with none of
        # those in the frame no future die can be in it either; the dice drawn are the
        # ones on the board now.
        game = s.game if isinstance(s, bg.Match) else s
        if game.phase == "roll":
            assert "bg-die" not in html or game.dice is not None


@pytest.mark.parametrize("lang", ["ur", "hi"])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_bg_frames_in_urdu_and_hindi_leave_no_english(lang: str, seat: int | None) -> None:
    for s in STATES[::7] + STATES[-3:]:
        html = table_frame_html(P.payload(s, seat), lang)
        left = [w for w in english_left(html, lang) if not any(a in w for a in ALLOWED)]
        assert left == [], left[:5]


def test_bg_frame_shows_cube_score_crawford_and_pips() -> None:
    for s in STATES:
        if isinstance(s, bg.Match) and s.game.crawford_game:
            html = table_frame_html(P.payload(s, 0), "en")
            assert "Crawford game" in html
            assert "Match to 3 points" in html
            break
    else:
        pytest.skip("this walk had no Crawford game")
    s = STATES[0]
    html = table_frame_html(P.payload(s, 0), "en")
    assert "Cube at 1, in the middle." in html
    assert "167 pips" in html
    assert html.count('class="bg-board"') == 2
    assert 'bg-home-right' in html and 'bg-home-left' in html


def _bot_opened_24_20_13_8() -> bg.Game:
    """The bot (seat 1) wins the opening throw with 4-5 and plays 24/20 13/8 on its own
    point numbers; seat 0 is to roll."""
    game = bg.Game(bg.Rules(), dice=[(4, 5), (6, 1), (3, 2)])
    assert game.turn == 1
    return game.apply("move:24/20 13/8")


def test_bg_last_move_is_said_on_the_viewers_point_numbers() -> None:
    html = table_frame_html(P.payload(_bot_opened_24_20_13_8(), 0), "en")
    line = re.search(r'<p class="bg-last-move"[^>]*>([^<]*)</p>', html)
    assert line is not None, "the opponent's last move is shown, not only spoken"
    text = line.group(1)
    assert "rolled 4 and 5" in text
    # the viewer's board: the bot's 24 is the viewer's 1 and its 13 the viewer's 12
    assert "1 to 5" in text and "12 to 17" in text, text
    assert "24 to 20" not in html and "13 to 8" not in html
    announce = re.search(r'id="table-announce"[^>]*>([^<]*)<', html)
    assert announce is not None and "1 to 5" in announce.group(1)


def test_bg_last_move_for_the_mover_and_a_spectator_keeps_their_numbers() -> None:
    state = _bot_opened_24_20_13_8()
    # a spectator sees seat 0's side, as the viewer does
    spectator = table_frame_html(P.payload(state, None), "en")
    assert "Last move: dark rolled 4 and 5 and played 1 to 5; 12 to 17." in spectator
    # the bot's own seat: its move is on its own board, not repeated
    assert "bg-last-move" not in table_frame_html(P.payload(state, 1), "en")
    # once the viewer has rolled, the line stays and the live region says both
    rolled = state.apply("roll")
    html = table_frame_html(P.payload(rolled, 0), "en")
    assert "played 1 to 5; 12 to 17." in html
    assert "You rolled 6 and 1" in html


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_bg_last_move_is_translated(lang: str) -> None:
    html = table_frame_html(P.payload(_bot_opened_24_20_13_8(), 0), lang)
    line = re.search(r'<p class="bg-last-move"[^>]*>([^<]*)</p>', html)
    assert line is not None
    assert english_left(line.group(0), lang) == []


def test_bg_replay_steps_follow_a_roll_with_no_legal_play() -> None:
    """The engine passes the turn after a roll with no legal play without a move in its
    history; the replay's board must change sides there too (it raised IllegalMove on
    the next move, about one game in ten)."""
    import random

    from game.backgammon.views import game_steps
    from game.engine import backgammon as bg

    passes = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = bg.Game(bg.Rules(cube=True), seed=f"s{seed}", client_seeds=["a", "b"])
        while not game.is_over:
            legal = [a for a in game.legal_actions() if not a.startswith("resign")]
            game = game.apply(rng.choice(legal or game.legal_actions()), game.to_move)
        with translation.override("en"):
            rows = game_steps(game)  # replays every move against the board it shows
        passes += sum("No legal move" in row["text"] for row in rows)
        assert len(rows) == len(game.history) + 1
    assert passes  # the case was met
