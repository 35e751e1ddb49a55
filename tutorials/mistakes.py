"""Learn from your mistakes: a finished hand's (or backgammon game's) own mistakes of one
player, made into puzzles.

A mistake is read from the hand's stored analysis (game.tables.analysis): in Court Piece
the knowable verdict on the player's own card (game.courtpiece.knowable) when another
card was worth at least ``MIN_TRICKS`` more on average; in backgammon a checker play or
a cube decision of the player's that lost more than ``game.backgammon.analysis.ERROR``
equity ("double or not?", "take or drop?"), in the order they were made. Only the
asker's own seat is ever judged or shown: the position is rebuilt by playing the hand
again from the deal and then read through ``view(seat)`` at that moment, so it holds that
seat's cards, the trick so far and what everyone may see, never another seat's cards.

An answer is checked first by the engine (is it legal there?), then by the analysis: one
of the better cards, or the best play or a play within ``ERROR`` of it (judged by GNU
Backgammon at the analysis' 2-ply in the worker processes); a cube puzzle by the right
cube action the analysis found.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game.backgammon import analysis as bg_analysis
from game.backgammon import bot as bg_bot
from game.backgammon.words import action_label
from game.courtpiece import steps as cp_steps
from game.engine import backgammon as bg
from game.models import Table
from game.tables import access, analysis, registry
from game.tables.errors import TableError
from game.tables.store import replay
from tutorials import pictures

MIN_TRICKS = 1.0  # a card is a mistake when a better one was worth this much more
ERROR = bg_analysis.ERROR  # a checker play is a mistake when it lost more equity than this
LEVEL = 2  # plies: the analysis' own level, for an answer it did not judge


@dataclass(frozen=True)
class Mistake:
    """One puzzle: the decision as ``seat`` faced it (``state`` only lends its
    ``view(seat)``) and what the analysis said of it (``judged``)."""

    table_id: int
    hand: int
    number: int  # 1-based among this hand's puzzles
    game: str
    seat: int
    judged: dict[str, Any]
    state: Any

    @property
    def key(self) -> str:
        return f"{self.table_id}:{self.hand}:{self.number}"

    def view(self) -> dict[str, Any]:
        return dict(self.state.view(self.seat))

    @property
    def is_cube(self) -> bool:
        """A cube decision's puzzle (double or not; take or drop), not a checker play's."""
        return "action" in self.judged

    def cube_choices(self) -> tuple[str, str]:
        """The two answers of a cube puzzle, as the analysis names them."""
        if self.judged["action"] in ("double", "no_double"):
            return ("double", "no_double")
        return ("take", "pass")


@dataclass(frozen=True)
class Checked:
    """The answer's fate: ``right``, ``worse`` (legal, not good enough: a try),
    ``illegal`` (the rules refuse it: nothing changes) or ``invalid`` (not an answer)."""

    state: str
    message: str


def hand_mistakes(
    table: Table, hand: int, owner: access.Owner, invite: str = "", stored_only: bool = False
) -> list[Mistake]:
    """``owner``'s mistakes in finished hand ``hand`` of ``table`` (computing and storing
    the analysis if it was not yet; ``stored_only``: never, analysis.Computing instead:
    the views await the analysis first, so no request thread waits on it). Not found
    (TableError): no seat of ``owner``'s at the table, or a hand not over. The solvers may
    raise (a backgammon worker down)."""
    seat = access.seat_of(table, owner)
    if seat is None:
        raise TableError("not_found", "you did not play at this table")
    read = analysis.stored_now if stored_only else analysis.analysis
    if table.game == "courtpiece":
        data = read(table.pk, hand, owner, invite, knowable=True)
        judged = [c for c in data["cards"] if c["seat"] == seat and c["loss"] >= MIN_TRICKS]
    elif table.game == "backgammon":
        data = read(table.pk, hand, owner, invite)
        judged = [
            m for m in data.get("moves", []) if m["seat"] == seat and m["equity_loss"] > ERROR
        ] + [c for c in data.get("cube", []) if c["seat"] == seat and c["equity_loss"] > ERROR]
        # in the order they were made: a cube decision after move k comes before move k + 1
        judged.sort(key=lambda e: (e["move"], "action" in e))
    else:
        return []
    if not judged:
        return []
    finished = registry.spec(table.game).finished(replay.load(table))[hand - 1]
    states = _cp_states(finished, seat) if table.game == "courtpiece" else _bg_states(finished)
    out = []
    for number, entry in enumerate(judged, start=1):
        at = entry["card"] if table.game == "courtpiece" else entry["move"]
        if "action" in entry:  # a cube decision: the game as the decider saw it
            at = (entry["move"], entry["seat"], entry["action"] in ("double", "no_double"))
        out.append(Mistake(table.pk, hand, number, table.game, seat, entry, states[at]))
    return out


def _cp_states(finished: Any, seat: int) -> dict[Any, Any]:
    """Each card ``seat`` played -> the hand as it stood when it was played."""
    return {
        action[5:]: state
        for actor, action, state in cp_steps.states(finished)
        if actor == seat and action.startswith("play:")
    }


def _bg_states(game: bg.Game) -> dict[Any, Any]:
    """Each checker play's number (as the analysis counts them) -> the game before it;
    each cube decision's (checker plays before it, seat, whether it was the doubler's)
    -> the game as that seat decided: before the roll, or with the double offered."""
    state = bg_analysis.start_of(game)
    out: dict[Any, Any] = {}
    number = 0
    for seat, action in game.history:
        if action.startswith("move:"):
            number += 1
            out[number] = state
        elif action in ("roll", "double") and state.phase == "roll":
            out[(number, seat, True)] = state
        elif action in ("take", "beaver", "drop"):
            out[(number, seat, False)] = state
        state = state.apply(action, seat)
    return out


def _n(value: float | Decimal, places: int) -> str:
    return str(number_format(value, places))


def tenths(value: float) -> Decimal:
    """``value`` to one decimal place, halves up (6.45 -> 6.5), as the replay's script
    rounds (static/js/replay.js ``tenths``): both say the same numbers."""
    return Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def tricks_shown(judged: dict[str, Any]) -> tuple[Decimal, Decimal, Decimal]:
    """A card's worth, the best card's worth and what it cost, as shown: the cost is the
    difference of the two worths shown, so "worth 6.5 ... 5.2" never says "cost 1.2" (the
    unrounded cost, 1.22) beside a replay saying 1.3."""
    best, played = tenths(judged["best"]), tenths(judged["played"])
    return best, played, best - played


def explanation(m: Mistake) -> str:
    """What the analysis said of the mistake, in the active language."""
    j = m.judged
    if m.game == "courtpiece":
        better = ", ".join(pictures.card_label(c) for c in j["better"])
        best, played, loss = tricks_shown(j)
        return ngettext(
            "From what you could know then, %(better)s was worth %(best)s tricks on average, "
            "and the card you played, %(card)s, %(played)s: it cost %(loss)s tricks.",
            "From what you could know then, %(better)s were each worth %(best)s tricks on "
            "average, and the card you played, %(card)s, %(played)s: it cost %(loss)s tricks.",
            len(j["better"]),
        ) % {
            "better": better,
            "best": _n(best, 1),
            "card": pictures.card_label(j["card"]),
            "played": _n(played, 1),
            "loss": _n(loss, 1),
        }
    if m.is_cube:
        e = j["equities"]
        return _(
            "GNU Backgammon's equities for the doubler: no double %(nd)s, double and take "
            "%(dt)s, double and drop %(dp)s. Right: %(best)s; yours, %(action)s, lost "
            "%(loss)s of a game in equity."
        ) % {
            "nd": _n(e["no_double"], 3), "dt": _n(e["double_take"], 3),
            "dp": _n(e["double_pass"], 3), "best": cube_word(j["best"]),
            "action": cube_word(j["action"]), "loss": _n(j["equity_loss"], 3),
        }
    return _(
        "The best play was %(best)s. Yours, %(played)s, lost %(loss)s of a game in equity."
    ) % {"best": j["best"], "played": j["played"], "loss": _n(j["equity_loss"], 3)}


def cube_word(action: str) -> str:
    """A cube action's name on the page (the analysis' "pass" is the site's "Drop")."""
    return {
        "double": action_label("double"),
        "no_double": pgettext("cube", "No double"),
        "take": action_label("take"),
        "pass": action_label("drop"),
    }[action]


