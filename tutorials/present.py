"""Turn a step into what a template draws: labelled options and pictures.

Nothing here says which option is right: the page gets the same options for a right and
a wrong answer, and the check happens on the server (steps.base.Step.check).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from game.backgammon import board as bgboard
from game.backgammon import render as bgrender
from game.backgammon.moves import Turn
from game.courtpiece import words as cp_words
from game.engine import backgammon as bg
from guide.pages import BY_SLUG, url_name_and_kwargs
from tutorials import labels, pictures
from tutorials.steps.backgammon import BgMove
from tutorials.steps.base import LessonError, Step
from tutorials.steps.courtpiece import TrumpSuit


def rule_url(page: str, anchor: str) -> str:
    """The guide page (rules, or house rules) and section a step cites."""
    name, kwargs = url_name_and_kwargs(BY_SLUG[page])
    return reverse(name, kwargs=kwargs) + (f"#{anchor}" if anchor else "")


def ask_html(step: Step, ask: str) -> SafeString:
    """The step's question. A question about one card writes ``{card}`` where the card goes
    ("Can you play the {card} here?"): the name is drawn from the step's own action, in
    bold, so the words can never name another card than the one the engine is asked about.
    """
    before, placeholder, after = ask.partition("{card}")
    if not placeholder:
        return format_html("{}", ask)
    kind, _sep, card = str(getattr(step, "action", "")).partition(":")
    if kind not in ("play", "hide"):
        raise LessonError(f"step {step.id}: {{card}} in a question that is about no card")
    return format_html("{}<strong>{}</strong>{}", before, pictures.card_label(card), after)


def why_html(step: Step, why: str) -> SafeString:
    """The reason shown with the feedback. A reason that states the answer writes
    ``{answer}`` where the number goes ("... worth {answer} points"): it is filled from the
    step's own correct(), so the words can never state another number than the engine's.
    The number keeps its sign on a right-to-left page (an isolated left-to-right run)."""
    before, placeholder, after = why.partition("{answer}")
    if not placeholder:
        return format_html("{}", why)
    right = step.correct()
    if len(right) != 1:
        raise LessonError(f"step {step.id}: {{answer}} in a reason with {len(right)} answers")
    (value,) = right
    if "{answer}" in after:
        raise LessonError(f"step {step.id}: {{answer}} twice in a reason")
    return format_html('{}<bdi dir="ltr">{}</bdi>{}', before, value, after)


def _hand(cards: list[str]) -> list[dict[str, str]]:
    return [
        {"card": c, "label": pictures.card_label(c), "svg": mark_safe(pictures.card_svg(c))}
        for c in cards
    ]


def _trick_lines(cards: list[dict[str, Any]], me: int) -> list[str]:
    return [
        _("%(seat)s: %(card)s")
        % {"seat": labels.seat_label(c["seat"], me), "card": pictures.card_label(c["card"])}
        for c in cards
    ]


def present_step(step: Step) -> dict[str, Any]:
    ctx = step.context()
    me = ctx.get("me", 0)
    out: dict[str, Any] = {"id": step.id, "widget": step.widget, "game": step.game}
    options = []
    for o in step.options():
        item = {"value": o.value, "label": labels.option_label(o, me), "kind": o.kind}
        if o.kind == "card":
            item["svg"] = mark_safe(pictures.card_svg(o.data))
        options.append(item)
    out["options"] = options
    view = ctx.get("view")
    if view is not None:
        trump = view.get("trump")
        out["trump"] = pictures.suit_name(trump) if trump else None
        out["trump_known"] = trump is not None
        if isinstance(step, TrumpSuit):
            out["trump_known"] = None  # the question itself: say nothing
        out["me"] = labels.seat_label(me, me)
        shown = []
        if view.get("thirteenth_card"):
            shown.append(
                _("The thirteenth card, turned up: %(card)s")
                % {"card": pictures.card_label(view["thirteenth_card"])}
            )
        if view.get("turned_card"):
            shown.append(
                _("The card turned up from the pack: %(card)s")
                % {"card": pictures.card_label(view["turned_card"])}
            )
        hidden = view.get("hidden") or {}
        if hidden.get("card") and hidden.get("revealed"):
            shown.append(
                _("The hidden card, now face up: %(card)s")
                % {"card": pictures.card_label(hidden["card"])}
            )
        elif hidden.get("card"):
            shown.append(
                _("Your face-down card: %(card)s") % {"card": pictures.card_label(hidden["card"])}
            )
        elif hidden.get("placed"):
            shown.append(_("A card lies face down; only the caller knows it."))
        out["shown"] = shown
        if step.widget != "cards":
            out["hand"] = _hand(view["hand"])
        trick = view["trick"]
        if "last_trick" in ctx:
            trick = ctx["last_trick"]["cards"]
            out["trick_svg"] = mark_safe(pictures.trick_svg(trick, me, None, trump))
        elif trick:
            out["trick_svg"] = mark_safe(pictures.trick_svg(trick, me, None, trump))
        out["trick_lines"] = _trick_lines(trick, me)
        if view.get("bids"):
            out["bids"] = [
                _("%(seat)s: %(bid)s")
                % {"seat": labels.seat_label(b["seat"], me), "bid": cp_words.bid_heard(b["bid"])}
                for b in view["bids"]
            ]
        if view.get("completed_tricks") and "last_trick" not in ctx and step.widget != "cards":
            out["played"] = [
                {
                    "number": n + 1,
                    "lines": _trick_lines(t["cards"], me),
                    "winner": labels.seat_label(t["winner"], me),
                    "cards": _hand([c["card"] for c in t["cards"]]),
                }
                for n, t in enumerate(view["completed_tricks"])
            ]
        outcome = ctx.get("outcome")
        if outcome:
            out["outcome"] = {
                "mine": outcome["tricks"][me % 2],
                "theirs": outcome["tricks"][1 - me % 2],
                "caller": labels.seat_label(outcome["caller"], me)
                if outcome.get("caller") is not None
                else None,
            }
        elif ctx.get("measure") in ("pile", "collected"):
            out["pile"] = {
                "pile": view["pile"],
                "mine": view["tricks_taken"][me % 2],
                "theirs": view["tricks_taken"][1 - me % 2],
            }
    if "tricks" in ctx:  # a finished trick list (renege): every card is a button
        trump = ctx.get("trump")
        out["trump"] = pictures.suit_name(trump) if trump else None
        out["trump_known"] = trump is not None
        by_value = {o["value"]: o for o in options}
        out["tricks"] = [
            {
                "number": trick[0][0] + 1,
                "cards": [
                    {
                        **by_value[f"{n}:{s}:{c}"],
                        "who": labels.seat_label(s, 0),
                        "label": _("Trick %(n)s, %(seat)s: %(card)s")
                        % {
                            "n": n + 1,
                            "seat": labels.seat_label(s, 0),
                            "card": pictures.card_label(c),
                        },
                    }
                    for n, s, c in trick
                ],
            }
            for trick in ctx["tricks"]
        ]
    if "board" in ctx:
        dice = ctx.get("dice")
        out["dice"] = list(dice) if dice and step.widget != "number" else None
        if isinstance(step, BgMove) and dice:
            # The board itself is the question (drawn in _question.html): no second
            # picture of it. Without JavaScript, one chooser per die (four for a double)
            # offers the points the learner has a checker on.
            out["move_board"] = move_board(step)
            points = [
                {"value": str(p), "label": _("bar") if p == 25 else str(p)}
                for p in step.offered()
            ]
            required = step.uses_every_die()
            out["move_dice"] = [
                {"n": i + 1, "die": d, "points": points, "required": required}
                for i, d in enumerate(step.dice_to_play)
            ]
        else:
            out["board_svg"] = mark_safe(pictures.board_svg(ctx["board"], _("The board")))
        out["cube"] = ctx["cube"]["value"]
    return out


def move_board(
    step: BgMove, steps: Sequence[Sequence[int]] = (), answer: str | None = None
) -> SafeString:
    """The live tables' board for a move step (game.backgammon.board.render_board): interactive,
    with the steps made so far (``steps``: [src, dst] or [src, dst, die] each, as the
    board sends them; a step that is part of no legal play raises bg.IllegalMove); or,
    once ``answer`` is right, the position after that play, to look at. The home board
    sits where the tables put it by default for the page's language."""
    home = bgrender.default_home(translation.get_language())
    if answer is not None:
        after = bg.Game(bg.Rules(), dice=[(1, 2)], position=step.after(answer)).view(0)
        return bgboard.render_board(after, home=home, counts=False)
    rolled = step.state.apply("roll") if step.state.view(0)["phase"] == "roll" else step.state
    view = rolled.view(0)
    turn = Turn(step.pos, list(view["dice"]), steps)
    # No pip counts on a lesson's board (a later step asks for the count) and no cube.
    return bgboard.render_board(view, turn, home=home, counts=False)
