"""The JSON HTTP API of the live tables, exactly as docs/TABLE_PROTOCOL.md describes it.

Every POST needs the ``X-CSRFToken`` header (the ``csrftoken`` cookie's value); errors are
``{"error": "…", "code": "…"}`` with 400, 403, 404 or 409, also for a failed CSRF check, a
body too large or too deep, a path no view has (:func:`not_found`) and a fault of ours
(500, logged): an /api/ client never gets a page.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from game.models import Table
from game.tables import access, analysis, frames, inbound, lifecycle, mine, records, registry
from game.tables.errors import TableError

log = logging.getLogger(__name__)
MAX_BODY = 16 * 1024  # bytes of a JSON body: a new table's is a few hundred

_csrf = CsrfViewMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]


def _error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message, "code": code}, status=status)


def api(*methods: str) -> Callable[[Callable[..., JsonResponse]], Callable[..., JsonResponse]]:
    """JSON in and out, the allowed methods, CSRF answered in JSON, TableError mapped."""

    def wrap(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
        @csrf_exempt  # checked below, so that a failure is answered in JSON
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                response = _error("bad_request", f"use {' or '.join(methods)}", 405)
                response["Allow"] = ", ".join(methods)
                return response
            if request.method == "POST" and _csrf.process_view(request, None, (), {}):
                return _error("forbidden", "CSRF check failed: send the X-CSRFToken header", 403)
            try:
                return view(request, *args, **kwargs)
            except TableError as exc:
                return _error(exc.code, exc.message, exc.http_status)
            except RequestDataTooBig:
                return _error("bad_request", f"a body is at most {MAX_BODY} bytes", 413)
            except Exception:  # a fault of ours: logged, and still answered in JSON
                log.exception("%s %s failed", request.method, request.path)
                return _error("server_error", "something went wrong on our side", 500)

        return inner

    return wrap


def _body(request: HttpRequest) -> dict[str, Any]:
    """The JSON object the request carries, decoded within limits (game.tables.inbound)."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isascii() or not length.isdigit() or int(length) > MAX_BODY:
        raise TableError("bad_request", f"the body must be JSON, at most {MAX_BODY} bytes")
    try:
        return inbound.body(request.body, max_bytes=MAX_BODY)
    except inbound.Malformed as exc:
        raise TableError("bad_request", f"the body must be a JSON object: {exc.message}") from None


def _summary(table: Table, request: HttpRequest) -> dict[str, Any]:
    table.refresh_from_db()
    seats = list(table.seats.select_related("user__profile").order_by("number"))
    owner = access.owner_of_request(request)
    data = {
        **frames.table_info(table),
        "page": mine.page_url(table.pk),
        "socket": f"/ws/tables/{table.pk}/",
        "seats": [
            {k: row[k] for k in ("seat", "player", "bot", "guest", "connected", "left")}
            for row in frames.seat_rows(seats)
        ],
        "your_seat": access.seat_of(seats, owner),
    }
    if table.private and (
        (owner.is_user and table.host_id == owner.user.pk)
        or access.seat_of(seats, owner) is not None
    ):
        data["invite"] = table.invite  # only those at the table may pass the link on
    return data


_CREATE_FIELDS = {
    "game", "variant", "options", "private", "bots", "move_seconds", "spectators", "length",
    "target", "client_seed",
}


def _listed(request: HttpRequest) -> list[dict[str, Any]]:
    """``GET /api/tables``: the open tables (of ``game``), or with ``mine=1`` the tables
    where this client holds a seat (an account, or a guest by its session's key)."""
    which = request.GET.get("mine", "0")
    if which not in ("0", "1"):
        raise TableError("bad_request", "mine must be 1 (your own tables) or 0")
    if which == "1":
        return mine.list_my_tables(access.owner_of_request(request))
    return frames.list_open_tables(request.GET.get("game"))


@api("POST", "GET")
def tables(request: HttpRequest) -> JsonResponse:
    if request.method == "GET":
        return JsonResponse({"tables": _listed(request)})
    body = _body(request)
    unknown = set(body) - _CREATE_FIELDS
    if unknown:
        raise TableError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
    kwargs = {k: body[k] for k in _CREATE_FIELDS & set(body)}
    kwargs.setdefault("game", registry.default_name())
    table = lifecycle.create_table(owner=access.owner_from_request(request), **kwargs)
    return JsonResponse(_summary(table, request), status=201)


