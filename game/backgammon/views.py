"""Backgammon's own pages: a new table, the board of a turn being moved (htmx, step by
step), a finished game's replay move by move with the check of its dice, and its .mat
file for GNU Backgammon or eXtreme Gammon."""

from __future__ import annotations

import dataclasses
import json
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from game.backgammon import render as bgrender
from game.backgammon import steps as bgsteps
from game.backgammon.forms import BgTableForm
from game.backgammon.words import action_label, describe_play, level_text, yes_no
from game.engine import backgammon as bg
from game.engine import fair
from game.models import Table
from game.tables import access, botlevel, frames, records, registry
from game.tables.errors import TableError
from game.tables.pages import (
    create_from_form,
    error_page,
    finished_record,
    is_guest,
    readable_table,
    table_url,
)
from game.tables.store import replay
from game.tables.words import error_text


def options_text(variant: str, options: dict[str, Any], length: int) -> list[str]:
    """A table's house rules in a few words, for the lobby."""
    words = [
        ngettext("Match to %(n)s point", "Match to %(n)s points", length) % {"n": length}
        if length
        else _("Money game"),
        _("Cube") + ": " + yes_no(bool(options.get("cube", True))),
    ]
    level = level_text(options)
    return [*words, level] if level else words


def table_context(request: HttpRequest, lang: str) -> dict[str, Any]:
    """The table page's side of the home board (its template's ``bg_home``)."""
    return {"bg_home": _home(request, lang)}


def _home(request: HttpRequest, lang: str) -> str:
    """The side of the player's home board: their profile's choice, else by language."""
    user = request.user
    profile = getattr(user, "profile", None) if user.is_authenticated else None
    chosen = getattr(profile, "board_home", "") if profile is not None else ""
    return chosen if chosen in bgrender.HOMES else bgrender.default_home(lang)


@require_GET
def board_partial(request: HttpRequest, table_id: int) -> HttpResponse:
    """The board of the viewer's turn after the steps made so far (htmx, from the
    package's ``static/js/bgtable.js``): ``steps`` is ``src,dst,die;src,dst,die…``,
    ``version`` the frame's. The planner is built from the table's CURRENT state, so a
    step that is not part of a legal play, a stale frame or a seat not on roll gets an
    error (status 409 or 422, drawn into the page's error line) and the board stays as
    it was."""
    table = get_object_or_404(Table, pk=table_id)
    if table.game != "backgammon":
        raise Http404("not a backgammon table")
    owner = access.owner_from_request(request)
    if not access.may_see(table, owner, request.GET.get("invite")):
        raise Http404("no such table")  # a private table: not admitted to exist
    seat = access.seat_of(table, owner)

    def refuse(code: str, status: int, text: str | None = None) -> HttpResponse:
        html = bgrender.board_error_html(text or error_text(code))
        return HttpResponse(html, status=status)

    if seat is None:
        return refuse("not_seated", 403)
    payload = frames.state_payload(table.pk, seat)
    if str(payload.get("version")) != request.GET.get("version", ""):
        return refuse("stale", 409)
    view = payload.get("view") or {}
    if payload.get("to_move") != seat or view.get("phase") != "move" or not view.get("dice"):
        return refuse("not_your_turn", 409)
    raw = request.GET.get("steps", "")
    try:
        steps = [[int(x) for x in part.split(",")] for part in raw.split(";") if part]
        if len(steps) > 8 or any(len(step) not in (2, 3) for step in steps):
            raise ValueError("a step is src,dst or src,dst,die; a turn has at most 8")
        turn = bgrender.turn_of(view, steps)
    except (ValueError, TypeError, bg.IllegalMove):
        return refuse("illegal", 422, _("That checker cannot go there: choose another step."))
    return HttpResponse(bgrender.turn_html(payload, turn))


def new_table(request: HttpRequest) -> HttpResponse:
    """Create a backgammon table: money game or match, the house rules the engine has,
    the bot and its level (``game.backgammon.spec`` checks them again)."""
    levels = botlevel.choices(request, "backgammon")
    chosen = next((level["value"] for level in levels if level["selected"]), None)
    form = BgTableForm(request.POST or None, initial={"bot_level": chosen} if chosen else None)
    if request.method == "POST" and form.is_valid():
        made = create_from_form(
            request, form, game="backgammon", length=form.cleaned_data["length"]
        )
        if made is not None:
            return made
    return render(
        request,
        "backgammon/new_table.html",
        {"form": form, "guest": is_guest(request), "bot_levels": {"backgammon": levels}},
    )


BG_VERIFY_SNIPPET = """import hashlib, hmac

server_seed = "{seed}"
client_seeds = {clients}
commitment = "{commitment}"
game = {counter}  # games of the table counted from 0
shown = {dice}

# 1. The seed is in the chain the table committed to before the first roll.
s = server_seed
for _ in range(game + 1):
    s = hashlib.sha256(s.encode()).hexdigest()
print("commitment matches:", s == commitment)

# 2. Throw n of the game is HMAC-SHA256(seed, "dice:n:<client seeds>:<block>"), read as
#    32-bit numbers, each below the largest multiple of 6 taken modulo 6, plus one.
def throw(n):
    msg, block = f"dice:{{n}}:" + ":".join(client_seeds), 0
    faces = []
    while len(faces) < 2:
        key, data = server_seed.encode(), f"{{msg}}:{{block}}".encode()
        digest = hmac.new(key, data, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            x = int.from_bytes(digest[i:i + 4], "big")
            if x < (2**32 // 6) * 6 and len(faces) < 2:
                faces.append(x % 6 + 1)
        block += 1
    return faces

print("dice match:", [throw(n) for n in range(len(shown))] == shown)
"""


