"""Practice: an endless run of fresh positions per skill, dealt and played by the engine.

Puzzle n of a run is made from (the run's seed, n) alone, so the server can rebuild it
to check an answer without keeping it anywhere; the seed and the streak live in the
session, never in the page. The steps are the lessons' own kinds (tutorials.steps), so
the engine decides what is right here exactly as in a lesson.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import gettext as _

from game.engine import backgammon as bg
from game.engine import courtpiece as cp
from tutorials.steps.backgammon import BgPips, BgPlay
from tutorials.steps.base import LessonError, Step
from tutorials.steps.courtpiece import CountTrumps, PickWinner, PlayCard, SpotRenege

SESSION_KEY = "learn_practice"
SKILLS = ("follow-suit", "trick-winner", "trumps-out", "renege", "bg-legal-play", "pip-count")
# The rules-page section each skill practises (the guide's anchors are the same in every
# language; tests check that each exists).
RULE_LINKS: dict[str, tuple[str, str]] = {
    "follow-suit": ("rung", "trick"),
    "trick-winner": ("rung", "trick"),
    "trumps-out": ("rung", "habits"),
    "renege": ("rung", "trick"),
    "bg-legal-play": ("backgammon", "moving"),
    "pip-count": ("backgammon", "board"),
}


def rule_link(skill: str, lang: str) -> tuple[str, str]:
    return RULE_LINKS[skill]


@dataclass(frozen=True)
class SeededDeal:
    """A hand shuffled by the engine from a seed, then `actions` played on it."""

    seed: str
    actions: tuple[str, ...]
    dealer: int = 3

    def hand(self) -> cp.Hand:
        hand = cp.new_hand(cp.Rules(variant="rung"), dealer=self.dealer, seed=self.seed)
        for action in self.actions:
            hand = hand.apply(action)
        return hand


@dataclass(frozen=True)
class Puzzle:
    skill: str
    step: Step


def skill_info(skill: str) -> dict[str, str]:
    info = {
        "follow-suit": (
            _("Follow suit"),
            _("Click a card you may play."),
            _(
                "If you hold the suit that was led you must play it; only when you "
                "have none may you play anything else."
            ),
        ),
        "trick-winner": (
            _("Who wins the trick"),
            _("Who won this trick?"),
            _(
                "The highest trump wins; with no trump in the trick, the highest "
                "card of the suit that was led wins. Other suits win nothing."
            ),
        ),
        "trumps-out": (
            _("Trumps still out"),
            _("How many trumps have you not seen yet?"),
            _(
                "Thirteen trumps in all: take away the ones in your hand and every "
                "trump that has been played."
            ),
        ),
        "renege": (
            _("Spot the renege"),
            _("Which card broke the rule of following suit?"),
            _(
                "A player who later shows a card of the suit that was led still had it "
                "when they played another suit."
            ),
        ),
        "bg-legal-play": (
            _("Legal backgammon plays"),
            _("Which play is legal with these dice?"),
            _(
                "Each number moves a checker forward onto a point not held by two "
                "or more of the opponent's checkers, and both numbers must be "
                "used if they can be."
            ),
        ),
        "pip-count": (
            _("Pip count"),
            _("What is your pip count?"),
            _(
                "Add, for each of your checkers, the number of the point it stands "
                "on; a checker on the bar counts 25."
            ),
        ),
    }[skill]
    return {"slug": skill, "name": info[0], "ask": info[1], "why": info[2]}


def skill_list() -> list[dict[str, str]]:
    return [skill_info(s) for s in SKILLS]


def get_state(session: SessionBase, skill: str) -> dict[str, Any]:
    runs = dict(session.get(SESSION_KEY, {}))
    state = runs.get(skill)
    if not state:
        state = {"seed": secrets.token_hex(8), "n": 0, "streak": 0, "best": 0}
        runs[skill] = state
        session[SESSION_KEY] = runs
    return dict(state)


def advance(session: SessionBase, skill: str, right: bool) -> dict[str, Any]:
    """Right: the streak grows and a fresh position follows. Wrong: the streak is lost and
    the same position stays, to try again."""
    state = get_state(session, skill)
    if right:
        state["streak"] += 1
        state["best"] = max(state["best"], state["streak"])
        state["n"] += 1
    else:
        state["streak"] = 0
    runs = dict(session.get(SESSION_KEY, {}))
    runs[skill] = state
    session[SESSION_KEY] = runs
    return state


@lru_cache(maxsize=128)
def puzzle(skill: str, seed: str, n: int) -> Puzzle:
    rng = random.Random(f"{skill}:{seed}:{n}")
    maker = {
        "follow-suit": _follow_suit,
        "trick-winner": _trick_winner,
        "trumps-out": _trumps_out,
        "renege": _renege,
        "bg-legal-play": _bg_play,
        "pip-count": _pip_count,
    }[skill]
    for attempt in range(200):
        step = maker(rng, f"{seed}:{n}:{attempt}")
        if step is None:
            continue
        try:
            step.validate()  # a right and a wrong answer, as the engine sees it
        except LessonError:
            continue
        return Puzzle(skill, step)
    raise RuntimeError(f"no {skill} position found for {seed}:{n}")


def _called(rng: random.Random, seed: str) -> tuple[cp.Hand, list[str], int]:
    dealer = rng.randrange(4)
    hand = cp.new_hand(cp.Rules(variant="rung"), dealer=dealer, seed=seed)
    calls = [a for a in hand.legal_actions() if a.startswith("call:")]
    action = rng.choice(calls)
    return hand.apply(action), [action], dealer


def _play_random(hand: cp.Hand, actions: list[str], rng: random.Random, count: int) -> cp.Hand:
    for _i in range(count):
        if hand.is_over:
            break
        plays = [a for a in hand.legal_actions() if a.startswith("play:")]
        if not plays:
            break
        action = rng.choice(plays)
        hand = hand.apply(action)
        actions.append(action)
    return hand


def _follow_suit(rng: random.Random, seed: str) -> Step | None:
    hand, actions, dealer = _called(rng, seed)
    hand = _play_random(hand, actions, rng, rng.randrange(1, 36))
    if hand.is_over or not hand.view(None)["trick"]:
        return None
    me = hand.to_move
    legal = [a for a in hand.legal_actions() if a.startswith("play:")]
    if len(legal) >= len(hand.view(me)["hand"]):
        return None  # void: every card is right, nothing to practise
    return PlayCard("practice", SeededDeal(seed, tuple(actions), dealer))


def _trick_winner(rng: random.Random, seed: str) -> Step | None:
    hand, actions, dealer = _called(rng, seed)
    tricks = rng.randrange(1, 7)
    hand = _play_random(hand, actions, rng, tricks * 4)
    if hand.is_over or hand.view(None)["trick"]:
        return None
    return PickWinner("practice", SeededDeal(seed, tuple(actions), dealer), seat=rng.randrange(4))


def _trumps_out(rng: random.Random, seed: str) -> Step | None:
    hand, actions, dealer = _called(rng, seed)
    hand = _play_random(hand, actions, rng, rng.randrange(0, 30))
    if hand.is_over:
        return None
    return CountTrumps("practice", SeededDeal(seed, tuple(actions), dealer), seat=hand.to_move)


def _deal_of(hand: cp.Hand) -> list[list[str]]:
    """The four seats' cards, read from the engine's hand record."""
    rows = {}
    for line in cp.to_record(hand).splitlines():
        if line.startswith("seat "):
            head, _sep, cards = line.partition(":")
            rows[int(head.split()[1])] = cards.split()
    return [rows[s] for s in range(4)]


def _renege(rng: random.Random, seed: str) -> Step | None:
    """A legal start of a hand, then one player's card swapped for another suit's: the
    recorded list now holds a renege (maybe more); cp.find_reneges names them."""
    hand, actions, _dealer = _called(rng, seed)
    hand = _play_random(hand, actions, rng, 16)
    history = [list(x) for x in hand.history]
    plays = [i for i, (_s, a) in enumerate(history) if a.startswith("play:")]
    if len(plays) < 16:
        return None
    deal = _deal_of(hand)
    # Trick t (1..2), a follower who followed suit; swap their card with one of another
    # suit that they play later in the list.
    t = rng.randrange(1, 3)
    pos = plays[t * 4 + rng.randrange(1, 4)]
    seat, action = history[pos]
    card = action[5:]
    led = history[plays[t * 4]][1][6]
    if card[1] != led:
        return None  # they were void: no renege to make here
    later = [i for i in plays if i > pos and history[i][0] == seat and history[i][1][6] != card[1]]
    if not later:
        return None
    j = rng.choice(later)
    history[pos][1], history[j][1] = history[j][1], history[pos][1]
    text = ", ".join(f"{s} {a}" for s, a in history)
    hands = tuple(" ".join(row) for row in deal)
    return SpotRenege("practice", hands=hands, history=text)


def _bg_game(rng: random.Random, seed: str) -> bg.Game | None:
    g = bg.Game(bg.Rules(cube=False), seed=seed)
    for _turn in range(rng.randrange(2, 60)):
        if g.is_over:
            return None
        acts = [a for a in g.legal_actions() if a == "roll" or a.startswith("move:")]
        g = g.apply(rng.choice(acts))
    while not g.is_over and not any(a.startswith("move:") for a in g.legal_actions()):
        g = g.apply("roll")
    return None if g.is_over else g


def _bg_play(rng: random.Random, seed: str) -> Step | None:
    g = _bg_game(rng, seed)
    if g is None:
        return None
    view = g.view(g.to_move)
    pos = bg.Position.from_id(view["position_id"])
    dice = tuple(view["dice"])
    legal = {p.after for p in bg.legal_plays(pos, dice)}
    if not legal:
        return None
    right = str(rng.choice(bg.legal_plays(pos, dice)))
    wrong: set[str] = set()
    for other in rng.sample([(a, b) for a in range(1, 7) for b in range(a, 7)], 21):
        for p in bg.legal_plays(pos, other):
            try:
                ok = bg.apply(pos, str(p), dice) in legal
            except bg.IllegalMove:
                ok = False
            if not ok:
                wrong.add(str(p))
        if len(wrong) >= 6:
            break
    if len(wrong) < 2:
        return None
    choices = [right, *rng.sample(sorted(wrong), 2)]
    rng.shuffle(choices)
    return BgPlay("practice", position=view["position_id"], dice=(dice,), choices=tuple(choices))


def _pip_count(rng: random.Random, seed: str) -> Step | None:
    g = _bg_game(rng, seed)
    if g is None:
        return None
    return BgPips("practice", position=g.view(g.to_move)["position_id"])
