"""Pages of "Your own hands" (tutorials.mistakes): the finished hands and games a player
played, each hand's mistakes, and one mistake as a puzzle. Plain form POSTs; with htmx an
answer is one request that returns only the feedback, as in the lessons' practice.

A hand's analysis not yet stored is computed first, as the analysis API does it
(analysis.obtained): claimed and computed in the analysis pool, or, while another process
computes it, its row awaited on the event loop (await_stored), so that no request thread
waits on the solver or sleeps; the rest of the page is the ordinary sync work
(sync_to_async), which only reads the stored analysis."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from game.backgammon.bot import BotUnavailable
from game.models import Table
from game.tables import access, analysis
from game.tables.errors import TableError
from tutorials import labels, mistakes, pictures, progress

log = logging.getLogger(__name__)


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


@require_http_methods(["GET"])
def own_hands(request: HttpRequest) -> HttpResponse:
    owner = access.owner_of_request(request)
    done = progress.mistakes(request)
    rows = []
    for row in mistakes.my_hands(owner):
        prefix = f"{row['table'].pk}:{row['hand']}:"
        mine = [v for k, v in done.items() if k.startswith(prefix)]
        rows.append(
            {
                **row,
                "url": reverse("tutorials:own_hand", args=[row["table"].pk, row["hand"]]),
                "solved": sum(1 for v in mine if v["solved"]),
                "tried": len(mine),
            }
        )
    return render(
        request,
        "tutorials/own_hands.html",
        {
            "rows": rows,
            "solved": sum(1 for v in done.values() if v["solved"]),
            "tried": len(done),
        },
    )


def _mistakes(request: HttpRequest, table_id: int, hand: int) -> list[mistakes.Mistake]:
    table = get_object_or_404(Table, pk=table_id)
    owner = access.owner_of_request(request)
    try:
        return mistakes.hand_mistakes(
            table, hand, owner, request.GET.get("invite", ""), stored_only=True
        )
    except TableError as error:
        raise Http404(str(error)) from None


def _unavailable(request: HttpRequest) -> HttpResponse:
    return render(request, "tutorials/own_unavailable.html", status=503)


def _pending(request: HttpRequest, table_id: int, hand: int) -> analysis.Pending | None:
    """What computing the analysis the puzzles need takes, or None when it is stored or
    there is nothing to compute (a player who was not seated gets 404 later)."""
    table = get_object_or_404(Table, pk=table_id)
    owner = access.owner_of_request(request)
    try:
        found = analysis.look_up(
            table_id, hand, owner, request.GET.get("invite", ""),
            knowable=table.game == "courtpiece",
        )
    except TableError as error:
        raise Http404(str(error)) from None
    return found if isinstance(found, analysis.Pending) else None


async def _prepared(request: HttpRequest, table_id: int, hand: int) -> bool:
    """The analysis stored (computed in the pool if it was not); False: it cannot be
    computed now."""
    pending = await sync_to_async(_pending)(request, table_id, hand)
    if pending is None:
        return True
    try:
        # claimed and computed in the pool, or awaited (await_stored) while someone else
        # computes it: no thread sleeps waiting for it
        await analysis.obtained(pending)
    except analysis.Computing:
        return False
    except Exception:  # a solver or a gnubg worker failed: nothing is stored
        log.exception("the analysis of table %s hand %s could not be computed", table_id, hand)
        return False
    return True


@require_http_methods(["GET"])
async def own_hand(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    if not await _prepared(request, table_id, hand):
        return await sync_to_async(_unavailable)(request)
    return await sync_to_async(_own_hand)(request, table_id, hand)


def _own_hand(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    try:
        found = _mistakes(request, table_id, hand)
    except (BotUnavailable, analysis.Computing):
        return _unavailable(request)
    done = progress.mistakes(request, f"{table_id}:{hand}:")
    items = [
        {
            "number": m.number,
            "url": reverse("tutorials:own_mistake", args=[table_id, hand, m.number]),
            "solved": done.get(m.key, {}).get("solved", False),
            "tries": done.get(m.key, {}).get("tries", 0),
            "game": m.game,
            "at": _where(m),
        }
        for m in found
    ]
    return render(
        request,
        "tutorials/own_hand.html",
        {"items": items, "table_id": table_id, "hand": hand,
         "game": Table.objects.values_list("game", flat=True).get(pk=table_id),
         "solved": sum(1 for i in items if i["solved"])},
    )


def _where(m: mistakes.Mistake) -> str:
    if m.game == "courtpiece":
        return _("Trick %(n)s") % {"n": m.judged["trick"]}
    if m.is_cube:
        return _("Cube decision after move %(n)s") % {"n": m.judged["move"]}
    return _("Move %(n)s") % {"n": m.judged["move"]}


def _position(m: mistakes.Mistake) -> dict[str, Any]:
    """What the template draws: the seat's own view at that moment, nothing more."""
    view = m.view()
    me = m.seat
    if m.game == "courtpiece":
        trump = view.get("trump")
        trick = view["trick"]
        return {
            "trump": pictures.suit_name(trump) if trump else None,
            "trick_svg": mark_safe(pictures.trick_svg(trick, me, None, trump)) if trick else "",
            "trick_lines": [
                _("%(seat)s: %(card)s")
                % {"seat": labels.seat_label(c["seat"], me), "card": pictures.card_label(c["card"])}
                for c in trick
            ],
            "tricks_done": int(view["trick_count"]),
            "played": pictures.card_label(m.judged["card"]),
            "cards": [
                {"code": c, "label": pictures.card_label(c),
                 "svg": mark_safe(pictures.card_svg(c))}
                for c in view["hand"]
            ],
        }
    if m.is_cube:
        cube = view["cube"]
        return {
            "board_svg": mark_safe(pictures.board_svg(view["board"], _("The board"))),
            "cube_value": cube["value"],
            "doubled": m.judged["action"] in ("take", "pass"),
            "choices": [(c, mistakes.cube_word(c)) for c in m.cube_choices()],
            "played": mistakes.cube_word(m.judged["action"]),
        }
    return {
        "board_svg": mark_safe(pictures.board_svg(view["board"], _("The board"))),
        "dice": list(view["dice"]),
        "plays": mistakes.legal_plays(m),
        "played": m.judged["played"],
    }


