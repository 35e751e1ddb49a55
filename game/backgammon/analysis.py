"""A finished backgammon game's analysis (``BACKGAMMON.analyse``): the protocol's
``"equity"`` form (docs/TABLE_PROTOCOL.md, "Analysis").

Every checker play with a choice is judged by GNU Backgammon in the bot's worker
processes (game.backgammon.bot.equities; gnubg never runs in a server process), with a
move filter as gnubg's own analysis uses one: every legal play at 0-ply, the best
``ONE_PLY`` of them again at 1-ply, and the best ``TWO_PLY`` of those plus the play
actually made at 2-ply. The best play is the best at 2-ply; ``equity_loss`` is its
cubeless equity less the played one's (0 when the best play was made, never negative).
A play that bears off the last checker wins: it is worth its win (1, 2 or 3), not an
evaluation.

Every cube decision with a choice is judged too (``cube_decisions``, ``judge_cube``): the
doubler's "double / no double" before a roll where doubling was legal, and the taker's
"take / pass" (a beaver is judged as the take it also is). GNU Backgammon's own cube
analysis (its ``hint`` before the roll: cubeful equities of no double, double/take and
double/pass, at 2-ply, in the same worker processes; game.backgammon.bot.cube_equities)
decides: the doubler's right action is the better of no double and the worse of
double/take and double/pass for the doubler; the taker's is the better of the two for
the taker. ``equity_loss`` is how much the action made trails the right one (0 for the
right one, never negative), normalised to the cube before the double, as gnubg and XG
report it. As both of them do, a "no double" that is right and far from a double (the
double is worse by more than ``CLOSE``) is no decision: it is left out of the list and
the rating (otherwise every quiet early roll would count as a perfect decision), and so
is one worth exactly what the pass would be (a game won whatever is done).

Blunders lose more than 0.08, errors more than 0.04; each player's performance rating is
XG's: the mean equity lost per non-forced decision (checker plays with a choice and cube
decisions), times 500.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.backgammon import bot
from game.engine import backgammon as bg

LEVEL = "2-ply"
ONE_PLY = 4
TWO_PLY = 2
BLUNDER = 0.08
ERROR = 0.04
CUBE_PLIES = 2
# gnubg's isCloseCubedecision: a cube decision counts when doubling was within this much
# of not doubling (or was right, or was made).
CLOSE = 0.16
FILTER_MARGIN = 0.10  # how far 0-ply may be off 2-ply at a cube decision, and still kept
SAME = 0.0005  # no double worth the pass (a game won whatever happens): nothing to decide


def start_of(game: bg.Game) -> bg.Game:
    """The game at its start, with the same throws (opening ones first)."""
    dice = [tuple(d) for d in game.opening] + [tuple(d) for _seat, d in game.rolls[1:]]
    return bg.Game(
        game.rules, dice=dice, length=game.length, score=game.score,
        crawford_game=game.crawford_game,
    )


def _win(after: bg.Position) -> float | None:
    """Our equity when this play bears off our last checker (None: the game goes on).
    ``after`` is seen from the opponent, who would be on roll."""
    if after.theirs & 15 != 15:
        return None
    level = 1
    theirs_off = after.mine & 15  # `after` is the opponent's: their own borne off
    if theirs_off == 0:
        level = 2  # the opponent has borne off none: a gammon at least
        # ... a backgammon if one is still on the bar or in our home board (their 19-24)
        if any((after.mine >> (4 * slot)) & 15 for slot in range(19, 26)):
            level = 3
    return float(level)


def decisions(game: bg.Game) -> list[dict[str, Any]]:
    """Each checker play with a choice: its number among the game's checker plays, the
    seat, the dice, the play made and every legal play with the position it leaves."""
    state = start_of(game)
    out: list[dict[str, Any]] = []
    number = 0
    for seat, action in game.history:
        if action.startswith("move:"):
            number += 1
            view = state.view(seat)
            moves = [a[5:] for a in view["legal_actions"] if a.startswith("move:")]
            if len(moves) > 1:
                dice = (int(view["dice"][0]), int(view["dice"][1]))
                before = bg.Position.from_id(view["position_id"])
                plays = {str(p): p for p in bg.legal_plays(before, dice)}
                out.append(
                    {
                        "move": number,
                        "seat": seat,
                        "dice": list(dice),
                        "played": action[5:],
                        "afters": {m: plays[m].after for m in moves if m in plays},
                    }
                )
        state = state.apply(action, seat)
    return out


def _ours(ids: list[str], plies: int) -> list[float]:
    return [-e for e in bot.equities(ids, plies)]


def judge(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The equity of the filtered plays at each decision (three batches to the workers:
    0-ply, 1-ply and 2-ply), and each decision's best play and loss."""
    values: list[dict[str, float]] = []
    pending: list[tuple[int, str, str]] = []
    for i, d in enumerate(found):
        values.append({})
        for move, after in d["afters"].items():
            won = _win(after)
            if won is not None:
                values[i][move] = won
            else:
                pending.append((i, move, after.to_id()))
    zero = _ours([p[2] for p in pending], 0)
    ranked: dict[int, list[tuple[float, str, str]]] = {}
    for (i, move, pid), eq in zip(pending, zero, strict=True):
        ranked.setdefault(i, []).append((eq, move, pid))
    one_in = []
    for i, options in ranked.items():
        options.sort(reverse=True)
        one_in += [(i, m, pid) for _eq, m, pid in options[:ONE_PLY]]
    one = _ours([p[2] for p in one_in], 1)
    by_one: dict[int, list[tuple[float, str, str]]] = {}
    for (i, move, pid), eq in zip(one_in, one, strict=True):
        by_one.setdefault(i, []).append((eq, move, pid))
    two_in = []
    for i, options in by_one.items():
        options.sort(reverse=True)
        chosen = {m: pid for _eq, m, pid in options[:TWO_PLY]}
        played = found[i]["played"]
        if played not in chosen and played not in values[i]:
            chosen[played] = found[i]["afters"][played].to_id()
        two_in += [(i, m, pid) for m, pid in chosen.items()]
    two = _ours([p[2] for p in two_in], 2)
    for (i, move, _pid), eq in zip(two_in, two, strict=True):
        values[i][move] = eq
    out = []
    for i, d in enumerate(found):
        judged = values[i]
        best = max(judged, key=lambda m: (judged[m], m == d["played"]))
        loss = max(0.0, judged[best] - judged[d["played"]])
        out.append(
            {
                "move": d["move"],
                "seat": d["seat"],
                "dice": d["dice"],
                "played": d["played"],
                "best": best if loss > 0 else d["played"],
                "equity_loss": round(loss, 4),
            }
        )
    return out


