"""The move generator's shortcuts, proved against its general search on random positions.

``position.legal_plays`` answers most rolls by a shortcut (``_fast_single_plays``,
``_fast_bar_single_plays``, ``_fast_double_plays``) and everything else by the general
search (``single_plays``, ``double_plays``), the reference. Every test here builds
random legal positions (15 checkers a side, some on the bar, some borne off), lists the
plays and checks them against both the general search and a brute force written here
from the one-checker step ``steps`` and BG-6 alone (every order of the dice, every
move, keep the longest plays, the higher number when only one fits): the same resulting
positions, each once, with the same notation, which reads back to the same play.

Each shortcut has its own test whose positions meet its precondition, and the test
asserts that the shortcut, not the search, answered (the shape of a Play says which part
made it, see ``position.Play``), so a shortcut that quietly handed everything back to the
search would fail here. BG-n are the rule IDs of docs/RULES.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.backgammon import position as bgp
from game.engine.backgammon.position import BAR, Play, Position

DIE = st.integers(1, 6)
ANY_DICE = st.tuples(DIE, DIE)
NON_DOUBLES = ANY_DICE.filter(lambda d: d[0] != d[1])
DOUBLES = DIE.map(lambda d: (d, d))


@st.composite
def positions(
    draw: st.DrawFn, on_bar: st.SearchStrategy[int], outside: st.SearchStrategy[int]
) -> Position:
    """A legal position whose roller has ``on_bar`` checkers on the bar and ``outside``
    on points 7..24; the rest of the roller's 15 are on points 1..6 or borne off. The
    opponent's checkers sit on a few points (made points and blots), on its bar, or off."""
    bar = draw(on_bar)
    out = min(draw(outside), 15 - bar)
    mine = Counter({BAR: bar})
    mine.update(draw(st.lists(st.integers(7, 24), min_size=out, max_size=out)))
    rest = 15 - bar - out
    mine.update(p for p in draw(st.lists(st.integers(0, 6), min_size=rest, max_size=rest)) if p)
    # The opponent's point q is the roller's point 25 - q: only where the roller has none.
    free = [q for q in range(1, 25) if not mine[25 - q]]
    points = draw(st.lists(st.sampled_from(free), min_size=1, max_size=7, unique=True))
    their_bar = draw(st.integers(0, 3))
    on_board = draw(st.integers(0, 15 - their_bar))
    theirs = Counter({BAR: their_bar})
    theirs.update(draw(st.lists(st.sampled_from(points), min_size=on_board, max_size=on_board)))
    return Position.from_points(dict(mine), dict(theirs))


@st.composite
def hemmed_in(draw: st.DrawFn, on_bar: int) -> Position:
    """Two checkers of the roller's left (``on_bar`` of them on the bar, the rest on one
    point x outside its home board, the other 13 off) and four to seven points made by
    the opponent just in front of x (with one on the bar: on the roller's points 13..24,
    where it enters and moves on): positions where often only one number can be played."""
    x = draw(st.integers(13, 24))
    mine = Counter({BAR: on_bar, x: 2 - on_bar})
    front = range(13, 25) if on_bar else range(x - 8, x)
    free = sorted({25 - p for p in front if not mine[p]})  # as the opponent's points
    points = draw(st.lists(st.sampled_from(free), min_size=4, max_size=7, unique=True))
    theirs = Counter(points * 2)
    theirs.update(draw(st.lists(st.sampled_from(points), max_size=15 - 2 * len(points))))
    return Position.from_points(dict(mine), dict(theirs))


