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
    line = re.search(r'<p class="bg-last-move"[^>]*>(.*?)</p>', html)
    assert line is not None, "the opponent's last move is shown, not only spoken"
    text = re.sub(r"<[^>]+>", "", line.group(1))
    assert '<span class="bg-notation" dir="ltr" lang="zxx">1/5 12/17</span>' in line.group(1)
    assert "rolled 4 and 5" in text
    # the viewer's board: the bot's 24 is the viewer's 1 and its 13 the viewer's 12; the
    # line writes the play in standard notation, the live region says it in words
    assert "played 1/5 12/17." in text, text
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
    assert ">1/5 12/17</span>." in html and "played 1 to 5; 12 to 17." in html
    assert "You rolled 6 and 1" in html


def _last_move_line(html: str) -> str:
    line = re.search(r'<p class="bg-last-move"[^>]*>(.*?)</p>', html)
    assert line is not None
    return re.sub(r"<[^>]+>", "", line.group(1))


def test_bg_last_move_shows_the_whole_play_of_one_checker_in_notation() -> None:
    """A 6-2 that takes one checker of the bot's from 13 over 7 to 5, hitting on 7 and on
    5: the line shows every hop of it (not only the last one), in standard notation,
    on the viewer's numbers (the bot's 13, 7 and 5 are the viewer's 12, 18 and 20)."""
    bot = {13: 5, 6: 5, 8: 3, 24: 2}
    viewer = {18: 1, 20: 1, 6: 5, 8: 3, 13: 5}  # blots on the bot's 7 and 5
    pos = bg.Position.from_points(bot, viewer)
    game = bg.Game(bg.Rules(cube=False), position=pos, dice=[(6, 2), (6, 4)], turn=1)
    if "roll" in game.legal_actions():
        game = game.apply("roll")
    assert "move:13/7*/5*" in game.legal_actions(), game.legal_actions()
    game = game.apply("move:13/7*/5*")
    text = _last_move_line(table_frame_html(P.payload(game, 0), "en"))
    assert "rolled 6 and 2 and played 12/18*/20*." in text, text


def test_bg_last_move_notation_keeps_counts_and_the_bar() -> None:
    from game.backgammon.telling import notation_for_viewer

    assert notation_for_viewer("24/22*/21 bar/20(2) 6/off", 1, 0) == "1/3*/4 bar/5(2) 19/off"
    assert notation_for_viewer("24/18 13/9", 0, 0) == "24/18 13/9"


def _after(actions: list[str], dice: list[tuple[int, int]]) -> Any:
    game = bg.Game(bg.Rules(), dice=dice)
    for action in actions:
        game = game.apply(action)
    return game


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_a_double_is_said_without_repeating_the_play_before_it(lang: str) -> None:
    """The viewer's play hits a blot, then the bot doubles: the live regions say the
    double and never the "hitting a blot" of the play before it (it was said again on the
    double's line)."""
    game = bg.Game(bg.Rules(), dice=[(4, 5), (6, 1), (3, 2)])
    game = game.apply("move:24/20 13/8")  # the bot, seat 1, wins the opening throw
    game = game.apply("roll")
    hitting = [a for a in game.legal_actions() if "*" in a]
    assert hitting, game.legal_actions()
    game = game.apply(hitting[0])  # the viewer, seat 0, hits
    game = game.apply("double")  # the bot doubles
    assert game.phase == "doubled"
    html = table_frame_html(P.payload(game, 0), lang)
    with translation.override(lang):
        hit_words = str(translation.gettext("%(from)s to %(to)s, hitting a blot")).split(",")[-1]
        doubles = translation.gettext("%(who)s doubles.") % {
            "who": translation.gettext("Your opponent")
        }
    regions = re.findall(r'aria-live="polite"[^>]*>([^<]*)<', html)
    regions += re.findall(r'id="table-announce"[^>]*>([^<]*)<', html)
    assert regions
    for said in regions:
        assert hit_words.strip() not in said, said
    assert any(doubles in said for said in regions), regions


def test_the_viewers_own_double_reads_you_double() -> None:
    game = bg.Game(bg.Rules(), dice=[(5, 4), (6, 1), (3, 2)])
    game = game.apply("move:13/8 24/20")  # the viewer, seat 0, opens
    game = game.apply("roll")
    game = game.apply(game.legal_actions()[0])  # the bot plays
    game = game.apply("double")  # the viewer doubles
    html = table_frame_html(P.payload(game, 0), "en")
    assert "You double." in html and "You doubles" not in html