@api("GET")
def table(request: HttpRequest, table_id: int) -> JsonResponse:
    """A private table is a 404 to anyone without its invite (``?invite=``), its host and
    its players excepted, exactly as a table that does not exist."""
    owner = access.owner_of_request(request)
    found = access.visible(table_id, owner, request.GET.get("invite"))
    return JsonResponse(_summary(found, request))


@api("POST")
def seat(request: HttpRequest, table_id: int, number: int) -> JsonResponse:
    body = _body(request)
    owner = access.owner_from_request(request)
    invite = body.get("invite")
    if invite is not None and not isinstance(invite, str):
        raise TableError("bad_request", "invite must be a string")
    table = lifecycle.take_seat(table_id=table_id, owner=owner, seat=number, invite=invite)
    if body.get("client_seed") is not None:
        lifecycle.set_client_seed(table_id=table_id, owner=owner, seed=body["client_seed"])
    return JsonResponse(_summary(table, request))


@api("POST")
def seed(request: HttpRequest, table_id: int) -> JsonResponse:
    body = _body(request)
    table = lifecycle.set_client_seed(
        table_id=table_id, owner=access.owner_from_request(request),
        seed=body.get("client_seed"),  # type: ignore[arg-type]
    )
    return JsonResponse(_summary(table, request))


@api("POST")
def leave(request: HttpRequest, table_id: int) -> JsonResponse:
    table = lifecycle.leave_seat(table_id=table_id, owner=access.owner_from_request(request))
    return JsonResponse(_summary(table, request))


@api("POST")
def start(request: HttpRequest, table_id: int) -> JsonResponse:
    table = lifecycle.start_table(table_id=table_id, owner=access.owner_from_request(request))
    return JsonResponse(_summary(table, request))


@api("GET")
def record(request: HttpRequest, table_id: int) -> JsonResponse:
    hand = inbound.digits(request.GET.get("hand", ""))  # ASCII digits: "²" is no number
    if hand is None:
        raise TableError("bad_request", "hand must be a whole number from 1")
    # A private table's hands are for its players, its host and its invite link only
    # (as its replay pages): to anyone else it does not exist.
    access.visible(table_id, access.owner_of_request(request), request.GET.get("invite"))
    return JsonResponse(records.hand_record(table_id, hand))


@api("GET", "POST")
def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other /api/ path: a 404 in JSON, as every answer here is."""
    raise TableError("not_found", "no such API path")


def _analysis_look_up(request: HttpRequest, table_id: int, hand: int) -> Any:
    return analysis.look_up(
        table_id, hand, access.owner_of_request(request), request.GET.get("invite") or "",
        knowable=request.GET.get("knowable") == "1",
    )


async def analysis_view(request: HttpRequest, table_id: int) -> JsonResponse:
    """A finished hand's analysis. Async: the first request waits for the pool thread
    that computes it without holding up the event loop or Django's one thread for sync
    code; later ones read the stored row. Its reasons are in the request's language
    (``?lang=`` or the usual Accept-Language and cookie). ``&knowable=1``: the knowable
    verdicts on the asker's own seat's cards instead (game.tables.analysis)."""
    if request.method != "GET":
        response = _error("bad_request", "use GET", 405)
        response["Allow"] = "GET"
        return response
    try:
        hand = analysis.parse_hand(request.GET.get("hand", ""))
        found = await sync_to_async(_analysis_look_up)(request, table_id, hand)
        if isinstance(found, analysis.Pending):
            data = await analysis.obtained(found)
        else:
            data = found
    except analysis.Computing as exc:  # another process computes it: ask again shortly
        response = _error(exc.code, exc.message, exc.http_status)
        response["Retry-After"] = "2"
        return response
    except TableError as exc:
        return _error(exc.code, exc.message, exc.http_status)
    except (RuntimeError, ValueError):  # a solver or gnubg's workers failed: nothing stored
        log.exception("the analysis of table %s could not be computed", table_id)
        return _error("unavailable", "the analysis cannot be computed now; try again", 503)
    lang = request.GET.get("lang") or ""
    if lang not in dict(settings.LANGUAGES):
        lang = translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(lang):
        return JsonResponse(analysis.words(data))