def brute_force(pos: Position, dice: tuple[int, int]) -> set[int]:
    """Result keys of every legal play, from BG-6 alone: play the dice in every order,
    one checker at a time, in every way; keep the plays that use the most numbers and,
    when only one number of a non-double fits, those of the higher number if it fits."""
    blocked, blots = bgp.opponent_masks(pos.theirs)
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    reached: dict[int, set[int]] = {}  # moves made -> result keys
    first_die: dict[int, set[int]] = {d1: set(), d2: set()}  # one move made, by its die
    for order in orders:
        level = {(pos.mine, bgp.occupied(pos.mine), 0)}
        for depth, die in enumerate(order, start=1):
            level = {
                (nb, no, nh)
                for b, occ, hits in level
                for _s, _t, nb, no, nh in bgp.steps(b, occ, hits, die, blocked, blots)
            }
            keys = {(b << bgp.KEY_SHIFT) | hits for b, _occ, hits in level}
            reached.setdefault(depth, set()).update(keys)
            if depth == 1:
                first_die[die] |= keys
    most = max((depth for depth, keys in reached.items() if keys), default=0)
    if most == 0:
        return set()
    if most == 1 and d1 != d2:
        return first_die[max(dice)] or first_die[min(dice)]
    return reached[most]


def general_search(pos: Position, dice: tuple[int, int]) -> set[int]:
    """The result keys of the general search, the reference the shortcuts stand in for."""
    blocked, blots = bgp.opponent_masks(pos.theirs)
    b, occ = pos.mine, bgp.occupied(pos.mine)
    if dice[0] == dice[1]:
        return set(bgp.double_plays(b, occ, blocked, blots, dice[0]))
    return set(bgp.single_plays(b, occ, blocked, blots, *dice))


def made_by(play: Play) -> str:
    """Which part of legal_plays made a play, from its shape (see ``position.Play``)."""
    if len(play) == 3:
        return "bar shortcut" if BAR in play[1:] else "single shortcut"
    return "double shortcut" if play[1] >> bgp.KEY_SHIFT == 0 else "search"


