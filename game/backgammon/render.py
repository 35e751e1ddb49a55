"""The live backgammon table as HTML, from one docs/TABLE_PROTOCOL.md "state" payload
(``BACKGAMMON.pages.frame_html``; the socket, the table page and the consumer are the
tables' own). The frame carries: the board (``game.backgammon.board.render_board``)
drawn twice, home board right and home board left, of which the page shows the one its
player chose (a profile setting; CSS hides the other, so the socket needs to know nothing
about the user); the dice, cube, pip counts and match score are on and around the board;
the cube and resignation actions are small ``ws-send`` forms as at the card table.

While the viewer moves, the board is interactive: ``board.js`` raises ``bg:step`` and
``bgtable.js`` asks ``game.backgammon.views.board_partial`` to draw the partial turn. The
only client state is the list of steps made so far (``data-steps``: codes of points and dice).
A view holds no secret but the future dice and the unrevealed seeds, and neither is read
here: only the board, the dice on it, the cube, the score and the revealed seeds.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.backgammon import board as bgboard
from game.backgammon import telling
from game.backgammon.moves import Turn
from game.backgammon.words import action_label, how_word, kind_word, level_text
from game.engine import backgammon as bg
from game.tables.html import deadline
from game.tables.words import empty, left_name, mention

HOMES = ("right", "left")


def default_home(lang: str) -> str:
    """Where the home board sits when a player has not chosen: left on Urdu pages (the
    eye starts on the right), right otherwise."""
    return "left" if lang == "ur" else "right"


def seat_names(payload: dict[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for s in payload.get("seats") or []:
        seat = int(s.get("seat", 0))
        if s.get("bot") and s.get("left"):
            names[seat] = left_name(str(s["left"]))
        elif s.get("bot"):
            names[seat] = _("GNU Backgammon (bot)")
        elif s.get("player"):
            names[seat] = str(s["player"])
        else:
            names[seat] = _("Empty seat")
    return names


def seat_offers(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``GamePages.seat_offers``: each seat by its checkers' colour, with whom it plays
    against, for someone choosing where to sit."""
    by_seat = {int(r["seat"]): r for r in rows}
    return [
        {
            "seat": seat,
            "name": _("Light") if seat == 0 else _("Dark"),
            "text": _("no opponent yet")
            if empty(by_seat.get(1 - seat))
            else _("against %(who)s") % {"who": mention(by_seat.get(1 - seat))},
        }
        for seat in sorted(by_seat)
    ]


def who(seat: int, me: int | None, names: dict[int, str]) -> str:
    if me is not None and seat == me:
        return _("You")
    return names.get(seat, _("Light") if seat == 0 else _("Dark"))


def turn_of(view: dict[str, Any], steps: Any = ()) -> Turn:
    """The planner for the viewer's move from the CURRENT view (StepError, ValueError or
    TypeError for steps that are not part of a legal play)."""
    pos = bg.Position.from_id(str(view["position_id"]))
    return Turn(pos, list(view["dice"]), steps)


def boards(view: dict[str, Any], turn: Turn | None, announce: str | None = None) -> SafeString:
    """Both drawings of the board, one per home side; the page shows the player's."""
    parts = [
        f'<div class="bg-home bg-home-{home}">'
        f"{bgboard.render_board(view, turn, home=home, announce=announce)}</div>"
        for home in HOMES
    ]
    return mark_safe("".join(parts))  # render_board's output is autoescaped


