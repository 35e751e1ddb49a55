"""The shape of the Court Piece engine (issue #8): one protocol, immutable declared state,
variants made of pieces, and seeds that never leak.

``cp.Hand`` and ``cp.Match`` speak ``game.engine.protocol.GameState``; every field of
both is declared at class level; actions dispatch through literal tables; ``hand.py`` and
``match.py`` never test a variant's name; an extra variant made of existing pieces plays.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from game.engine import GameState, IllegalAction, fair
from game.engine import courtpiece as cp
from game.engine.courtpiece import behaviour as b
from game.engine.courtpiece import hand as hand_module
from game.engine.courtpiece.actions import PARSE

ENGINE = Path(hand_module.__file__).resolve().parent
ALL_RULES = [cp.Rules(name, **o) for name, v in cp.VARIANTS.items() for o in v.option_sets()]


def _drive(state: Any, seed: int, steps: int = 400) -> list[Any]:
    """Every state of a random playout, driven through the protocol only."""
    rng = random.Random(seed)
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        assert state.result is None
        state = state.apply(rng.choice(state.legal_actions()), seat=state.to_move)
        states.append(state)
    return states


# --- one protocol ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=repr)
def test_hand_and_match_speak_the_game_protocol(rules: cp.Rules) -> None:
    hand = cp.new_hand(rules, dealer=0, seed="protocol")
    match = cp.Match(rules, seed="protocol", target=1)
    for state in (hand, match):
        assert isinstance(state, GameState)
        last = _drive(state, seed=3)[-1]
        assert last.is_over and last.to_move is None and last.legal_actions() == []
        assert last.result is not None
        assert [tuple(e) for e in last.history] == list(last.history)
        json.dumps(last.view(None))


@pytest.mark.parametrize("make", ["hand", "match"])
def test_a_seat_not_to_move_is_refused_by_the_shared_check(make: str) -> None:
    rules = cp.Rules("rung")
    state: Any = (
        cp.new_hand(rules, dealer=0, seed="turn")
        if make == "hand"
        else cp.Match(rules, seed="turn")
    )
    other = (state.to_move + 1) % 4
    before = json.dumps(state.view(None)), list(state.history)
    with pytest.raises(IllegalAction, match=r"^not your turn$"):
        state.apply(state.legal_actions()[0], seat=other)
    assert (json.dumps(state.view(None)), list(state.history)) == before
    assert state.apply(state.legal_actions()[0], seat=state.to_move) is not state


def test_match_result_is_none_until_over_then_a_match_result() -> None:
    match = cp.Match(cp.Rules("single_sar"), seed="result", target=2)
    states = _drive(match, seed=5, steps=2000)
    assert all(s.result is None for s in states[:-1])
    last = states[-1]
    result = last.result
    assert isinstance(result, cp.MatchResult)
    assert result.winner == last.winner and result.scores == last.scores
    assert result.scores[result.winner] == 2  # CP-SS-5: first to the target
    assert (result.measure, result.target, result.hands_played) == ("hands", 2, len(last.hands))
    assert last.view(1)["match"]["result"] == result.to_dict()


# --- immutable, declared state -----------------------------------------------------------


def test_match_refuses_attribute_writes_like_hand() -> None:
    match = cp.Match(cp.Rules("rung"), seed="frozen")
    for state, name, value in (
        (match, "scores", (52, 0)),
        (match, "winner", 0),
        (match, "hand", match.hand),
        (match.hand, "to_move", 2),
        (match.hand, "won", (7, 0)),
        (match.rules, "variant", "hukum"),
    ):
        with pytest.raises(AttributeError):
            setattr(state, name, value)
        with pytest.raises(AttributeError):
            delattr(state, name)  # would fall back to a class default
    assert match.hand.phase == "call" and match.rules.variant == "rung"
    with pytest.raises(TypeError):
        match.tally["win"] = (1, 0)  # type: ignore[index]
    with pytest.raises(TypeError):
        match.toss[0][0] = "AS"  # type: ignore[index]
    assert match.scores == (0, 0) and match.winner is None and dict(match.tally) == {}


def test_every_hand_field_is_declared_with_a_type() -> None:
    declared = set(cp.Hand.__annotations__)
    for rules in ALL_RULES:
        for state in _drive(cp.new_hand(rules, dealer=1, seed="fields"), seed=2):
            assert set(vars(state)) == declared


def test_every_match_field_is_declared_with_a_type() -> None:
    assert set(cp.Match.__slots__) == set(cp.Match.__annotations__)
    match = cp.Match(cp.Rules("hukum"), seed="fields")
    assert all(hasattr(match, name) for name in cp.Match.__slots__)


def test_every_action_kind_has_a_transition_and_an_explanation() -> None:
    kinds = {kind for kind, _ in PARSE.values()}
    assert set(hand_module.WHY_REFUSED) == kinds
    assert set(hand_module.TRANSITIONS) == kinds - {"play"}  # play is apply()'s own


# --- variants own their behaviour ---------------------------------------------------------

# Old mode strings as well as names: none may be compared in the hand or the match.
_MODE_WORDS = set(cp.VARIANTS) | {"none", "seven", "piles", "thirteen", "hands", "points"}


def _name_tests(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                if isinstance(part, ast.Constant) and part.value in _MODE_WORDS:
                    found.append(f"{path.name}:{node.lineno} compares with {part.value!r}")
                if isinstance(part, ast.Attribute) and part.attr in ("variant", "name"):
                    found.append(f"{path.name}:{node.lineno} compares .{part.attr}")
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "getattr"
            and isinstance(node.args[1], ast.BinOp | ast.JoinedStr)
        ):
            found.append(f"{path.name}:{node.lineno} builds a name for getattr (dispatch)")
    return found


def test_hand_and_match_never_test_a_variant() -> None:
    assert _name_tests(ENGINE / "hand.py") == []
    assert _name_tests(ENGINE / "match.py") == []


def test_the_name_check_itself_catches_a_name_test(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'if rules.variant == "hukum": pass\n'
        'if spec.calling == "hidden": pass\n'
        'f = getattr(Hand, "_do_" + kind)\n'
    )
    assert len(_name_tests(bad)) == 4


# An eighth variant, declared from existing pieces only: Single Sar's call, but every
# trick is played and the Double Sar piles count (and Mendikot-style succession).
PILED_SAR = cp.Variant(
    "piled_sar",
    calling=b.NameSuit(may_pass=True, timers=True),
    ending=b.all_thirteen,
    collect=cp.by_option("ace_rule", {False: b.Piles(), True: b.Piles(ace_rule=True)}),
    scoring=b.HandsScore(),
    succession=b.DEAL_PASSES_ON,
    measure=b.HANDS,
    options={"ace_rule": cp.Option(False, (True, False))},
)


def test_an_eighth_variant_made_of_existing_pieces_plays() -> None:
    assert PILED_SAR.kinds == {"win", "kot", "gone_kot"}
    assert list(PILED_SAR.option_sets()) == [{"ace_rule": False}, {"ace_rule": True}]
    for options in PILED_SAR.option_sets():
        rules = cp.Rules(PILED_SAR, **options)
        assert rules.variant == "piled_sar" and rules != cp.Rules("double_sar", **options)
        for seed in range(60):
            states = _drive(cp.new_hand(rules, dealer=seed % 4, seed=f"eighth-{seed}"), seed)
            hand = states[-1]
            assert hand.is_over and hand.result.kind in rules.kinds
            assert hand.trick_count == 13  # all_thirteen: nothing stops it early
            assert sum(hand.result.tricks) == 13  # CP-DS-2: the last pile goes too
            assert hand.result.points[hand.result.winner] == 1
            assert hand.view(0)["variant"] == "piled_sar"
    match = _drive(cp.Match(cp.Rules(PILED_SAR), seed="eighth", target=3), 1, 5000)[-1]
    assert match.is_over and max(match.scores) == 3
    with pytest.raises(ValueError, match="unknown option"):
        cp.Rules(PILED_SAR, court="first7")


# --- fairness: no seed before it is safe --------------------------------------------------


def test_a_hand_made_from_a_seed_shows_no_seed() -> None:
    seed, client = "hand-server-seed-81f2", "client-seed-77"
    hand = cp.new_hand(cp.Rules("hidden"), dealer=2, seed=seed, client_seeds=[client], n=4)
    for state in _drive(hand, seed=9):
        for seat in (0, 1, 2, 3, None):
            assert seed not in json.dumps(state.view(seat))
        assert seed not in repr(state) and seed not in repr(vars(state))


@pytest.mark.parametrize("chain", [None, 8])
def test_the_server_seed_is_in_no_view_before_it_is_safe(chain: int | None) -> None:
    top = "match-server-seed-0c4d"
    match = cp.Match(cp.Rules("single_sar"), seed=top, client_seeds=["c"], target=3, chain=chain)
    seeds = [top] if chain is None else fair.chain(top, chain)
    for state in _drive(match, seed=4, steps=5000):
        done = len(state.hands)
        # A chain shows each hand's seed when it ends; one seed is shown at the end.
        safe = seeds[:done] if chain else (seeds if state.is_over else [])
        for seat in (0, 1, 2, 3, None):
            view = state.view(seat)
            text = json.dumps(view)
            assert all(s not in text for s in seeds if s not in safe)
            assert set(view["fairness"]) == {
                "scheme", "commitment", "client_seeds", "hand", "server_seeds", "server_seed",
            }
    assert state.is_over