def game_steps(game: bg.Game) -> list[dict[str, Any]]:
    """The game move by move: each action with the Position ID (GNU Backgammon's, seen
    from the player on roll) of the board it leaves, replayed through the engine."""
    pos = bg.Position.nackgammon() if game.rules.start == "nackgammon" else bg.Position.start()
    rolls = list(game.rolls)
    roll_index = 0
    dice: tuple[int, int] | None = tuple(rolls[0][1]) if rolls else None  # type: ignore[assignment]
    out: list[dict[str, Any]] = [
        {"seat": None, "action": "", "text": _("Starting position"), "position_id": pos.to_id()}
    ]
    if dice:
        out[0]["dice"] = f"{dice[0]}-{dice[1]}"
    history = list(game.history)
    for index, (seat, action) in enumerate(history):
        row: dict[str, Any] = {"seat": seat, "action": action}
        if action == "roll":
            roll_index += 1
            dice = tuple(rolls[roll_index][1]) if roll_index < len(rolls) else None  # type: ignore[assignment]
            row["text"] = action_label("roll")
            if dice:
                row["dice"] = f"{dice[0]}-{dice[1]}"
            following = history[index + 1] if index + 1 < len(history) else None
            if following is not None and following[0] != seat:
                # A roll with no legal play: the engine passes the turn without a move,
                # so the board is now seen from the other player, who rolls next.
                pos = pos.swapped()
                row["text"] = f"{row['text']} · {_('No legal move')}"
        elif action.startswith("move:"):
            pos = bg.apply(pos, action[5:], dice)
            row["text"] = describe_play(action[5:]) if action[5:] else _("No legal move")
        else:
            row["text"] = action_label(action)
        row["position_id"] = pos.to_id()
        out.append(row)
    return out


CUBE_ROWS = {"roll": "no_double", "double": "double", "take": "take", "beaver": "take",
             "drop": "pass"}


def replay_page(
    request: HttpRequest, table: Table, hand: int, seat: int | None, invite: str
) -> HttpResponse:
    try:
        record = finished_record(table, hand)
    except TableError as error:
        return error_page(request, error)
    game = registry.spec(table.game).finished(replay.load(table))[hand - 1]
    names = bgrender.seat_names({"seats": frames.state_payload(table.pk, None)["seats"]})
    steps = game_steps(game)
    number = 0
    for row in steps:
        row["who"] = bgrender.who(row["seat"], seat, names) if row["seat"] is not None else ""
        if str(row["action"]).startswith("move:"):
            number += 1
            row["move"] = number
        elif row["action"] in CUBE_ROWS:
            # the analysis' cube entry this row may carry: checker plays before it, seat,
            # decision (a roll is a "no double" when doubling was legal)
            row["cube"] = f"{number}:{row['seat']}:{CUBE_ROWS[row['action']]}"
    dice = [list(d) for d in record["dice"]]
    recomputed = [
        list(fair.dice(record["server_seed"], record["client_seeds"], n)) for n in range(len(dice))
    ]
    result = game.result
    query = {"hand": hand, "lang": get_language()}
    if invite:
        query["invite"] = invite
    context = {
        "table": table,
        "hand": hand,
        "steps": steps,
        "result": bgrender.result_of({"result": dataclasses.asdict(result)}, seat, names)
        if result is not None
        else None,
        "record": record,
        "dice": [f"{a}-{b}" for a, b in dice],
        "clients_json": json.dumps(list(record["client_seeds"])),
        "chain_ok": records.seed_is_committed(
            record["server_seed"], record["commitment"], record["counter"]
        ),
        "dice_ok": recomputed == dice,
        "snippet": BG_VERIFY_SNIPPET.format(
            seed=record["server_seed"],
            clients=repr(list(record["client_seeds"])),
            commitment=record["commitment"],
            counter=record["counter"],
            dice=repr(dice),
        ),
        "mat": bool(record.get("mat")),
        "table_url": table_url(table, invite or None),
        "boards": bgsteps.boards(game, seat, names, _home(request, get_language())),
        "stepper": {
            "words": bgsteps.words(),
            "players": [bgrender.who(s, seat, names) for s in (0, 1)],
        },
        "analysis_url": reverse("api_analysis", args=[table.pk]) + "?" + urlencode(query),
        # the viewer's own mistakes as puzzles (tutorials.mistakes): for a seat's player only
        "mistakes_url": reverse("tutorials:own_hand", args=[table.pk, hand])
        if seat is not None
        else "",
    }
    return render(request, "backgammon/replay.html", context)


@require_GET
def mat_file(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """Games 1..hand of a backgammon table as a Jellyfish .mat file, for GNU Backgammon
    or eXtreme Gammon (404 until that game is over, or where .mat cannot say it)."""
    table = readable_table(request, table_id, game="backgammon")
    try:
        record = finished_record(table, hand)
    except TableError as error:
        return error_page(request, error)
    if not record.get("mat"):
        raise Http404("this game has no .mat form (a Nackgammon start)")
    response = HttpResponse(record["mat"], content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="baithak-{table.pk}-{hand}.mat"'
    return response
