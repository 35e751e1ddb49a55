"""The bot plays whole hands of every variant and option set at all four seats: every
choice is legal (never ``timeout``) and every hand ends. It reads only the view."""

from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from game.bots import courtpiece as bot
from game.engine import courtpiece as cp
from tests.bots.helpers import BOT, option_sets, play_hand, random_legal

CASES = [(v, o) for v in cp.VARIANTS for o in option_sets(v)]


@pytest.mark.parametrize(
    ("variant", "options"), CASES, ids=[f"{v}-{o}" for v, o in CASES]
)
def test_bot_at_every_seat_plays_legal_actions_until_the_hand_ends(
    variant: str, options: dict[str, Any]
) -> None:
    rules = cp.Rules(variant, **options)
    kinds: set[str] = set()
    for i in range(20):
        hand, decisions = play_hand(rules, f"playout-{variant}-{i}", [BOT] * 4, dealer=i % 4)
        assert hand.is_over and decisions >= 1
        assert hand.result is not None
        kinds.add(hand.result.kind)
    assert kinds


@pytest.mark.parametrize(
    ("variant", "options"), CASES, ids=[f"{v}-{o}" for v, o in CASES]
)
def test_bot_among_random_players_stays_legal(variant: str, options: dict[str, Any]) -> None:
    """Random partners and opponents reach positions a bot table never would (odd asks,
    early reveals, wild bids): the bot's choice is still always legal."""
    rules = cp.Rules(variant, **options)
    for i in range(15):
        rng = random.Random(i)
        seats = [BOT if (i + 1) >> s & 1 else random_legal(rng) for s in range(4)]
        hand, _ = play_hand(rules, f"mixed-{variant}-{i}", seats, dealer=i % 4)
        assert hand.is_over


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_bot_plays_whole_matches_from_match_views(variant: str) -> None:
    """cp.Match.view(seat) (hand, match, fairness) is accepted as well as a hand view."""
    match = cp.Match(cp.Rules(variant), seed=f"match-{variant}", target=3)
    for _ in range(3000):
        if match.is_over:
            break
        seat = match.to_move
        view = match.view(seat)
        action = bot.choose(view)
        assert action in view["hand"]["legal_actions"]
        match = match.apply(action, seat)
    assert match.is_over


@pytest.mark.parametrize("variant", list(cp.VARIANTS))
def test_bot_reads_nothing_but_the_view(variant: str) -> None:
    """The same decision from a JSON round-tripped copy of the view (so nothing but plain
    data reaches it), and the view is left unchanged by the bot."""
    rules = cp.Rules(variant)
    for i in range(4):
        hand = cp.new_hand(rules, dealer=i, seed=f"json-{variant}-{i}")
        while not hand.is_over:
            view = hand.view(hand.to_move)
            before = copy.deepcopy(view)
            action = bot.choose(view)
            assert view == before
            assert bot.choose(json.loads(json.dumps(view))) == action
            hand = hand.apply(action)


def variant_name_tests(source: str) -> list[str]:
    """Comparisons in ``source`` with a variant's name (``variant == "mendikot"``,
    ``variant in ("be_ranga", "mendikot")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                for leaf in ast.walk(part):
                    if isinstance(leaf, ast.Constant) and leaf.value in cp.VARIANTS:
                        found.append(f"line {node.lineno}: {leaf.value!r}")
    return found


def test_bot_reads_rule_facts_not_variant_names() -> None:
    """The variant's purpose comes from cp.Rules' facts (trump_known, piles, tens_count),
    so a variant made of the same pieces is played the same way."""
    assert variant_name_tests(Path(bot.__file__).read_text(encoding="utf-8")) == []
    assert variant_name_tests(
        'tens = self.variant == "mendikot"\nvoid = v in ("be_ranga", "mendikot")\n'
    ) == ["line 1: 'mendikot'", "line 2: 'be_ranga'", "line 2: 'mendikot'"]


def test_bot_is_deterministic() -> None:
    rules = cp.Rules("rung")
    a, _ = play_hand(rules, "same", [BOT] * 4)
    b, _ = play_hand(rules, "same", [BOT] * 4)
    assert a.history == b.history


def test_bot_refuses_a_view_where_it_is_not_to_move() -> None:
    hand = cp.new_hand(cp.Rules("rung"), dealer=3, seed="x")
    other = (hand.to_move + 1) % 4
    with pytest.raises(ValueError, match="not its turn"):
        bot.choose(hand.view(other))


@pytest.mark.parametrize("variant", ["rung", "single_sar", "hidden", "be_ranga", "hukum"])
def test_bot_trump_count_agrees_with_cp_trumps_out(variant: str) -> None:
    """The bot counts unseen trumps from the view as cp.trumps_out does (RULES.md trump
    counting): every trump it has not seen fall, own trumps excepted."""
    no_public = {"thirteenth": False, "claim82": False} if variant == "rung" else {}
    rules = cp.Rules(variant, **no_public)
    checked = 0
    for i in range(6):
        hand = cp.new_hand(rules, dealer=i % 4, seed=f"count-{variant}-{i}")
        while not hand.is_over:
            view = hand.view(hand.to_move)
            # Public trumps in an opponent's hand still threaten us, so the bot counts
            # them where trumps_out does not: compare where there are none.
            hidden = view["hidden"] or {}
            opponent_shown = view["turned_card"] or (
                hidden.get("revealed") and (view["caller"] - view["seat"]) % 2
            )
            if view["phase"] == "play" and not opponent_shown:
                count = bot.unseen_trumps(view)
                if count is not None:  # the seat knows the trump suit
                    assert count == len(cp.trumps_out(view))
                    checked += 1
            hand = hand.apply(bot.choose(view))
    assert checked > 50