def _status(
    view: dict[str, Any],
    me: int | None,
    to_move: int | None,
    names: dict[int, str],
    legal: list[str] | tuple[str, ...] = (),
) -> str:
    phase = view.get("phase")
    if to_move is None:
        return ""
    mine = me is not None and to_move == me
    name = who(to_move, me, names)
    if phase == "roll":
        if not mine:
            return _("%(who)s to roll.") % {"who": name}
        # Offer the double only when it is there to take: after the opponent took the
        # cube it is theirs, and "roll or double" with no Double button misleads. What
        # just happened to the cube is said first, then what to do.
        doing = (
            _("Your turn: roll or double.")
            if "double" in legal
            else _("Your turn: roll the dice.")
        )
        history = view.get("history") or []
        if history and not view.get("dice") and int(history[-1][0]) != me:
            said = telling.cube_sentence(view, int(history[-1][0]), str(history[-1][1]))
            if said:
                return f"{said} {doing}"
        return doing
    if phase == "move":
        return (
            _("Your move: pick a checker, then where it goes.")
            if mine
            else _("%(who)s is moving.") % {"who": name}
        )
    if phase == "doubled":
        return (
            _("You have been doubled: take or drop.")
            if mine
            else _("%(who)s is deciding on the double.") % {"who": name}
        )
    if phase == "resign":
        return (
            _("Your opponent offers to resign: accept or reject.")
            if mine
            else _("%(who)s is deciding on the resignation.") % {"who": name}
        )
    return ""


def result_of(
    view: dict[str, Any], me: int | None, names: dict[int, str]
) -> dict[str, Any] | None:
    result = view.get("result")
    if not result:
        return None
    winner = int(result["winner"])
    values = {
        "who": who(winner, me, names),
        "points": result["points"],
        "kind": kind_word(str(result["kind"])),
        "how": how_word(str(result["how"])),
    }
    return {
        "we_won": me is not None and winner == me,
        "text": ngettext(
            "%(who)s won %(kind)s %(how)s: %(points)s point.",
            "%(who)s won %(kind)s %(how)s: %(points)s points.",
            int(result["points"]),
        )
        % values,
    }


def _cube_text(view: dict[str, Any], me: int | None, names: dict[int, str]) -> str:
    cube = view.get("cube") or {}
    if not cube.get("enabled", True):
        return _("No doubling cube at this table.")
    owner = cube.get("owner")
    value = cube.get("value", 1)
    if owner is None:
        return _("Cube at %(value)s, in the middle.") % {"value": value}
    return _("Cube at %(value)s, owned by %(who)s.") % {
        "value": value,
        "who": who(int(owner), me, names),
    }


def stakes_text(view: dict[str, Any]) -> str:
    """What Take and Drop each mean in points (BG-11): a take plays on at twice the cube,
    a drop loses the cube's value now (a beaver is its own button and says itself)."""
    value = int((view.get("cube") or {}).get("value", 1))
    take = ngettext(
        "Take: play on for %(n)s point.", "Take: play on for %(n)s points.", 2 * value
    ) % {"n": 2 * value}
    drop = ngettext(
        "Drop: lose %(m)s point now.", "Drop: lose %(m)s points now.", value
    ) % {"m": value}
    return f"{take} {drop}"


