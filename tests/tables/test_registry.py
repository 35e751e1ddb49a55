"""The games register themselves (their apps' ready()), and the tables know a game only
through its registration: its bot, its rating families, its pages."""

from __future__ import annotations

import dataclasses

import pytest

from accounts.games import game_codes
from game.bots import courtpiece as cpbot
from game.engine import courtpiece as cp
from game.tables import registry


def test_both_games_are_registered_and_court_piece_is_the_default() -> None:
    assert registry.names() == ("courtpiece", "backgammon")
    assert registry.default_name() == "courtpiece"
    assert [g.name for g in registry.games()] == ["courtpiece", "backgammon"]


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        registry.spec("chess")
    assert registry.find("chess") is None
    assert registry.find(None) is None and registry.find(["courtpiece"]) is None


def test_the_court_piece_bot_is_the_registered_bot_for_every_seat() -> None:
    spec = registry.spec("courtpiece")
    for variant in cp.VARIANTS:
        match = cp.Match(cp.Rules(variant), seed=f"registered-{variant}", target=3)
        for _ in range(40):
            if match.is_over:
                break
            seat = match.to_move
            chosen = spec.bot_action(match, seat)
            assert chosen == cpbot.choose(match.view(seat))
            match = match.apply(chosen, seat)


def test_a_second_game_with_a_taken_name_is_refused() -> None:
    spec = registry.spec("courtpiece")
    registry.register(spec)  # the same registration again changes nothing
    assert registry.names() == ("courtpiece", "backgammon")
    with pytest.raises(ValueError, match="registered already"):
        registry.register(dataclasses.replace(spec, seats=2))


def test_a_registered_game_declares_its_rating_families() -> None:
    assert game_codes() == {*cp.VARIANTS, "backgammon"}
    assert registry.spec("backgammon").rating_game("backgammon") == "backgammon"