def check_against_references(pos: Position, dice: tuple[int, int]) -> str:
    """Assert that legal_plays agrees with the general search and the brute force;
    return which part made the plays ("none" when there is no legal play)."""
    bgp.clear_caches()
    plays = bgp.legal_plays(pos, dice)
    keys = [p.key for p in plays]
    expected = brute_force(pos, dice)
    assert len(set(keys)) == len(keys), "a resulting position is listed twice"
    assert set(keys) == expected == general_search(pos, dice)
    assert {p.after for p in plays} == {
        bgp.resulting_position(pos, key >> bgp.KEY_SHIFT, key & bgp.HITS_MASK) for key in expected
    }
    # The notation of each play is the general search's notation of the same position,
    # and it reads back to that play (checked on a spread of at most 8 plays: find_play
    # works out every play's key, so all of them would cost the square of their number).
    roll = (max(dice), min(dice))
    assert {(p.key, str(p)) for p in plays} == {
        (key, str(Play(((pos, roll), key)))) for key in expected
    }
    for p in plays[:: max(1, len(plays) // 8)]:
        assert bgp.find_play(pos, dice, str(p)).key == p.key
    origins = {made_by(p) for p in plays}
    assert len(origins) <= 1, origins
    return origins.pop() if origins else "none"


def origins_of(
    boards: st.SearchStrategy[Position],
    dice: st.SearchStrategy[tuple[int, int]],
    n: int,
    check: Callable[[Position, tuple[int, int]], str] = check_against_references,
) -> Counter[str]:
    """Run ``check`` on n random examples; count which part answered."""
    seen: Counter[str] = Counter()

    @settings(max_examples=n, deadline=None)
    @given(boards, dice)
    def run(pos: Position, roll: tuple[int, int]) -> None:
        seen[check(pos, roll)] += 1

    run()
    return seen


def _both_numbers_fit(pos: Position, dice: tuple[int, int]) -> bool:
    blocked, blots = bgp.opponent_masks(pos.theirs)
    occ = bgp.occupied(pos.mine)
    for da, db in (dice, dice[::-1]):
        for _s, _t, b1, o1, h1 in bgp.steps(pos.mine, occ, 0, da, blocked, blots):
            if bgp.steps(b1, o1, h1, db, blocked, blots):
                return True
    return False


def answered_by(shortcut: str) -> Callable[[Position, tuple[int, int]], str]:
    """check_against_references, and a non-double's shortcut answered unless both
    numbers cannot be played together (then it hands the roll to the search)."""

    def check(pos: Position, dice: tuple[int, int]) -> str:
        origin = check_against_references(pos, dice)
        if _both_numbers_fit(pos, dice):
            assert origin == shortcut
        else:
            assert origin in ("search", "none")
        return origin

    return check


# --- BG-3..BG-9 on any position and roll ------------------------------------------------
def test_bg_6_every_roll_matches_the_search_and_the_brute_force() -> None:
    seen = origins_of(positions(st.integers(0, 5), st.integers(0, 15)), ANY_DICE, 300)
    # a mixed sample reaches every part of the generator
    assert {"single shortcut", "bar shortcut", "double shortcut", "search"} <= set(seen)


# --- one test per shortcut ----------------------------------------------------------------
def test_bg_6_ordinary_non_doubles_take_the_single_shortcut() -> None:
    """Nothing on the bar and at least two checkers outside the home board (two is the
    boundary: a play of two moves cannot then bring the last one home and bear off)."""
    outside = st.one_of(st.just(2), st.integers(2, 15))
    seen = origins_of(
        positions(st.just(0), outside), NON_DOUBLES, 200, answered_by("single shortcut")
    )
    assert seen["single shortcut"] >= 0.6 * sum(seen.values()), seen


def test_bg_8_one_checker_on_the_bar_takes_the_bar_shortcut() -> None:
    """Exactly one checker on the bar with a non-double: it enters with one number and
    any checker plays the other."""
    boards = positions(st.just(1), st.integers(0, 14))
    seen = origins_of(boards, NON_DOUBLES, 200, answered_by("bar shortcut"))
    assert seen["bar shortcut"] >= 0.4 * sum(seen.values()), seen


def test_bg_5_doubles_with_0_to_3_on_the_bar_take_the_double_shortcut() -> None:
    """A double where, once the bar has entered, more checkers are outside the home
    board than moves are left: with 0..3 on the bar, at least 4 - 2 * on_bar outside
    (the boundary drawn often)."""
    for on_bar in range(4):
        low = max(0, 4 - 2 * on_bar)
        outside = st.one_of(st.just(low), st.integers(low, 15 - on_bar))
        seen = origins_of(positions(st.just(on_bar), outside), DOUBLES, 80)
        # every roll of such a position is the shortcut's, with or without legal plays
        assert set(seen) <= {"double shortcut", "none"}, (on_bar, seen)
        assert seen["double shortcut"] >= 0.5 * sum(seen.values()), (on_bar, seen)


def test_bg_6_a_shortcut_hands_a_roll_it_cannot_play_whole_to_the_search() -> None:
    """When both numbers cannot be played together the non-double shortcuts return
    nothing and the search applies BG-6 (the higher number if only one fits)."""
    for on_bar, shortcut in ((0, "single shortcut"), (1, "bar shortcut")):
        seen = origins_of(hemmed_in(on_bar), NON_DOUBLES, 250, answered_by(shortcut))
        # about a fifth (single) or a tenth (bar) of these rolls go back to the search
        assert seen[shortcut] and seen["search"] >= 3, seen


# --- where no shortcut applies ----------------------------------------------------------
def test_bg_9_bear_off_positions_use_the_general_search() -> None:
    """All checkers home, or so few outside that the last could come home and bear off
    within the roll: the shortcuts must leave these to the search (BG-9)."""
    seen = origins_of(positions(st.just(0), st.integers(0, 1)), NON_DOUBLES, 150)
    assert set(seen) <= {"search", "none"} and seen["search"], seen
    seen = origins_of(positions(st.just(0), st.integers(0, 3)), DOUBLES, 150)
    assert set(seen) <= {"search", "none"} and seen["search"], seen
    # one on the bar and at most one outside: entering and coming home takes two moves
    seen = origins_of(positions(st.just(1), st.integers(0, 1)), DOUBLES, 100)
    assert set(seen) <= {"search", "none"} and seen["search"], seen


def test_bg_8_two_or_more_on_the_bar_use_the_general_search() -> None:
    seen = origins_of(positions(st.integers(2, 5), st.integers(0, 13)), NON_DOUBLES, 150)
    assert set(seen) <= {"search", "none"} and seen["search"], seen
    seen = origins_of(positions(st.integers(4, 6), st.integers(0, 11)), DOUBLES, 100)
    assert set(seen) <= {"search", "none"} and seen["search"], seen
