"""The partial-move planner (game/bgmoves.py): every offered step is on the way to one of
the engine's legal plays and every legal play can be clicked (BG-6), with rule examples."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings

from game.backgammon.moves import BAR, OFF, StepError, Turn, single_step
from game.engine import backgammon as bg
from tests.backgammon.positions import dice, pos, positions


def _key(p: bg.Position) -> tuple[int, int]:
    return p.mine, p.theirs


def _explore(turn: Turn) -> tuple[set[tuple[int, int]], set[str]]:
    """Every play reachable by clicking offered single steps (a depth-first walk over the
    distinct boards), checking on the way that nothing offered is a dead end and that each
    combined target is a chain of offered single steps."""
    results: set[tuple[int, int]] = set()
    notations: set[str] = set()
    seen: set = set()

    def walk(t: Turn) -> None:
        key = (t.board, t.remaining, len(t.steps))
        if key in seen:
            return
        seen.add(key)
        if t.complete and t.play is None:
            assert not t.plays and t.notation == "" and t.movable() == {}
            return
        if t.complete:
            # the play is one of the engine's, the very same object's notation
            assert t.notation == str(t.play)
            assert _key(t.play.after) in {_key(p.after) for p in t.plays}
            results.add(_key(t.play.after))
            notations.add(t.notation)
            assert t.movable() == {}
            return
        offered = t.movable()
        assert offered, "an incomplete turn with nothing to click"
        for src, targets in offered.items():
            for target in targets:
                assert target.src == src
                if target.combined:
                    # each step of a one-click move is offered in turn
                    u = t
                    for s in target.steps:
                        assert any(not x.combined and x.dst == s.dst for x in u.targets(s.src))
                        u = u.move(s.src, s.dst, s.die)
                    assert u.board == t.move(src, target.dst, target.dice[0]).board
                else:
                    walk(t.move(src, target.dst, target.dice[0]))

    walk(turn)
    return results, notations


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_bg_6_offered_steps_reach_exactly_the_engines_plays(p: bg.Position, roll) -> None:
    turn = Turn(p, roll)
    plays = bg.legal_plays(p, roll)
    results, notations = _explore(turn)
    assert results == {_key(x.after) for x in plays}
    assert notations <= {str(x) for x in plays}
    if not plays:
        assert turn.complete and turn.notation == "" and turn.movable() == {}


def _engine_path_passes(p: bg.Position, roll, moves) -> bool:
    """The engine's own step order, replayed through the planner's one-step check."""
    from game.backgammon.moves import after_step, board_of

    pool = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)

    def go(board, pool, rest) -> bool:
        if not rest:
            return True
        src, dst, _hit = rest[0]
        for die in sorted(set(pool)):
            step = single_step(board, src, die)
            if step is not None and step.dst == dst:
                left = list(pool)
                left.remove(die)
                if go(after_step(board, step), left, rest[1:]):
                    return True
        return False

    return go(board_of(p), pool, list(moves))


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_the_one_step_check_admits_every_engine_move_order(p: bg.Position, roll) -> None:
    for play in bg.legal_plays(p, roll):
        assert _engine_path_passes(p, roll, play.moves()), str(play)


def _reaches(t: Turn, after: bg.Position) -> bool:
    """Whether single planner steps from ``t`` can end in the play leaving ``after``."""
    if t.complete:
        return t.play is not None and t.play.after == after
    return any(
        _reaches(t.move(src, x.dst, x.dice[0]), after)
        for src, targets in t.movable().items()
        for x in targets
        if not x.combined
    )


@settings(max_examples=100, deadline=None)
@given(positions, dice)
@example(bg.Position.from_id("AAAA/+//BQAAAA"), (1, 2))  # 2/off through the 1-point
def test_bg_6_every_engine_play_replays_through_the_planner(p: bg.Position, roll) -> None:
    """Feeding a play's own moves() as steps (the die worked out by the planner) ends in
    that play, with its notation."""
    for play in bg.legal_plays(p, roll)[:20]:
        t = Turn(p, roll)
        for src, dst, _hit in play.moves():
            options = [x for x in t.targets(src) if x.dst == dst and not x.combined]
            assert options, f"{play}: {src}/{dst} not offered"
            # where two dice bear off the same checker, one of them leads on to this play
            for o in options:
                nxt = t.move(src, dst, o.dice[0])
                if not nxt.complete or nxt.play == play or nxt.play.after == play.after:
                    break
            t = nxt
        if not (t.complete and t.play is not None and t.play.after == play.after):
            # moves() writes one checker's run over both dice as one segment when it
            # bears off ("2/off" with 1-2 runs through the 1-point): the planner makes
            # it in single steps, which are searched for here.
            assert _reaches(Turn(p, roll), play.after), str(play)


# --- examples, one rule each -------------------------------------------------------------
def test_bg_3_one_checker_both_dice_in_one_click() -> None:
    t = Turn(bg.Position.start(), (6, 5))
    assert {(x.dst, x.dice) for x in t.targets(24)} == {(18, (6,)), (13, (6, 5))}
    done = t.move(24, 13)
    assert done.complete and done.notation == "24/13"
    assert [s.code() for s in done.steps] == [[24, 18, 6], [18, 13, 5]]


def test_bg_3_combined_move_only_through_an_open_point() -> None:
    # 6-5 from 24: 18 is made by the opponent, 19 open: the combined move goes via 19.
    p = pos({24: 1, 6: 14}, {18: 2, 12: 13})
    t = Turn(p, (6, 5))
    combined = [x for x in t.targets(24) if x.combined]
    assert [(x.dst, x.dice, [s.dst for s in x.steps]) for x in combined] == [(13, (5, 6), [19, 13])]
    assert 18 not in {x.dst for x in t.targets(24)}


def test_bg_7_combined_move_not_offered_when_the_route_decides_a_hit() -> None:
    # A blot on 18, 19 open: 24/18*/13 and 24/19/13 are different plays, so no one click.
    p = pos({24: 1, 6: 14}, {18: 1, 1: 14})
    t = Turn(p, (6, 5))
    assert {x.dst for x in t.targets(24)} == {18, 19}
    assert [x for x in t.targets(24) if x.hit] == [x for x in t.targets(24) if x.dst == 18]
    assert t.move(24, 18).move(18, 13).notation == "24/18*/13"
    assert t.move(24, 19).move(19, 13).notation == "24/13"
    with pytest.raises(StepError):
        t.move(24, 13)


def test_bg_5_doubles_four_steps() -> None:
    t = Turn(bg.Position.start(), (6, 6))
    assert t.remaining == (6, 6, 6, 6)
    t = t.move(24, 18).move(24, 18).move(13, 7)
    assert not t.complete and t.remaining == (6,)
    t = t.move(13, 7)
    assert t.complete and t.notation == "24/18(2) 13/7(2)"


def test_bg_6_a_step_that_strands_the_other_die_is_not_offered() -> None:
    # 6-1: 10/9 first would leave the 6 unplayable (3 is made); 10/4 then 4/3 is
    # blocked too but 1/off uses the 1 once everything is home. So only 10/4.
    p = pos({10: 1, 1: 14}, {3: 2, 19: 13})
    t = Turn(p, (6, 1))
    assert {s: [x.dst for x in ts] for s, ts in t.movable().items()} == {10: [4]}
    t = t.move(10, 4)
    assert {s: [x.dst for x in ts] for s, ts in t.movable().items()} == {1: [OFF]}
    assert t.move(1, OFF).notation == str(bg.legal_plays(p, (6, 1))[0])


def test_bg_6_only_the_higher_die_when_only_one_can_be_played() -> None:
    # 6-5 from 24: 18 and 19 open, 13 made: one number only, and it must be the 6.
    p = pos({24: 1, 1: 14}, {13: 2, 23: 13})
    assert [str(x) for x in bg.legal_plays(p, (6, 5))] == ["24/18"]
    t = Turn(p, (6, 5))
    assert {s: [x.dst for x in ts] for s, ts in t.movable().items()} == {24: [18]}
    done = t.move(24, 18)
    assert done.complete and done.notation == "24/18" and done.remaining == (5,)


def test_bg_6_forced_play() -> None:
    p = pos({24: 1, 1: 14}, {13: 2, 23: 13})
    t = Turn(p, (6, 5))
    assert t.forced and t.rest_forced
    assert t.finish().notation == "24/18"
    start = Turn(bg.Position.start(), (6, 5))
    assert not start.forced and not start.rest_forced
    with pytest.raises(StepError, match="more than one"):
        start.finish()


def test_the_rest_of_a_turn_can_be_forced_by_its_first_step() -> None:
    # 6-1 from the stranding example: once 10/4 is played, only 1/off is left
    p = pos({10: 1, 1: 14}, {3: 2, 19: 13})
    t = Turn(p, (6, 1))
    assert t.rest_forced  # 10/4 1/off is the only play
    half = t.move(10, 4)
    assert half.rest_forced and half.finish().notation == t.finish().notation
    # with doubles: after 24/18(2) at the start with 6-6, the rest is still a choice
    d = Turn(bg.Position.start(), (6, 6)).move(24, 18).move(24, 18)
    assert not d.rest_forced


def test_bg_8_the_bar_enters_before_anything_else() -> None:
    p = pos({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {1: 2, 12: 5, 17: 3, 19: 5})
    t = Turn(p, (6, 5))
    assert set(t.movable()) == {BAR}
    assert {x.dst for x in t.targets(BAR)} == {20, 14}  # 19 is made; bar/20/14 in one
    t = t.move(BAR, 20)
    assert BAR not in t.movable() and 20 in t.movable()


def test_bg_8_closed_board_nothing_to_click() -> None:
    p = pos({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3})
    t = Turn(p, (6, 5))
    assert t.complete and t.notation == "" and t.movable() == {} and t.play is None


def test_bg_9_bearing_off_with_the_higher_die_from_the_highest_point() -> None:
    p = pos({4: 1, 3: 1}, {19: 15})
    t = Turn(p, (6, 5))
    # 3/off with a 5 or 6 only once the 4 is gone; one target for the 4 (either die)
    assert {s: [x.dst for x in ts] for s, ts in t.movable().items()} == {4: [OFF]}
    t = t.move(4, OFF)
    assert t.move(3, OFF).notation == "4/off 3/off"


def test_bg_9_two_dice_bearing_off_one_checker_differently_are_both_offered() -> None:
    # Checkers on 5 and 2; 6-2: 5/off needs the 6 (or 5/3 with the 2); 2/off with the 2.
    p = pos({5: 1, 2: 1}, {19: 15})
    t = Turn(p, (6, 2))
    assert {(x.dst, x.dice) for x in t.targets(5)} >= {(OFF, (6,)), (3, (2,))}
    assert {(x.dst, x.dice) for x in t.targets(2)} == {(OFF, (2,))}


def test_undo_drops_the_last_step_and_bad_steps_change_nothing() -> None:
    t = Turn(bg.Position.start(), (6, 5)).move(24, 18)
    with pytest.raises(StepError, match="may go to"):
        t.move(18, 11)
    with pytest.raises(StepError, match="no checker"):
        t.move(20, 15)
    assert [s.code() for s in t.steps] == [[24, 18, 6]]
    back = t.undo()
    assert back.steps == () and back.movable() == Turn(bg.Position.start(), (6, 5)).movable()
    with pytest.raises(StepError, match="nothing to undo"):
        back.undo()
    with pytest.raises(StepError, match="complete"):
        t.move(18, 13).move(13, 8)


def test_steps_round_trip_through_codes() -> None:
    t = Turn(bg.Position.start(), (4, 4)).move(13, 5).move(6, 2).move(6, 2)
    again = Turn(bg.Position.start(), (4, 4), t.codes())
    assert again.steps == t.steps and again.complete and again.notation == t.notation
    assert Turn(bg.Position.start(), (4, 4), [(13, 9), (9, 5)]).steps == t.steps[:2]
    with pytest.raises(StepError):
        Turn(bg.Position.start(), (4, 4), [("x", 2)])
    with pytest.raises(ValueError):
        Turn(bg.Position.start(), (7, 4))