def check(m: Mistake, answer: str) -> Checked:
    """Judge ``answer`` (a card code, or a play in notation) against the puzzle."""
    if m.game == "courtpiece":
        return _check_card(m, answer)
    if m.is_cube:
        return _check_cube(m, answer)
    return _check_play(m, answer)


def _check_cube(m: Mistake, answer: str) -> Checked:
    if answer not in m.cube_choices():
        return Checked("invalid", _("Choose one of the two answers."))
    if answer == m.judged["best"]:
        return Checked("right", _("Right: that is the right cube decision."))
    return Checked("worse", _("That is what you did: it cost equity. Think again."))


def _check_card(m: Mistake, answer: str) -> Checked:
    view = m.view()
    if answer not in view["hand"]:
        return Checked("invalid", _("Choose one of your own cards."))
    legal = {a[5:] for a in view["legal_actions"] if a.startswith("play:")}
    if answer not in legal:
        trick = view["trick"]
        led = str(trick[0]["card"])[1] if trick else ""
        if led and answer[1] != led and any(c[1] == led for c in view["hand"]):
            return Checked(
                "illegal",
                _("You may not play that card: you hold %(suit)s, the suit that was led, "
                  "so you must follow suit.") % {"suit": pictures.suit_name(led)},
            )
        return Checked("illegal", _("The rules do not let you play that card here."))
    j = m.judged
    if answer in j["better"]:
        return Checked("right", _("Right: that is one of the better cards here."))
    if answer == j["card"]:
        return Checked("worse", _("That is the card you played: look for a better one."))
    return Checked(
        "worse", _("That card is no better than the one you played: try another.")
    )


