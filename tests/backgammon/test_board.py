"""The board SVG (game/bgboard.py): every count in its place, both home-board sides,
clickable elements for the planner's offers only, nothing the seat may not see, and
every word in Urdu and Hindi."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.utils import translation
from hypothesis import given, settings

from game.backgammon.board import board_svg, render_board
from game.backgammon.moves import Turn
from game.backgammon.words import describe_play, describe_step
from game.engine import backgammon as bg
from game.engine import fair
from tests.backgammon.board_pages import bar_fight, bear_off, opening
from tests.backgammon.positions import dice, positions


class _Elements(HTMLParser):
    """Every element with a class, as (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.circles_in: dict[int, int] = {}
        self._stack: list[int | None] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        self.found.append((tag, a))
        if tag == "circle":
            for idx in self._stack:
                if idx is not None:
                    self.circles_in[idx] = self.circles_in.get(idx, 0) + 1
        if tag == "g":
            self._stack.append(len(self.found) - 1 if "bg-stack" in a.get("class", "") else None)

    def handle_endtag(self, tag: str) -> None:
        if tag == "g":
            self._stack.pop()


def parse(html: str) -> _Elements:
    p = _Elements()
    p.feed(html)
    return p


def of_class(p: _Elements, cls: str) -> list[dict[str, str]]:
    return [a for _t, a in p.found if cls in a.get("class", "").split()]


def _view_for(p: bg.Position, roll) -> dict:
    g = bg.Game(dice=[roll], position=p, turn=0).apply("roll")
    return g, g.view(0)


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_every_count_on_the_board_is_drawn_where_it_belongs(p: bg.Position, roll) -> None:
    g = bg.Game(dice=[roll], position=p, turn=0)
    view = g.view(0)
    with translation.override("en"):
        html = board_svg(view)
    el = parse(html)
    points = view["board"]["points"]
    stacks = {
        (int(a["data-point"]), a["data-side"]): int(a["data-count"])
        for a in of_class(el, "bg-stack")
    }
    expected = {}
    for i, n in enumerate(points, start=1):
        if n:
            expected[(i, "mine" if n > 0 else "theirs")] = abs(n)
    assert stacks == expected
    # five checkers at most per point, the count written on the fifth when more
    for idx, (_t, a) in enumerate(el.found):
        if "bg-stack" in a.get("class", ""):
            assert el.circles_in[idx] == 2 * min(int(a["data-count"]), 5)  # body + inner ring
    for n in {abs(x) for x in points if abs(x) > 5}:
        assert re.search(rf">{n}</text>", html)
    bars = {a["data-side"]: int(a["data-count"]) for a in of_class(el, "bg-bar")}
    offs = {a["data-side"]: int(a["data-count"]) for a in of_class(el, "bg-off")}
    assert bars == {"mine": view["board"]["bar"][0], "theirs": view["board"]["bar"][1]}
    assert offs == {"mine": view["board"]["off"][0], "theirs": view["board"]["off"][1]}
    pips = {a["data-side"]: a for a in of_class(el, "bg-pips")}
    assert set(pips) == {"mine", "theirs"}
    for side, n in zip(("mine", "theirs"), view["board"]["pips"], strict=True):
        assert re.search(rf'class="bg-pips" data-side="{side}"[^>]*>{n}<', html)


def _x_of_point(html: str, point: int) -> float:
    m = re.search(rf'<text class="bg-num" x="([\d.]+)"[^>]*>{point}</text>', html)
    assert m, point
    return float(m.group(1))


@pytest.mark.parametrize("home", ["right", "left"])
def test_home_board_on_either_side_numbered_from_the_viewer(home: str) -> None:
    g = opening()
    for seat in (0, 1):
        html = board_svg(g.view(seat), home=home)
        x1, x6, x7, x12 = (_x_of_point(html, p) for p in (1, 6, 7, 12))
        x13, x24 = _x_of_point(html, 13), _x_of_point(html, 24)
        if home == "right":
            assert x1 > x6 > x7 > x12 and x13 < x24 and abs(x1 - x24) < 1
        else:
            assert x1 < x6 < x7 < x12 and x13 > x24 and abs(x1 - x24) < 1
        assert f'data-home="{home}"' in html and 'direction="ltr"' in html
        # each seat sees its own 24-point holding its two back checkers
        el = parse(html)
        stacks = {
            (int(a["data-point"]), a["data-side"]): int(a["data-count"])
            for a in of_class(el, "bg-stack")
        }
        assert stacks[(24, "mine")] == 2 and stacks[(6, "mine")] == 5 and stacks[(1, "theirs")] == 2
    # the trays sit on the home side, the cube and pips on the other
    e = bear_off()  # seat 0 has six off
    html = board_svg(e.view(0), home=home)
    tray_x = float(
        re.search(r'class="bg-off" data-side="mine"[^>]*><rect x="([\d.]+)"', html).group(1)
    )
    cube_x = float(re.search(r'class="bg-cube".*?<rect x="([\d.]+)"', html).group(1))
    if home == "right":
        assert tray_x > _x_of_point(html, 1) and cube_x < _x_of_point(html, 12)
    else:
        assert tray_x < _x_of_point(html, 1) and cube_x > _x_of_point(html, 12)


def test_cube_value_and_owner() -> None:
    g = bar_fight()  # seat 0 doubled, seat 1 took: seat 1 owns a 2
    for seat, where in ((0, "theirs"), (1, "mine")):
        el = parse(board_svg(g.view(seat)))
        (cube,) = of_class(el, "bg-cube")
        assert cube["data-value"] == "2" and cube["data-owner"] == where
    (cube,) = of_class(parse(board_svg(opening().view(0))), "bg-cube")
    # The face and the line beside the board agree ("Cube at 1, in the middle"): a centred
    # cube's 64, the custom of real cubes, was read as the stake by a newcomer.
    centred = board_svg(opening().view(0))
    assert cube["data-owner"] == "centre" and ">1</text></g>" in centred
    assert ">64</text>" not in centred
    with translation.override("en"):
        assert 'aria-label="Doubling cube at 1, in the middle"' in board_svg(opening().view(0))
    no_cube = bg.Game(bg.Rules(cube=False), dice=[(6, 5)])
    assert not of_class(parse(board_svg(no_cube.view(0))), "bg-cube")


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_clickable_elements_are_exactly_the_planners_offers(p: bg.Position, roll) -> None:
    g = bg.Game(dice=[roll], position=p, turn=0).apply("roll")
    if g.phase != "move":
        return  # no legal play: the turn passed, nothing to click
    turn = Turn(g.pos, g.dice)
    el = parse(board_svg(g.view(0), turn))
    srcs = {int(a["data-from"]) for a in of_class(el, "bg-src")}
    assert srcs == set(turn.movable())
    dsts = {
        (int(a["data-from"]), int(a["data-to"]), a["data-dice"]) for a in of_class(el, "bg-dst")
    }
    offered = {
        (s, t.dst, ",".join(map(str, t.dice))) for s, ts in turn.movable().items() for t in ts
    }
    assert dsts == offered
    for a in of_class(el, "bg-src") + of_class(el, "bg-dst"):
        assert a["role"] == "button" and a["aria-label"] and "tabindex" in a
        # a step carries where from, where to and with which dice, nothing else
        assert {k for k in a if k.startswith("data-")} <= {"data-from", "data-to", "data-dice"}
    # each step offered leads on: after it the board shows the planner's next offers
    src, targets = next(iter(turn.movable().items()))
    nxt = turn.move(src, targets[0].dst, targets[0].dice[0])
    el2 = parse(board_svg(g.view(0), nxt))
    assert {int(a["data-from"]) for a in of_class(el2, "bg-src")} == set(nxt.movable())


def test_selected_checker_shows_its_destinations_and_the_dice_used() -> None:
    g = opening()
    turn = Turn(g.pos, g.dice)
    el = parse(board_svg(g.view(0), turn, selected=24))
    on = [a for a in of_class(el, "bg-dst") if "bg-on" in a["class"]]
    assert {(a["data-to"], a["data-dice"]) for a in on} == {("18", "6"), ("13", "6,5")}
    assert all(a["tabindex"] == "0" for a in on)
    assert all(a["tabindex"] == "-1" for a in of_class(el, "bg-dst") if a not in on)
    after = parse(board_svg(g.view(0), turn.move(24, 18)))
    used = [a["data-value"] for a in of_class(after, "bg-die-used")]
    assert used == ["6"] and len(of_class(after, "bg-die")) == 2
    # the intermediate board: the checker now stands on 18
    stacks = {
        (int(a["data-point"]), a["data-side"]): int(a["data-count"])
        for a in of_class(after, "bg-stack")
    }
    assert stacks[(24, "mine")] == 1 and stacks[(18, "mine")] == 1


def test_doubles_show_four_dice() -> None:
    g = bg.Game(dice=[(4, 2), (3, 3)]).apply("move:8/4 6/4").apply("roll")
    turn = Turn(g.pos, g.dice).move(8, 5)
    el = parse(board_svg(g.view(g.turn), turn))
    assert len(of_class(el, "bg-die")) == 4 and len(of_class(el, "bg-die-used")) == 1


def test_a_planner_for_another_position_or_seat_is_refused() -> None:
    g = opening()
    other = Turn(bear_off().pos, (6, 4))
    with pytest.raises(ValueError, match="another position"):
        board_svg(g.view(0), other)
    with pytest.raises(ValueError, match="seat whose move"):
        board_svg(g.view(1), Turn(g.pos, g.dice))
    with pytest.raises(ValueError, match="home"):
        board_svg(g.view(0), home="top")


def test_no_seed_and_no_future_dice_in_the_page() -> None:
    seed = "server-seed-never-shown-0123456789"
    g = bg.Game(seed=seed, client_seeds=["c1"])
    for _ in range(30):
        if g.is_over:
            break
        for seat in (0, 1, None):
            view = g.view(seat)
            turn = Turn(g.pos, g.dice) if seat == g.to_move and g.phase == "move" else None
            html = render_board(view, turn)
            assert seed not in html and fair.commitment(seed) not in html
            drawn = [int(a["data-value"]) for a in of_class(parse(html), "bg-die")]
            if view["dice"]:
                a, b = view["dice"]
                assert sorted(set(drawn)) == sorted({a, b})
            else:
                assert drawn == []  # before the roll: no dice, none of the next throw
        acts = [a for a in g.legal_actions() if a == "roll" or a.startswith("move:")]
        g = g.apply(acts[0])


def test_aria_live_says_the_roll_and_each_step() -> None:
    g = opening()
    with translation.override("en"):
        html = render_board(g.view(0), Turn(g.pos, g.dice))
        assert re.search(r'aria-live="polite"[^>]*>You rolled 6 and 5<', html)
        html = render_board(g.view(1))
        assert ">Your opponent rolled 6 and 5<" in html
        html = render_board(g.view(0), Turn(g.pos, g.dice).move(13, 8))
        assert ">13 to 8<" in html
        assert describe_step(25, 20, True) == "Bar to 20, hitting a blot"
        assert describe_step(6, 0) == "6 off"
        g2 = g.apply("move:24/13")
        assert ">You played 24 to 13<" in render_board(g2.view(0))
        spectator = render_board(g2.view(None))
        assert ">Last move: light rolled 6 and 5 and played 24 to 13.<" in spectator
        assert describe_play("24/18*/13 6/5(2)") == (
            "24 to 18, hitting a blot; 18 to 13; 6 to 5; 6 to 5"
        )


def test_undo_and_confirm_buttons() -> None:
    g = opening()
    t = Turn(g.pos, g.dice)
    with translation.override("en"):
        fresh = render_board(g.view(0), t)
        assert (
            'data-bg-action="undo" disabled' in fresh
            and "confirm" not in fresh.split("bg-actions")[1]
        )
        done = render_board(g.view(0), t.move(24, 13))
        assert 'data-bg-action="confirm" data-play="24/13"' in done
        assert 'data-bg-action="undo">' in done
        assert "Move complete" in done
        assert "bg-actions" not in render_board(g.view(1))


ENGLISH = [
    "Backgammon board", "Your checkers", "Pips", "Undo", "Confirm move", "Checker on",
    "Doubling cube", "You rolled", "Your move", "Move complete", "Match to", "Crawford",
    " to ", "dice:", "Light",
]  # fmt: skip


@pytest.mark.parametrize("lang", ["ur", "hi"])
def test_every_word_is_translated(lang: str) -> None:
    g = opening()
    t = Turn(g.pos, g.dice)
    m = bg.Match(3, dice=[(6, 5)] * 4)
    pages = []
    with translation.override(lang):
        pages.append(render_board(g.view(0), t, selected=24))
        pages.append(render_board(g.view(0), t.move(24, 13)))
        pages.append(render_board(g.view(0), t.move(24, 18)))
        pages.append(render_board(m.view(None)))
        pages.append(render_board(bar_fight().view(1)))
        pages.append(render_board(g.apply("move:24/13").view(None)))
        match_view = m.view(0)
        match_view["crawford_game"] = True
        pages.append(render_board(match_view))
    visible = (
        " ".join(re.findall(r'aria-label="([^"]*)"', " ".join(pages)))
        + " "
        + " ".join(re.findall(r">([^<]+)<", " ".join(pages)))
    )
    for word in ENGLISH:
        assert word not in visible, (lang, word)


def test_aria_live_says_every_hop_of_the_checker_just_moved() -> None:
    """A 6-5 with one checker, 24 to 18 then 18 to 13: the live region says both hops,
    not only the last one (it said "18 to 13" alone)."""
    g = opening()
    turn = Turn(g.pos, g.dice).move(24, 18).move(18, 13)
    with translation.override("en"):
        html = render_board(g.view(0), turn)
    assert re.search(r'aria-live="polite"[^>]*>24 to 18; 18 to 13<', html), html[-600:]
