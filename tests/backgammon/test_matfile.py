"""Jellyfish .mat export and import (game/matfile.py): random games and matches, with
doubles, takes, drops, resignations and the Crawford game, round-trip to the same
positions; GNU Backgammon reads the export to the same positions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.backgammon import matfile
from game.engine import backgammon as bg


def _choose(state: bg.Game | bg.Match, rnd: random.Random) -> str:
    acts = state.legal_actions()
    if "take" in acts:
        return rnd.choices(["take", "drop", *(["beaver"] if "beaver" in acts else [])],
                           [6, 3, 1][: 3 if "beaver" in acts else 2])[0]  # fmt: skip
    if "accept" in acts:
        return rnd.choice(["accept", "reject"])
    if "roll" in acts:
        if "double" in acts and rnd.random() < 0.08:
            return "double"
        if rnd.random() < 0.005:
            return f"resign:{rnd.randint(1, 3)}"
        return "roll"
    moves = [a for a in acts if a.startswith("move:")]
    if rnd.random() < 0.003:
        return f"resign:{rnd.randint(1, 3)}"
    return rnd.choice(moves)


def _game_of(state: bg.Game | bg.Match) -> bg.Game:
    return state.game if isinstance(state, bg.Match) else state


def play_out(state: bg.Game | bg.Match, rnd: random.Random):
    """Drive to the end; per game, (seat, Position ID) at every roll and the final ID."""
    log: list[str] = []
    seen: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []

    def start_game(g: bg.Game) -> None:
        nonlocal current
        current = [(g.turn, g.pos.to_id())]  # the opening roll's mover
        seen.append(current)

    start_game(_game_of(state))
    while not state.is_over:
        g = _game_of(state)
        action = _choose(state, rnd)
        if action == "roll":
            current.append((g.turn, g.pos.to_id()))
        before_games = len(state.games) if isinstance(state, bg.Match) else 0
        state = state.apply(action)
        log.append(action)
        ended = isinstance(state, bg.Match) and len(state.games) > before_games
        if ended or state.is_over:
            result = state.games[-1] if isinstance(state, bg.Match) else state.result
            if result.how == "resign" and g.dice is not None:
                current.pop()  # a roll left unplayed by resigning is not written
            final = _game_of(state).pos if state.is_over else g.apply(action).pos
            current.append((-1, final.to_id()))
            if ended and not state.is_over:
                start_game(state.game)
    return state, log, seen


def _parsed(text: str) -> list[list[tuple[int, str]]]:
    return [matfile.positions(g) for g in matfile.parse(text).games]


@pytest.mark.parametrize("seed", range(6))
def test_bg_14_match_exports_parse_back_to_the_same_positions(seed: int) -> None:
    rnd = random.Random(seed)
    start = bg.Match(3 + seed % 3, seed=f"mat-{seed}")
    final, log, seen = play_out(start, rnd)
    games = matfile.match_games(start, log)
    assert len(games) == len(final.games)
    text = matfile.export(games, ("alice", "bob"))
    assert text.startswith(f" {start.length} point match\n")
    rec = matfile.parse(text)
    assert rec.names == ("alice", "bob") and rec.length == start.length
    assert [(g.winner, g.points) for g in rec.games] == [(r.winner, r.points) for r in final.games]
    assert [g.score for g in rec.games] == [g.score for g in games]
    assert _parsed(text) == seen
    assert "and the match" in text.splitlines()[-2]


def test_crawford_game_round_trips_with_no_double_in_it() -> None:
    # find a seed whose match has a Crawford game, with doubles before it
    for seed in range(40):
        rnd = random.Random(seed)
        start = bg.Match(3, seed=f"crawford-{seed}")
        _final, log, seen = play_out(start, rnd)
        games = matfile.match_games(start, log)
        crawford = [g for g in games if g.crawford_game]
        if crawford and any("double" in a for _s, a in games[0].history):
            break
    else:
        pytest.fail("no Crawford game in 40 matches")
    text = matfile.export(games, ("a", "b"))
    assert _parsed(text) == seen
    rec = matfile.parse(text)
    i = games.index(crawford[0])
    assert not [t for t in rec.games[i].turns if t.kind == "double"]
    assert [t for t in rec.games[0].turns if t.kind == "double"]


@pytest.mark.parametrize("seed", range(6))
def test_money_games_with_cube_and_beavers_round_trip(seed: int) -> None:
    rnd = random.Random(100 + seed)
    rules = bg.Rules(beaver=seed % 2 == 0, jacoby=seed % 3 == 0, auto_doubles=seed % 2)
    g0 = bg.Game(rules, seed=f"money-{seed}")
    final, _log, seen = play_out(g0, rnd)
    text = matfile.export(final, ("ali", "bano"))
    assert text.startswith(" 0 point match\n")
    rec = matfile.parse(text)
    assert (rec.games[0].winner, rec.games[0].points) == (final.result.winner, final.result.points)
    assert _parsed(text) == seen
    for t in rec.games[0].turns:
        assert t.kind != "double" or t.cube >= 2


def test_the_layout_is_gnubgs() -> None:
    dice = [(3, 1), (6, 4), (6, 2)]
    g = bg.Game(dice=dice)
    for a in [
        "move:8/5 6/5",
        "double",
        "take",
        "roll",
        "move:24/18 13/9",
        "roll",
        "move:24/18 13/11",
    ]:
        g = g.apply(a)
    g = g.apply("resign:1").apply("accept")
    lines = matfile.export(g, ("alice smith", "bob")).splitlines()
    assert lines[:7] == [
        " 0 point match",
        "",
        " Game 1",
        " alice_smith : 0               bob : 0",
        "  1) 31: 8/5 6/5                  Doubles => 2",
        "  2)  Takes                      64: 24/18 13/9 ",
        "  3) 62: 24/18 13/11 ",
    ]
    assert lines[7] == "      Wins 2 points"  # seat 1 resigned: seat 0 wins, left


def test_no_seed_is_written_and_bad_input_is_refused() -> None:
    g = bg.Game(seed="secret-seed-xyz")
    text = matfile.export(g, ("a", "b"), comments=[("Site", "Baithak")])
    assert "secret-seed-xyz" not in text and '; [Site "Baithak"]' in text
    with pytest.raises(ValueError, match="Nackgammon"):
        matfile.export(bg.Game(bg.Rules(start="nackgammon"), seed="x"))
    with pytest.raises(ValueError, match="match_games"):
        matfile.export(bg.Match(3, seed="x"))
    with pytest.raises(ValueError, match="point match"):
        matfile.parse("hello\n")
    bad = " 1 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/4 6/5\n"
    with pytest.raises(bg.IllegalMove, match="turn 1"):
        matfile.positions(matfile.parse(bad).games[0])


# --- GNU Backgammon reads our files ------------------------------------------------------------
_GNUBG = """
import json, sys
import gnubg
gnubg.command("import mat " + sys.argv[1])
print("JSON" + json.dumps(gnubg.match()))
"""


def _gnubg_read(path: Path) -> dict:
    # gnubg crashes off the main thread and prints its board to stdout: its own process.
    out = subprocess.run(
        [sys.executable, "-c", _GNUBG, str(path)], capture_output=True, text=True, timeout=120
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("JSON")), None)
    assert line is not None, out.stderr[-2000:]
    return json.loads(line[4:])


@pytest.mark.parametrize("seed", range(3))
def test_bg_14_gnubg_imports_our_match_to_the_same_positions(seed: int, tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    rnd = random.Random(500 + seed)
    start = bg.Match(3, seed=f"gnubg-{seed}")
    final, log, seen = play_out(start, rnd)
    games = matfile.match_games(start, log)
    path = tmp_path / "match.mat"
    path.write_text(matfile.export(games, ("alice", "bob")), encoding="ascii")
    got = _gnubg_read(path)
    assert got["match-info"]["match-length"] == 3
    assert len(got["games"]) == len(games)
    for ours, theirs, result in zip(seen, got["games"], final.games, strict=True):
        rolls = [e for e in theirs["game"] if "dice" in e]
        boards = [(0 if e["player"] == "X" else 1, e["board"]) for e in rolls]
        assert boards == ours[:-1]
        assert theirs["info"]["points-won"] == result.points
        assert theirs["info"]["winner"] == ("X" if result.winner == 0 else "O")
