"""Where a Court Piece bot thinks at the tables (game.courtpiece.thinking): only the hard
bot's searches go to the worker processes; everything else — a forced action, a call, a
bid, the first tricks, a game the hard bot plays by the medium bot's rules — is decided
in the calling thread, with the very answer the worker would give.

The split is the hard bot's own (``hard.searchable``, ``hard.samples_for``): these tests
play whole hands of every variant and check, decision by decision, that the ones kept
in the thread sample no deal and solve nothing (in a server process a search would hold
the interpreter's lock against every socket), and that every answer is the hard bot's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from game.bots import courtpiece as cpbot
from game.bots.courtpiece import hard
from game.courtpiece import thinking
from game.engine import courtpiece as cp


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The hard bot's sampling and solving, counted as they run (then carried out as
    always): which of them a decision called."""
    calls: list[str] = []
    for name in ("sample_worlds", "dd_tricks", "dd_reaching"):
        real = getattr(hard, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(hard, name, counted)
    yield calls


@pytest.fixture
def to_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The views sent to the worker processes (the pool is not started: each call is
    answered by the same function in this thread, as a worker would)."""
    sent: list[Any] = []

    def call(fn: Any, *args: Any) -> Any:
        sent.append(args[0])
        return fn(*args)

    monkeypatch.setattr(thinking.POOL, "call", call)
    monkeypatch.setattr(thinking.POOL, "warm", lambda: None)
    yield sent


def _views(variant: str, seed: int, steps: int = 120) -> Iterator[dict[str, Any]]:
    """Every view a bot would decide from, along one match of ``variant`` played by the
    medium bot (with an odd random action, so some hands go differently)."""
    rng = random.Random(seed)
    match = cp.Match(cp.Rules(variant), seed=f"thinking-{variant}-{seed}")
    for _ in range(steps):
        if match.is_over:
            return
        view = match.view(match.to_move)
        yield view
        legal = view["hand"]["legal_actions"]
        action = rng.choice(legal) if rng.random() < 0.2 else cpbot.choose(view, "medium")
        match = match.apply(action, match.to_move)


VARIANTS = sorted(cp.VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_stays_in_the_thread_never_searches_and_every_answer_is_the_hard_bots(
    variant: str, searched: list[str], to_pool: list[Any]
) -> None:
    in_thread = in_workers = 0
    for view in _views(variant, seed=len(variant)):
        expected = cpbot.choose(view, "hard")
        searched.clear()
        sent = len(to_pool)
        assert thinking.choose(view, "hard") == expected
        if thinking.searches(view, "hard"):
            assert len(to_pool) == sent + 1  # the worker decided
            in_workers += 1
        else:
            assert len(to_pool) == sent, "a decision kept in the thread went to the pool"
            assert searched == [], f"the hard bot searched in the thread: {searched}"
            in_thread += 1
    assert in_thread > 0
    if variant in ("rung", "single_sar", "hukum"):  # plain trick-taking: hard searches
        assert in_workers > 0


def test_a_forced_action_is_played_at_once_at_every_level(
    searched: list[str], to_pool: list[Any]
) -> None:
    forced = 0
    for view in _views("rung", seed=3, steps=400):
        legal = view["hand"]["legal_actions"]
        if len(legal) != 1:
            continue
        forced += 1
        for level in cpbot.LEVELS:
            assert thinking.choose(view, level) == legal[0] == cpbot.choose(view, level)
        assert not thinking.searches(view, "hard")
    assert forced > 0  # the last trick, at least, leaves no choice
    assert to_pool == []


def test_easy_and_medium_never_use_the_workers(to_pool: list[Any]) -> None:
    for view in _views("rung", seed=5):
        for level in ("easy", "medium"):
            assert not thinking.searches(view, level)
            assert thinking.choose(view, level) == cpbot.choose(view, level)
    assert to_pool == []


# Asked of a worker as a builtin (a function of this module would import the bot itself).
LOADED = "'game.bots.courtpiece.hard' in __import__('sys').modules"


def test_the_workers_start_early_with_the_bot_loaded() -> None:
    """``warm`` starts the workers without waiting for them, and each has the hard bot
    (DDS with it) loaded by its initializer before its first search."""
    pool = thinking.WorkerPool("test warm", workers=1, initializer=thinking.load_bot)
    try:
        assert not pool.started()
        pool.warm()
        assert pool.started()
        assert pool.call(eval, LOADED) is True
    finally:
        pool.shutdown()
    bare = thinking.WorkerPool("test bare", workers=1)
    try:
        assert bare.call(eval, LOADED) is False  # what the initializer changes
    finally:
        bare.shutdown()
