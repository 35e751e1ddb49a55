"""Backgammon positions, legal plays and notation: known positions, one rule ID each
(the BG- rules of docs/RULES.md). The outside-oracle comparisons are in test_oracles.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import backgammon as bg

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def pos(mine: dict[int, int], theirs: dict[int, int] | None = None) -> bg.Position:
    """A position from the roller's side: ``theirs`` is given on the ROLLER's point
    numbers (25 = their bar), which is how a player reads the board."""
    their_own = {25 if p == 25 else 25 - p: n for p, n in (theirs or {}).items()}
    return bg.Position.from_points(mine, their_own)


def plays(p: bg.Position, dice: tuple[int, int]) -> set[str]:
    return {str(x) for x in bg.legal_plays(p, dice)}


# --- BG-1, BG-13, BG-14: positions and IDs ----------------------------------------------
def test_bg_1_start_position_and_its_gnubg_id() -> None:
    start = bg.Position.start()
    theirs, mine = start.board()
    for side in (theirs, mine):
        assert {i + 1: n for i, n in enumerate(side) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.to_id() == "4HPwATDgc/ABMA"
    assert bg.Position.from_id("4HPwATDgc/ABMA") == start
    assert start.pips() == (167, 167)
    assert start.off() == (0, 0)


def test_bg_13_nackgammon_start() -> None:
    theirs, mine = bg.Position.nackgammon().board()
    for side in (theirs, mine):
        assert {i + 1: n for i, n in enumerate(side) if n} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


def test_bg_14_position_id_round_trip_keeps_side_on_roll() -> None:
    p = pos({25: 1, 20: 2, 6: 4, 5: 3}, {24: 2, 3: 1, 25: 2})
    assert bg.Position.from_id(p.to_id()) == p
    assert bg.Position.from_id(p.to_id()).swapped() == p.swapped()
    assert p.to_id() != p.swapped().to_id()


@pytest.mark.parametrize(
    "bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////", "4HPwATDgc/ABMA4"]
)
def test_bg_14_bad_position_ids_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        bg.Position.from_id(bad)


def test_from_points_refuses_impossible_boards() -> None:
    with pytest.raises(ValueError, match="at most 15"):
        bg.Position.from_points({6: 9, 5: 7}, {})
    with pytest.raises(ValueError, match="both players"):
        bg.Position.from_points({6: 1}, {19: 1})  # my 6 is their 19


# --- BG-3 .. BG-9: legal plays ------------------------------------------------------------
def test_bg_3_bg_4_the_start_with_5_3() -> None:
    assert plays(bg.Position.start(), (5, 3)) == {
        "8/3 6/3", "8/5 8/3", "13/10 8/3", "24/21 8/3", "13/8 6/3",
        "13/5", "13/10 13/8", "24/21 13/8", "24/16",
    }  # fmt: skip


def test_bg_3_combined_move_needs_a_legal_intermediate_point() -> None:
    # One checker on 13, the rest stuck on my 1-point. Their points on my 7 and 8.
    blocked_both = pos({13: 1, 1: 14}, {7: 2, 8: 2, 20: 11})
    assert bg.legal_plays(blocked_both, (6, 5)) == []
    # Only the 8 blocked: 13/7/2 is the one way through.
    via_seven = pos({13: 1, 1: 14}, {8: 2, 20: 13})
    [only] = bg.legal_plays(via_seven, (6, 5))
    assert str(only) == "13/2"
    assert only.moves() == [(13, 7, False), (7, 2, False)]


def test_bg_4_never_onto_two_or_more_opposing_checkers() -> None:
    p = pos({24: 2, 1: 13}, {18: 2, 23: 1, 12: 12})
    got = plays(p, (6, 1))
    assert all("/18" not in s for s in got)
    assert "24/23*" in " ".join(got)  # a single opposing checker is a blot: hit it


def test_bg_5_doubles_are_played_four_times() -> None:
    for x in bg.legal_plays(bg.Position.start(), (6, 6)):
        assert x.start.pips()[0] - x.after.pips()[1] == 24
    assert "24/18(2) 13/7(2)" in plays(bg.Position.start(), (6, 6))


def test_bg_6_both_numbers_when_possible() -> None:
    for d in ALL_ROLLS:
        for x in bg.legal_plays(bg.Position.start(), d):
            used = 4 * d[0] if d[0] == d[1] else d[0] + d[1]
            assert x.start.pips()[0] - x.after.pips()[1] == used


def test_bg_6_only_one_number_fits_so_the_higher_must_be_played() -> None:
    # 12/6 then 6/2 blocked; 12/8 then 8/2 blocked: either alone, never both.
    p = pos({12: 1, 1: 14}, {2: 2, 20: 13})
    assert plays(p, (6, 4)) == {"12/6"}


def test_bg_6_the_lower_number_when_the_higher_cannot_be_played() -> None:
    p = pos({12: 1, 1: 14}, {2: 2, 6: 2, 20: 11})
    assert plays(p, (6, 4)) == {"12/8"}


def test_bg_6_as_many_of_a_double_as_possible() -> None:
    p = pos({13: 1, 1: 14}, {5: 2, 20: 13})  # 13/9 and then 9/5 is blocked
    assert plays(p, (4, 4)) == {"13/9"}
    q = pos({13: 2, 1: 13}, {5: 2, 20: 13})
    assert plays(q, (4, 4)) == {"13/9(2)"}


def test_bg_6_no_voluntary_pass() -> None:
    with pytest.raises(bg.IllegalMove, match="empty move"):
        bg.apply(bg.Position.start(), "", dice=(3, 1))
    with pytest.raises(bg.IllegalMove):
        bg.apply(bg.Position.start(), "pass", dice=(3, 1))


def test_bg_6_a_partial_play_is_refused_with_the_reason() -> None:
    with pytest.raises(bg.IllegalMove, match="both"):
        bg.apply(bg.Position.start(), "8/3", dice=(5, 3))


def test_bg_7_hit_in_the_middle_of_a_move() -> None:
    p = pos({13: 1, 1: 14}, {8: 1, 20: 14})
    got = {str(x): x for x in bg.legal_plays(p, (5, 3))}
    assert set(got) == {"13/8*/5", "13/5"}
    after = got["13/8*/5"].after  # opponent on roll: their bar holds the hit checker
    assert after.board()[1][24] == 1
    assert got["13/5"].after.board()[1][24] == 0


def test_bg_7_several_blots_hit_in_one_turn() -> None:
    p = pos({13: 2, 1: 13}, {8: 1, 10: 1, 20: 13})
    x = bg.apply(p, "13/10* 13/8*", dice=(5, 3))
    assert x.board()[1][24] == 2


def test_bg_8_bar_first_then_the_rest() -> None:
    p = pos({25: 1, 13: 5, 6: 9}, {20: 15})
    got = plays(p, (6, 4))
    assert got and all(s.startswith("bar/") for s in got)
    assert "bar/21 13/7" in got and "bar/15" in got
    with pytest.raises(bg.IllegalMove):
        bg.apply(p, "13/7 13/9", dice=(6, 4))


def test_bg_8_closed_board_loses_the_whole_turn() -> None:
    closed = pos({25: 1, 13: 14}, dict.fromkeys(range(19, 25), 2) | {10: 3})
    for d in ALL_ROLLS:
        assert bg.legal_plays(closed, d) == []


def test_bg_8_one_entry_point_open_with_two_on_the_bar() -> None:
    p = pos({25: 2, 13: 13}, dict.fromkeys((19, 20, 21, 23, 24), 2) | {11: 5})
    assert plays(p, (3, 5)) == {"bar/22"}  # the 3 enters; the 5 is lost with one still up
    # Both enter with 3-3 (22/19 is closed), then the other two 3s are played normally.
    assert plays(p, (3, 3)) == {"bar/22(2) 13/10(2)", "bar/22(2) 13/7"}


def test_bg_9_no_bearing_off_until_all_fifteen_are_home() -> None:
    p = pos({7: 1, 6: 14}, {20: 15})
    # 7/6 6/off (or 7/1 1/off): the first number brings it home, then it may bear off.
    assert plays(p, (6, 1)) == {"7/off", "7/1 6/5"}
    q = pos({8: 1, 6: 14}, {20: 15})
    assert "off" not in " ".join(plays(q, (6, 1)))


def test_bg_9_exact_higher_and_move_inside() -> None:
    p = pos({5: 2, 2: 1}, {20: 15})
    assert plays(p, (5, 1)) == {"5/4 5/off", "5/off 2/1"}  # exact 5, and the 1 inside
    q = pos({4: 1, 2: 1}, {20: 15})
    assert plays(q, (6, 5)) == {"4/off 2/off"}  # higher than the highest point
    # No checker on the 5 or the 4 but one higher, on the 6: it must move inside first.
    r = pos({6: 1, 3: 1}, {20: 15})
    assert plays(r, (5, 4)) == {"6/1 3/off", "6/2 3/off"}


def test_bg_9_a_checker_hit_during_bear_off_must_come_round() -> None:
    p = pos({25: 1, 6: 4, 3: 5}, {20: 15})
    for d in ALL_ROLLS:
        for s in plays(p, d):
            assert s.startswith("bar/")
            assert "off" not in s


# --- notation --------------------------------------------------------------------------
def test_notation_examples_from_the_contract() -> None:
    assert "13/7(2)" in " ".join(plays(bg.Position.start(), (6, 6)))
    assert plays(pos({6: 1, 1: 1}, {20: 15}), (6, 1)) == {"6/off 1/off", "6/off"}
    assert plays(pos({25: 1, 13: 14}, {22: 1, 10: 14}), (3, 3)) == {"bar/22*/13"}
    p = pos({24: 1, 13: 14}, {18: 1, 10: 14})
    assert "24/18*/13" in plays(p, (6, 5))


def test_notation_is_read_back_to_the_same_play() -> None:
    start = bg.Position.start()
    for d in ALL_ROLLS:
        for x in bg.legal_plays(start, d):
            assert bg.apply(start, str(x), dice=d) == x.after


def test_notation_accepts_other_spellings() -> None:
    start = bg.Position.start()
    expect = bg.apply(start, "13/7 13/7 8/2 8/2", dice=(6, 6))
    assert bg.apply(start, "13/7(2) 8/2(2)", dice=(6, 6)) == expect
    assert bg.apply(start, "13/7(2), 8/2(2)") == expect  # dice inferred
    assert bg.apply(start, "24/18/13", dice=(6, 5)) == bg.apply(start, "24/13", dice=(6, 5))


def test_the_stars_settle_which_way_a_combined_move_went() -> None:
    p = pos({24: 1, 13: 14}, {18: 1, 10: 14})
    hit = bg.apply(p, "24/18*/13", dice=(6, 5))
    quiet = bg.apply(p, "24/13", dice=(6, 5))  # via 19, no hit
    assert hit.board()[1][24] == 1 and quiet.board()[1][24] == 0


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("13/14", "forward"),
        ("13", "cannot read"),
        ("26/20", "no point"),
        ("x/y", "cannot read"),
        ("13/7(5)", "at most 4"),
        ("8/bar", "to the bar"),
        ("24/20", "cannot be played"),
        ("13/7 13/7 13/7 13/7 8/2", "more than four"),
        ("8/2 8/2", "cannot be played"),
    ],
)
def test_illegal_notation_says_why(text: str, why: str) -> None:
    start = bg.Position.start()
    with pytest.raises(bg.IllegalMove, match=why):
        bg.apply(start, text, dice=(5, 3))
    assert start == bg.Position.start()  # nothing changed


def test_apply_infers_the_dice_and_refuses_ambiguous_notation() -> None:
    assert bg.apply(bg.Position.start(), "8/5 6/5") == bg.apply(
        bg.Position.start(), "8/5 6/5", dice=(3, 1)
    )
    two_blots = pos({24: 1, 13: 14}, {18: 1, 19: 1, 10: 13})
    with pytest.raises(bg.IllegalMove, match="ambiguous"):
        bg.apply(two_blots, "24/13*", dice=(6, 5))
    with pytest.raises(bg.IllegalMove, match="ambiguous"):
        bg.apply(two_blots, "24/13*")
    assert bg.apply(two_blots, "24/18*/13*") != bg.apply(two_blots, "24/19*/13")


def test_a_play_from_another_position_is_refused() -> None:
    x = bg.legal_plays(bg.Position.start(), (3, 1))[0]
    with pytest.raises(bg.IllegalMove, match="another position"):
        bg.apply(bg.Position.nackgammon(), x)


def test_bad_dice_are_refused() -> None:
    for bad in [(0, 3), (7, 1), (1,), "31", (1.0, 2), ([1], 2), [True, 2]]:
        with pytest.raises(ValueError):
            bg.legal_plays(bg.Position.start(), bad)  # type: ignore[arg-type]


# --- properties -------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=40),
       st.randoms(use_true_random=False))  # fmt: skip
def test_checkers_are_conserved_and_plays_are_distinct(
    rolls: list[tuple[int, int]], rnd: object
) -> None:
    p = bg.Position.start()
    for d in rolls:
        ps = bg.legal_plays(p, d)
        afters = [x.after for x in ps]
        assert len(set(afters)) == len(afters)  # distinct by resulting position
        for a in afters:
            for side in a.board():
                assert sum(side) <= 15
            assert sum(a.board()[0]) + a.off()[1] == 15
            assert sum(a.board()[1]) + a.off()[0] == 15
        p = rnd.choice(afters) if afters else p.swapped()  # type: ignore[attr-defined]
        if max(p.off()) == 15:
            break
