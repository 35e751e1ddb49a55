"""Our backgammon rules against two outside programs, on thousands of positions from
random games (issue #3): GNU Backgammon (PyPI ``gnubg``) and OpenSpiel's ``backgammon``
(PyPI ``open-spiel``). Both come from the ``oracles`` extra; if either cannot be
imported these tests fail rather than skip.

A roll's legal plays are compared as the set of positions after the whole turn
(BG-3..BG-9). GNU Backgammon also checks Position IDs (BG-14) and our notation, which
must equal its own ``movetupletostring``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import gnubg
import pyspiel
import pytest

from game.engine import backgammon as bg

_EVAL = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # 0-ply: only the move list is wanted
_CUBE = gnubg.cubeinfo()


def random_positions(seed: int, games: int) -> Iterator[tuple[bg.Position, tuple[int, int]]]:
    """(position, roll) at every turn of ``games`` random games."""
    rng = random.Random(seed)
    for _ in range(games):
        p = bg.Position.nackgammon() if rng.random() < 0.2 else bg.Position.start()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield p, dice
            plays = bg.legal_plays(p, dice)
            if not plays:
                p = p.swapped()
                continue
            p = rng.choice(plays).after
            if p.off()[1] == 15:
                break


def _apply_gnubg_tuple(p: bg.Position, move: tuple[int, ...]) -> bg.Position:
    """Apply a GNU Backgammon move tuple (from, to, from, to, …; 25 bar, 0 off) by
    hand: moving and hitting, nothing else, so that no rule of ours is used."""
    opp, me = (list(side) for side in p.board())
    for f, t in zip(move[0::2], move[1::2], strict=True):
        me[f - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            if opp[24 - t] == 1:
                opp[24 - t] = 0
                opp[24] += 1
    return bg.Position.from_points(opp, me)  # the opponent is on roll afterwards


def compare_with_gnubg(seed: int, games: int) -> tuple[int, list[str]]:
    checked = 0
    problems: list[str] = []
    for p, dice in random_positions(seed, games):
        checked += 1
        board = p.board()
        if gnubg.positionid(board) != p.to_id():
            problems.append(f"{p.to_id()}: gnubg's ID is {gnubg.positionid(board)}")
        if bg.Position.from_id(gnubg.positionid(board)) != p:
            problems.append(f"{p.to_id()}: its ID does not read back")
        ours = bg.legal_plays(p, dice)
        theirs = [m["move"] for m in gnubg.findbestmoves(board, _CUBE, _EVAL, dice)]
        if any(len(m) % 2 for m in theirs):
            # gnubg's tuples end at the first checker borne off: compare counts there.
            if len(theirs) != len(ours):
                problems.append(f"{p.to_id()} {dice}: {len(ours)} plays, gnubg {len(theirs)}")
            continue
        their_after = {_apply_gnubg_tuple(p, m): m for m in theirs}
        if set(their_after) != {x.after for x in ours} or len(their_after) != len(theirs):
            problems.append(f"{p.to_id()} {dice}: {sorted(map(str, ours))} vs {theirs}")
            continue
        for x in ours:  # BG-14 notation, exactly as GNU Backgammon writes it
            text = gnubg.movetupletostring(their_after[x.after], board).strip()
            if text != str(x):
                problems.append(f"{p.to_id()} {dice}: we write {x}, gnubg {text}")
    return checked, problems


def test_legal_plays_ids_and_notation_match_gnubg() -> None:
    checked, problems = compare_with_gnubg(seed=2024, games=100)
    assert checked >= 8000
    assert problems == []


@pytest.mark.slow
def test_legal_plays_ids_and_notation_match_gnubg_long() -> None:
    checked, problems = compare_with_gnubg(seed=7, games=200)
    assert checked >= 16000
    assert problems == []


# --- OpenSpiel ---------------------------------------------------------------------------
_OS = pyspiel.load_game("backgammon")
_SCORES = re.compile(r"Scores, X: (\d+), O: (\d+)")
_DICE = re.compile(r"Dice: (\d)(\d)")


def _os_position(state: pyspiel.State, player: int) -> bg.Position:
    """OpenSpiel's board with ``player`` as the side on roll. ``board(0, i)`` counts X on
    X's point 24 - i, ``board(1, i)`` O on O's point i + 1; bars are what is left."""
    m = _SCORES.search(str(state))
    assert m, "OpenSpiel's state text has changed"
    off = (int(m.group(1)), int(m.group(2)))
    sides = []
    for who in (player, 1 - player):
        pts = {(24 - i if who == 0 else i + 1): state.board(who, i) for i in range(24)}
        pts[25] = 15 - sum(pts.values()) - off[who]
        sides.append(pts)
    return bg.Position.from_points(sides[0], sides[1])


def _os_turn_results(state: pyspiel.State, player: int, out: set[bg.Position]) -> None:
    """Every position at the end of ``player``'s turn (a double is two decisions)."""
    for a in state.legal_actions():
        child = state.child(a)
        if (
            not child.is_terminal()
            and not child.is_chance_node()
            and (child.current_player() == player)
        ):
            _os_turn_results(child, player, out)
        else:
            out.add(_os_position(child, player))


def compare_with_openspiel(seed: int, games: int) -> tuple[int, list[str]]:
    rng = random.Random(seed)
    checked = 0
    problems: list[str] = []
    for _ in range(games):
        state = _OS.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            player = state.current_player()
            m = _DICE.search(str(state))
            assert m, "OpenSpiel's state text has changed"
            dice = (int(m.group(1)), int(m.group(2)))
            p = _os_position(state, player)
            ours = {x.after.swapped() for x in bg.legal_plays(p, dice)} or {p}
            theirs: set[bg.Position] = set()
            _os_turn_results(state, player, theirs)
            checked += 1
            if ours != theirs:
                problems.append(f"{p.to_id()} {dice}: {len(ours)} vs OpenSpiel {len(theirs)}")
            while (
                not state.is_terminal()
                and not state.is_chance_node()
                and state.current_player() == player
            ):
                state.apply_action(rng.choice(state.legal_actions()))
    return checked, problems


def test_legal_plays_match_openspiel_in_replayed_games() -> None:
    checked, problems = compare_with_openspiel(seed=11, games=30)
    assert checked >= 2500
    assert problems == []


@pytest.mark.slow
def test_legal_plays_match_openspiel_long() -> None:
    checked, problems = compare_with_openspiel(seed=12, games=60)
    assert checked >= 5000
    assert problems == []


def test_our_notation_reads_back_on_random_positions() -> None:
    """Every play's notation, fed back to the parser, gives the same play (and with it
    every ``move:`` action that Game offers is accepted)."""
    count = 0
    for p, dice in random_positions(seed=5, games=15):
        for x in bg.legal_plays(p, dice):
            assert bg.apply(p, str(x), dice=dice) == x.after, (p.to_id(), dice, str(x))
            count += 1
    assert count >= 10000