@require_http_methods(["GET", "POST"])
async def own_mistake(
    request: HttpRequest, table_id: int, hand: int, number: int
) -> HttpResponse:
    if not await _prepared(request, table_id, hand):
        return await sync_to_async(_unavailable)(request)
    return await sync_to_async(_own_mistake)(request, table_id, hand, number)


def _own_mistake(request: HttpRequest, table_id: int, hand: int, number: int) -> HttpResponse:
    try:
        found = _mistakes(request, table_id, hand)
    except (BotUnavailable, analysis.Computing):
        return _unavailable(request)
    if not 1 <= number <= len(found):
        raise Http404("no such mistake in this hand")
    m = found[number - 1]
    action = reverse("tutorials:own_mistake", args=[table_id, hand, number])
    ctx: dict[str, Any] = {
        "m": m,
        "where": _where(m),
        "pos": _position(m),
        "action": action,
        "hand_url": reverse("tutorials:own_hand", args=[table_id, hand]),
        "next_url": reverse("tutorials:own_mistake", args=[table_id, hand, number + 1])
        if number < len(found)
        else "",
        "total": len(found),
        "mine": progress.mistakes(request, m.key).get(m.key, {"solved": False, "tries": 0}),
    }
    status = 200
    if request.method == "POST":
        answer = request.POST.get("answer", "").strip()
        try:
            checked = mistakes.check(m, answer)
        except BotUnavailable:
            return _unavailable(request)
        if checked.state in ("right", "worse"):
            ctx["mine"] = progress.record_mistake(request, m.key, checked.state == "right")
        else:
            status = 400  # not an answer, or one the rules refuse: nothing changes
        ctx["feedback"] = checked
        ctx["chosen"] = answer
        if checked.state == "right":
            ctx["why"] = mistakes.explanation(m)
    if _is_htmx(request):
        return render(request, "tutorials/_own_feedback.html", ctx, status=status)
    return render(request, "tutorials/own_mistake.html", ctx, status=status)