def cube_decisions(game: bg.Game) -> list[dict[str, Any]]:
    """Each point where the player to roll could double (and doubled or rolled), with the
    taker's answer when they doubled: the number of checker plays made before it
    (``move``), the seat, what was done ("double" | "no_double"; "take" | "pass") and
    the GNUbgID of the position (before the roll, seen from the doubler) with the
    table's Jacoby rule."""
    state = start_of(game)
    out: list[dict[str, Any]] = []
    number = 0
    history = list(game.history)
    for index, (seat, action) in enumerate(history):
        if action.startswith("move:"):
            number += 1
        elif action in ("roll", "double") and state.phase == "roll":
            view = state.view(seat)
            if "double" in view["legal_actions"]:
                asked = (f"{view['position_id']}:{view['match_id']}", bool(game.rules.jacoby))
                doubled = action == "double"
                out.append({"move": number, "seat": seat,
                            "action": "double" if doubled else "no_double", "asked": asked})
                answer = history[index + 1] if index + 1 < len(history) else None
                if doubled and answer is not None and answer[1] in ("take", "beaver", "drop"):
                    out.append({"move": number, "seat": answer[0],
                                "action": "pass" if answer[1] == "drop" else "take",
                                "asked": asked})
        state = state.apply(action, seat)
    return out


def judge_cube(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each cube decision's right action and equity loss, from GNU Backgammon's cubeful
    equities at ``CUBE_PLIES`` (two batches to the workers, 0-ply then 2-ply on the
    positions that 0-ply does not put far from a double; a double and its answer share
    their position). Right "no double"s far from a double are left out (``CLOSE``)."""
    asked = list(dict.fromkeys(d["asked"] for d in found))
    # gnubg's way to spend its search where it matters: every position at 0-ply first;
    # a "no double" that 0-ply puts far from a double (``CLOSE`` and a margin) is no
    # decision, and only the others are evaluated again at CUBE_PLIES.
    quick = dict(zip(asked, bot.cube_equities(asked, 0), strict=True))
    chosen = {d["asked"] for d in found if d["action"] != "no_double"}
    for key, value in quick.items():
        if value is not None and value[0] - min(value[1], value[2]) <= CLOSE + FILTER_MARGIN:
            chosen.add(key)
    deep = [key for key in asked if key in chosen]
    values = dict(zip(deep, bot.cube_equities(deep, CUBE_PLIES), strict=True))
    out = []
    for d in found:
        value = values.get(d["asked"])
        if value is None:
            continue  # a "no double" far from any double at 0-ply (no decision), or no answer
        nd, dt, dp = value
        doubled = min(dt, dp)  # the doubler's equity after a double, the taker answering well
        if d["action"] in ("double", "no_double"):
            best = "double" if doubled > nd else "no_double"
            loss = abs(doubled - nd) if d["action"] != best else 0.0
            if d["action"] == "no_double" and best == "no_double" and (
                nd - doubled > CLOSE or abs(nd - dp) < SAME
            ):
                continue  # far from a double, or the game as good as won either way
        else:  # the taker's equity is the doubler's, negated
            best = "take" if dt < dp else "pass"
            loss = abs(dt - dp) if d["action"] != best else 0.0
        if round(loss, 4) == 0:
            best = d["action"]  # a tie: what was done is as right as the other
        out.append(
            {
                "move": d["move"],
                "seat": d["seat"],
                "action": d["action"],
                "best": best,
                "equity_loss": round(loss, 4),
                "equities": {"no_double": nd, "double_take": dt, "double_pass": dp},
            }
        )
    return out


def rating(moves: Sequence[dict[str, Any]], seat: int) -> float | None:
    """XG's performance rating of ``seat``: mean equity lost per non-forced decision
    times 500 (None: no decision). ``moves``: every judged decision, checker plays and
    cube decisions alike."""
    losses = [m["equity_loss"] for m in moves if m["seat"] == seat]
    return round(500 * sum(losses) / len(losses), 1) if losses else None


def analyse(finished: Sequence[Any], counter: int) -> dict[str, Any]:
    game = finished[counter]
    moves = judge(decisions(game))
    cube = judge_cube(cube_decisions(game))
    every = [*moves, *cube]
    return {
        "kind": "equity",
        "level": LEVEL,
        "moves": moves,
        "cube": cube,
        "rating": [rating(every, 0), rating(every, 1)],
        "blunders": [sum(1 for m in every if m["seat"] == s and m["equity_loss"] > BLUNDER)
                     for s in (0, 1)],
        "errors": [sum(1 for m in every if m["seat"] == s and ERROR < m["equity_loss"] <= BLUNDER)
                   for s in (0, 1)],
    }


def analysis_words(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    out.pop("why", None)
    return out