def legal_plays(m: Mistake) -> list[str]:
    """The checker plays the engine allows in the puzzle's position, in notation."""
    return [a[5:] for a in m.view()["legal_actions"] if a.startswith("move:")]


def _after(m: Mistake, play: str) -> bg.Position:
    view = m.view()
    before = bg.Position.from_id(view["position_id"])
    return bg.apply(before, play, (int(view["dice"][0]), int(view["dice"][1])))


def _check_play(m: Mistake, answer: str) -> Checked:
    if not answer or len(answer) > 60:
        return Checked("invalid", _("Choose one of the plays."))
    try:
        after = _after(m, answer)
    except ValueError:  # bg.IllegalMove too: not a play with these dice
        return Checked("illegal", _("That play is not legal with these dice."))
    plays = {_after(m, p): p for p in legal_plays(m)}
    if after not in plays:
        return Checked("illegal", _("That play is not legal with these dice."))
    play = plays[after]
    j = m.judged
    if play == j["best"]:
        return Checked("right", _("Right: that is the best play."))
    if play == j["played"]:
        return Checked("worse", _("That is the play you made: look for a better one."))
    best = _after(m, j["best"])
    ours = [-e for e in bg_bot.equities([best.to_id(), after.to_id()], LEVEL)]
    loss = ours[0] - ours[1]
    if loss <= ERROR:
        return Checked(
            "right",
            _("Right: that play is within %(limit)s of the best in equity.")
            % {"limit": _n(ERROR, 2)},
        )
    return Checked(
        "worse",
        _("That play loses %(loss)s of a game in equity against the best: try another.")
        % {"loss": _n(loss, 3)},
    )


def my_hands(owner: access.Owner, limit: int = 20) -> list[dict[str, Any]]:
    """The finished hands and games ``owner`` played, newest table first (at most
    ``limit``): the table, the hand's number and the game."""
    if owner.user is not None:
        seats = Table.objects.filter(seats__user=owner.user)
    elif owner.guest_key:
        seats = Table.objects.filter(seats__guest_key=owner.guest_key)
    else:
        return []
    out: list[dict[str, Any]] = []
    tables = seats.exclude(status=Table.WAITING).distinct().order_by("-pk")[:limit]
    for table in tables:
        if table.game not in ("courtpiece", "backgammon"):
            continue
        count = len(registry.spec(table.game).finished(replay.load(table)))
        for hand in range(count, 0, -1):
            out.append({"table": table, "hand": hand, "game": table.game})
            if len(out) >= limit:
                return out
    return out