def bg_context(payload: dict[str, Any], partial: Turn | None = None) -> dict[str, Any]:
    """The frame's context; with ``partial`` (the viewer's steps so far) the status and
    the pips are those of the board drawn with the steps."""
    view: dict[str, Any] = payload.get("view") or {}
    table: dict[str, Any] = payload.get("table") or {}
    me = payload.get("seat")
    to_move = payload.get("to_move")
    legal = [str(a) for a in payload.get("legal") or []]
    version = payload.get("version", 0)
    names = seat_names(payload)
    phase = view.get("phase")
    my_turn = me is not None and to_move == me
    moves = [a for a in legal if a.startswith("move:")]
    turn = partial
    if turn is None and my_turn and phase == "move" and moves and view.get("dice"):
        turn = turn_of(view)
    cube_actions = [a for a in legal if a in ("roll", "double", "take", "drop", "beaver")]
    answers = [a for a in legal if a in ("accept", "reject")]
    resigns = [a for a in legal if a.startswith("resign:")]

    def form(action: str) -> dict[str, Any]:
        return {"action": action, "label": action_label(action)}

    offered = view.get("resign_offered")
    fairness = view.get("fairness") or {}
    match = view.get("match") or {}
    finished = len(match.get("games") or []) if match else int(bool(view.get("result")))
    pips = (view.get("board") or {}).get("pips") or [0, 0]
    if partial is not None:
        pips = list(bgboard.turn_pips(partial))
    score = list(view.get("score") or [0, 0])
    viewer = me if me is not None else 0
    players = [
        {
            "seat": s,
            "name": who(s, me, names),
            "colour": _("light") if s == 0 else _("dark"),
            "pips": pips[0] if s == viewer else pips[1],
            "score": score[s] if len(score) > s else 0,
            "to_move": s == to_move,
        }
        for s in ((viewer, 1 - viewer))
    ]
    result = result_of(view, me, names)
    # A match's last finished game, while the next one is played (the frame carries only
    # the game on the board; the match lists every result).
    last_game = None
    games = list(match.get("games") or [])
    if games and not result:
        last = result_of({"result": games[-1]}, me, names)
        if last is not None:
            last_game = {**last, "number": len(games)}
    match_over = None
    if match.get("is_over"):
        w = match.get("winner")
        match_over = {
            "we_won": me is not None and w == me,
            "text": _("%(who)s won the match.") % {"who": who(int(w), me, names)}
            if w is not None
            else "",
        }
    # A double is said by the board's own sentence ("You double.", "Your opponent
    # doubles."), as the board's live region says it: never the play before it again.
    announce = telling.announcement(view)
    if phase == "resign" and offered:
        announce = _("%(who)s offers to resign %(kind)s.") % {
            "who": who(1 - int(to_move or 0), me, names),
            "kind": kind_word({1: "single", 2: "gammon", 3: "backgammon"}.get(int(offered), "")),
        }
    elif result:
        announce = result["text"]
    return {
        "game": "backgammon",
        "table_id": table.get("id"),
        "version": version,
        "seat": me,
        "phase": phase,
        # The bot's level, where a seat is the bot (the table's option).
        "bot_level": level_text(table.get("options") or {})
        if any(s.get("bot") for s in payload.get("seats") or [])
        else "",
        "to_move": to_move,
        "my_turn": my_turn,
        "status": telling.turn_status(partial)
        if partial is not None
        else _status(view, me, to_move, names, legal),
        "status_code": table.get("status") or "",
        "waiting": not view,
        "boards": boards(view, turn) if view else "",
        "players": players,
        "cube_text": _cube_text(view, me, names) if view else "",
        "length": view.get("length") or 0,
        "crawford": bool(view.get("crawford_game")),
        "cube_actions": [form(a) for a in cube_actions],
        "stakes": stakes_text(view) if my_turn and "take" in cube_actions else "",
        "answers": [form(a) for a in answers],
        "resigns": [
            {**form(a), "confirm": _("Yes, resign: %(what)s") % {"what": action_label(a)}}
            for a in resigns
        ],
        "offered": kind_word({1: "single", 2: "gammon", 3: "backgammon"}.get(int(offered), ""))
        if offered
        else "",
        # One legal play (forced): it may be played in one click.
        "forced": form(moves[0]) if len(moves) == 1 else None,
        "result": result,
        "last_game": last_game,
        "match_over": match_over,
        "finished": range(1, finished + 1) if table.get("id") else range(0),
        "commitment": fairness.get("commitment"),
        "announce": announce,
        "deadline": payload.get("deadline"),
    }


def frame_html(payload: dict[str, Any], oob: bool) -> str:
    """The HTML of one state frame (``BACKGAMMON.pages.frame_html``)."""
    context = {**bg_context(payload), "oob": oob, "deadline": deadline(payload)}
    return render_to_string("backgammon/partials/frame.html", context)


def turn_html(payload: dict[str, Any], turn: Turn) -> str:
    """The answer to one step or undo (``game.backgammon.views.board_partial``): both
    boards for the slot, and the table bar's status and the players' pips out of band,
    so the page says one thing ("Move complete…", the new pips) above the board and
    below it."""
    context = {**bg_context(payload, partial=turn), "oob": True}
    return (
        str(context["boards"])
        + render_to_string("backgammon/partials/status.html", context)
        + render_to_string("backgammon/partials/players.html", context)
    )


def board_error_html(text: str) -> str:
    return f'<p class="error" role="alert">{escape(text)}</p>'
