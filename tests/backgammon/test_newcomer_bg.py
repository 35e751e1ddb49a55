"""A newcomer's findings at the backgammon table: after the player's double is taken the
status says what happened and offers only the roll (the cube is the opponent's now:
BG-11); Take and Drop say what each costs in points; the last move is marked on the
board and its notation explained."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from game.engine import backgammon as bg
from game.tables.html import table_frame_html
from tests.backgammon import payloads as P

STATUS = re.compile(r'id="bg-top-status"[^>]*>([^<]*)<')


def after_double(answer: str) -> bg.Game:
    """The viewer (seat 0) opens, the bot plays, the viewer doubles, the bot answers."""
    game = bg.Game(bg.Rules(), dice=[(5, 4), (6, 1), (3, 2)])
    game = game.apply("move:13/8 24/20")
    game = game.apply("roll")
    game = game.apply(game.legal_actions()[0])
    game = game.apply("double")
    return game.apply(answer) if answer else game


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_after_the_double_is_taken_the_status_says_so_and_asks_only_for_the_roll(
    lang: str,
) -> None:
    """BG-11: the taker owns the cube, so the doubler may not double again: the status
    must not offer "roll or double", and says the take first."""
    game = after_double("take")
    assert game.phase == "roll" and game.to_move == 0
    payload = P.payload(game, 0)
    assert "double" not in payload["legal"]
    html = table_frame_html(payload, lang)
    (status,) = STATUS.findall(html)
    with translation.override(lang):
        took = translation.gettext("%(who)s takes the double.") % {
            "who": translation.gettext("Your opponent")
        }
        roll = translation.gettext("Your turn: roll the dice.")
        either = translation.gettext("Your turn: roll or double.")
    assert took in status and roll in status, status
    assert either not in status


def test_the_status_offers_the_double_only_when_it_is_legal() -> None:
    game = bg.Game(bg.Rules(), dice=[(5, 4), (6, 1), (3, 2)])
    game = game.apply("move:13/8 24/20")
    game = game.apply("roll")
    game = game.apply(game.legal_actions()[0])  # the bot plays: the viewer may double
    payload = P.payload(game, 0)
    assert "double" in payload["legal"]
    (status,) = STATUS.findall(table_frame_html(payload, "en"))
    assert status == "Your turn: roll or double."
    no_cube = bg.Game(bg.Rules(cube=False), dice=[(5, 4), (6, 1), (3, 2)])
    no_cube = no_cube.apply("move:13/8 24/20").apply("roll")
    no_cube = no_cube.apply(no_cube.legal_actions()[0])
    (status,) = STATUS.findall(table_frame_html(P.payload(no_cube, 0), "en"))
    assert status == "Your turn: roll the dice."




@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_take_and_drop_say_their_stakes_in_points(lang: str) -> None:
    """BG-11: a take plays on at twice the cube; a drop loses the cube's value now."""
    game = bg.Game(bg.Rules(), dice=[(4, 5), (6, 1), (3, 2)])
    game = game.apply("move:24/20 13/8").apply("roll")
    game = game.apply(game.legal_actions()[0])  # the viewer plays
    game = game.apply("double")  # the bot doubles, cube in the middle at 1
    assert game.phase == "doubled" and game.to_move == 0
    html = table_frame_html(P.payload(game, 0), lang)
    with translation.override(lang):
        take = translation.ngettext(
            "Take: play on for %(n)s point.", "Take: play on for %(n)s points.", 2
        ) % {"n": 2}
        drop = translation.ngettext(
            "Drop: lose %(m)s point now.", "Drop: lose %(m)s points now.", 1
        ) % {"m": 1}
    assert 'data-testid="bg-stakes"' in html
    assert take in html and drop in html
    if lang == "en":
        assert "Take: play on for 2 points. Drop: lose 1 point now." in html
    # the bot, deciding, is not told; a spectator neither
    assert "bg-stakes" not in table_frame_html(P.payload(game, None), lang)


def test_stakes_follow_the_cube() -> None:
    game = bg.Game(bg.Rules(), dice=[(5, 4), (6, 1), (3, 2), (5, 2)])
    game = game.apply("move:13/8 24/20")  # the viewer opens
    game = game.apply("roll")
    game = game.apply(game.legal_actions()[0])  # the bot plays
    game = game.apply("double").apply("take")  # the viewer doubles to 2, the bot takes
    game = game.apply("roll")
    game = game.apply(game.legal_actions()[0])  # the viewer plays
    game = game.apply("double")  # the bot redoubles to 4
    assert game.phase == "doubled" and game.to_move == 0
    html = table_frame_html(P.payload(game, 0), "en")
    assert "Take: play on for 4 points. Drop: lose 2 points now." in html


def after_a_hit() -> bg.Game:
    """The viewer (seat 0) opens leaving a blot, the bot rolls and hits it: the viewer
    is on roll, the bot's hitting play is the last move."""
    game = bg.Game(bg.Rules(), dice=[(6, 2), (6, 4), (1, 2)])
    game = game.apply("move:24/18 13/11")  # the viewer leaves blots on 18 and 11
    game = game.apply("roll")
    hitting = [a for a in game.legal_actions() if "*" in a]
    assert hitting, game.legal_actions()
    return game.apply(hitting[0])


def test_the_last_move_is_marked_on_its_from_and_to_points() -> None:
    from game.backgammon.board import board_svg
    from game.backgammon.telling import finished_turns

    game = after_a_hit()
    view = game.view(0)
    (last,) = finished_turns(view)[-1:]
    svg = board_svg(view)
    marked_from = {int(p) for p in re.findall(r'class="bg-last-from" data-point="(\d+)"', svg)}
    marked_to = {int(p) for p in re.findall(r'class="bg-last-to" data-point="(\d+)"', svg)}
    to = {b for _a, b, _h in last.steps if 1 <= b <= 24}
    assert marked_to == to and to
    assert marked_from == {a for a, _b, _h in last.steps if 1 <= a <= 24} - to
    assert marked_from
    # the marks lie under the checkers and are hidden from screen readers (the line under
    # the board says the move)
    assert '<g class="bg-last" aria-hidden="true">' in svg
    assert svg.index("bg-last-to") < svg.index("<circle")
    # the viewer's own move is not marked: it is what they just did
    assert "bg-last" not in board_svg(game.view(1))


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_the_hit_star_is_explained_beside_the_notation(lang: str) -> None:
    game = after_a_hit()
    html = table_frame_html(P.payload(game, 0), lang)
    with translation.override(lang):
        note = translation.gettext("(* = a hit: a lone checker was sent to the bar)")
    assert 'data-testid="hit-note"' in html
    assert note in html
    # no star, no note
    quiet = bg.Game(bg.Rules(), dice=[(5, 4), (6, 1), (3, 2)])
    quiet = quiet.apply("move:13/8 24/20").apply("roll")
    quiet = quiet.apply(next(a for a in quiet.legal_actions() if "*" not in a))
    assert "hit-note" not in table_frame_html(P.payload(quiet, 0), lang)
