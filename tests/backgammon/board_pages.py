"""Boards in sample states, each written into a small standalone HTML page (the site's
stylesheet and fonts, the board's CSS and JS) for the browser tests and screenshots."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from game.backgammon.board import render_board
from game.backgammon.moves import Turn
from game.engine import backgammon as bg
from tests.backgammon.positions import pos

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "game" / "backgammon" / "static" / "game" / "backgammon"


def opening(dice=(6, 5)) -> bg.Game:
    """A game whose first mover is seat 0 with ``dice``."""
    d1, d2 = max(dice), min(dice)
    return bg.Game(dice=[(d1, d2)])


def bar_fight() -> bg.Game:
    """Seat 0 on roll with a checker on the bar, stacks taller than five, cube owned."""
    p = pos(
        {25: 1, 6: 7, 8: 3, 13: 2, 24: 2},
        {25: 1, 1: 1, 19: 4, 20: 2, 21: 2, 12: 3, 17: 2},
    )
    g = bg.Game(dice=[(4, 2), (5, 3), (6, 1)], position=p, turn=0)
    g = g.apply("double").apply("take")  # seat 1 owns the cube at 2
    return g.apply("roll")


def bear_off() -> bg.Game:
    p = pos({6: 2, 5: 3, 4: 2, 3: 1, 2: 1}, {19: 4, 20: 3, 22: 2, 24: 3, 17: 1, 18: 2})
    return bg.Game(dice=[(6, 4)], position=p, turn=0).apply("roll")


def page(lang: str, body: str) -> str:
    fonts = (ROOT / "static" / "vendor" / "fonts").as_uri()
    css = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
    css = css.replace('url("/static/vendor/fonts', f'url("{fonts}').replace(
        "url(/static/vendor/fonts", f"url({fonts}"
    )
    direction = "rtl" if lang == "ur" else "ltr"
    return (
        f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{css}</style><style>{(STATIC / 'board.css').read_text()}</style></head>"
        f"<body><main>{body}</main><script>{(STATIC / 'board.js').read_text()}</script>"
        "<script>window.bgEvents=[];['bg:step','bg:undo','bg:confirm'].forEach(function(n)"
        "{document.addEventListener(n,function(e){window.bgEvents.push([n,e.detail]);});});"
        "</script></body></html>"
    )


def boards(lang: str) -> dict[str, str]:
    """name -> the HTML page of one sample board in ``lang``."""
    out = {}
    with translation.override(lang):
        g = opening()
        t = Turn(g.pos, g.dice)
        out["opening-pick"] = render_board(g.view(0), t, selected=24)
        out["opening-left"] = render_board(g.view(0), t.move(24, 18), home="left", selected=13)
        done = t.move(24, 13)
        out["complete"] = render_board(g.view(0), done)
        b = bar_fight()
        out["bar"] = render_board(b.view(0), Turn(b.pos, b.dice), selected=25)
        out["opponent-view"] = render_board(b.view(1))
        m = bg.Match(5, dice=[(6, 5)] * 3)
        out["match"] = render_board(m.view(None), home="left")
        e = bear_off()
        out["bear-off"] = render_board(e.view(0), Turn(e.pos, e.dice), selected=6)
    return {k: page(lang, v) for k, v in out.items()}
