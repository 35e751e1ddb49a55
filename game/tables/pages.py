"""The pages every game's tables share: Play now, the lobby, the table itself, taking and
leaving a seat, starting, and the replay's door. Every write goes through the table
services; these views only turn their answers (and their ``TableError``) into pages, and
hand whatever is a game's own to its registration (``GamePages``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import GameStats
from game.models import Table
from game.tables import (
    access,
    botlevel,
    fairbox,
    frames,
    html,
    inbound,
    lifecycle,
    mine,
    names,
    records,
    registry,
    signin,
)
from game.tables.errors import TableError
from game.tables.html import table_live_html
from game.tables.words import error_text


def language() -> str:
    return get_language() or "en"


def table_url(table: Table, invite: str | None = None) -> str:
    url = reverse("game:table", args=[table.pk])
    return f"{url}?invite={invite}" if invite else url


def error_page(request: HttpRequest, error: TableError) -> HttpResponse:
    """A refusal as a page in the reader's words (a guest who needs an account is sent
    to sign in, and back here after)."""
    status = getattr(error, "http_status", 400)
    if error.code == "needs_account":
        login = reverse("account_login")
        return HttpResponseRedirect(f"{login}?next={request.get_full_path()}")
    context = {"text": error_text(error.code), "code": error.code}
    return render(request, "game/error.html", context, status=status)


def no_table(request: HttpRequest) -> HttpResponse:
    """Our 404 for a table's page: no such table, or a private one opened without its
    invite. The two read alike, so the page tells nobody which tables exist."""
    return render(request, "game/no_table.html", status=404)


def readable_table(request: HttpRequest, table_id: int, game: str | None = None) -> Table:
    """The table (of ``game``, if given), if the requester may see it: a private table
    is a 404 to anyone without its invite, as if it did not exist."""
    found = Table.objects.filter(pk=table_id)
    if game is not None:
        found = found.filter(game=game)
    table = get_object_or_404(found)
    owner = access.owner_from_request(request)
    if not access.may_see(table, owner, request.GET.get("invite") or ""):
        raise Http404("no such table")
    return table


def finished_record(table: Table, hand: int) -> dict[str, Any]:
    """Hand (or game) ``hand`` of ``table``, once it is over (records.hand_record): one
    not over yet is a 404 to a page, whose seed is still secret; any other refusal is
    the caller's TableError."""
    try:
        return records.hand_record(table.pk, hand)
    except TableError as error:
        if error.code == "not_found":
            raise Http404("not over yet") from None
        raise


def is_guest(request: HttpRequest) -> bool:
    """Not signed in: such a player may only make tables where every other seat is a bot
    (lifecycle.create_table), so the pages say so before any form."""
    return not access.owner_of_request(request).is_user


def create_from_form(request: HttpRequest, form: Any, **game: Any) -> HttpResponse | None:
    """Create the table a valid form describes (``game`` names the game and its own
    fields): the table page, an error page for a guest, or None with the refusal added
    to the form."""
    data = form.cleaned_data
    try:
        table = lifecycle.create_table(
            owner=access.owner_from_request(request),
            options=data["options"],
            private=bool(data.get("private")),
            bots=data["bots"],
            move_seconds=data["move_seconds"],
            spectators=bool(data.get("spectators")),
            client_seed=data.get("client_seed") or None,
            **game,
        )
    except TableError as error:
        if error.code == "needs_account":
            return error_page(request, error)
        form.add_error(None, error_text(error.code))
        return None
    botlevel.remember(request, table.game, data["options"])
    return HttpResponseRedirect(table_url(table))


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """One click from the home page: a table against bots, of the game the form names
    (the default game without one); guests welcome. When Play now already made them a
    table of that game still being played, a page offers to continue it or (``new``)
    to start another."""
    owner = access.owner_from_request(request)
    game = request.POST.get("game") or registry.default_name()
    if registry.find(game) is None:
        return error_page(request, TableError("bad_request", f"unknown game {game!r}"))
    # The level the form asks for, else the one this player chose last, else the game's.
    level = request.POST.get("bot_level") or botlevel.remembered(request, game)
    options = {botlevel.OPTION: level} if level else {}
    # A game against bots already being played: offer it back, or a new one ("new").
    going = None if request.POST.get("new") else mine.play_now_in_progress(owner, game)
    if going is not None:
        context = {"going": going, "game": game, "bot_level": level or ""}
        return render(request, "game/play_now_choice.html", context)
    try:
        table = lifecycle.play_now(owner=owner, game=game, options=options)
    except TableError as error:
        return error_page(request, error)
    botlevel.remember(request, game, options)
    return HttpResponseRedirect(table_url(table))


def _lobby_rows(gspec: registry.GameSpec) -> list[dict[str, Any]]:
    tables = frames.list_open_tables(gspec.name)
    ids = [t["id"] for t in tables]
    users = {
        t.pk: {s.number: s.user for s in t.seats.all() if s.user_id}
        for t in Table.objects.filter(pk__in=ids).prefetch_related("seats__user")
    }
    rows = []
    for t in tables:
        seated = users.get(t["id"], {})
        family = gspec.rating_game(t["variant"])
        seats = []
        for s in t["seats"]:
            user = seated.get(s["seat"])
            rating = None
            if user is not None:
                stats = GameStats.objects.filter(user=user, game=family).first()
                rating = round(stats.rating, 1) if stats is not None else 0.0
            seats.append({**s, "username": user.get_username() if user else None, "rating": rating})
        rows.append(
            {
                **t,
                "variant_name": gspec.pages.title(t["variant"]),
                "options_text": gspec.pages.options_text(
                    t["variant"], t["options"] or {}, int(t.get("length") or 0)
                ),
                "seats": seats,
                "free": sum(1 for s in t["seats"] if not s["bot"] and not s["player"]),
            }
        )
    return rows


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables per game and variant, refreshed by htmx every few seconds (the list
    only)."""
    games = registry.games()
    groups = []
    for gspec in games:
        rows = _lobby_rows(gspec)
        groups += [
            {
                "variant": v,
                "name": gspec.pages.title(v),
                "tables": [r for r in rows if r["variant"] == v],
            }
            for v in gspec.variants
        ]
    context: dict[str, Any] = {
        "groups": groups, "any": any(g["tables"] for g in groups)
    }
    if request.headers.get("HX-Request"):
        return render(request, "game/lobby_tables.html", context)
    context["guest"] = is_guest(request)
    context["games"] = games
    context["bot_levels"] = {g.name: botlevel.choices(request, g.name) for g in games}
    context["your_games"] = mine.your_games(access.owner_of_request(request))
    context["new_url"] = reverse(registry.spec(registry.default_name()).pages.new_table_url)
    return render(request, "game/lobby.html", context)


def seats_context(
    request: HttpRequest, table: Table, rows: list[dict[str, Any]], seat: int | None,
    invite: str,
) -> dict[str, Any]:
    """The waiting table's list of seats (game/partials/seats.html): each seat as its game
    names it (``GamePages.seat_offers``: "North", "partner of asma, against …") with who
    sits there, the doorbell's signature that keeps it live, and for someone who came by
    the invite, who invites them."""
    owner = access.owner_of_request(request)
    host = access.is_host(table, owner)
    offers = {o["seat"]: o for o in registry.spec(table.game).pages.seat_offers(rows)}
    seat_list = [
        {
            **row,
            **offers.get(row["seat"], {"name": "", "text": ""}),
            "empty": not row["bot"] and not row["player"],
            "mine": row["seat"] == seat,
        }
        for row in rows
    ]
    invited_by = ""
    if invite and seat is None and not host and table.host_id is not None:
        invited_by = names.names_of({table.host_id}).get(table.host_id, "")
    seats_url = reverse("game:seats", args=[table.pk])
    return {
        "table": table,
        "seat": seat,
        "is_host": host,
        "invite": invite,
        "guest": not owner.is_user,
        "seat_list": seat_list,
        "seats_signature": html.seats_signature(rows),
        "seats_url": f"{seats_url}?invite={invite}" if invite else seats_url,
        "invited_by": invited_by,
        "variant_name": registry.spec(table.game).pages.title(table.variant),
    }


def _admitted(request: HttpRequest, table: Table, owner: access.Owner) -> tuple[int | None, str]:
    """The seat ``owner`` holds and the invite they came with (only if it is the
    table's); Http404 for a private table they may not open."""
    seat = access.seat_of(table, owner)
    invite = request.GET.get("invite") or ""
    invited = access.has_invite(table, invite)
    if seat is None and not access.may_see(table, owner, invite):
        raise Http404("no such table")  # a private table is not even admitted to exist
    return seat, invite if invited else ""


@require_GET
def seats_part(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting table's list of seats alone, fetched again by its page when the
    socket's doorbell says someone sat down or left (game.tables.html.seats_bell)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return no_table(request)
    try:
        seat, invite = _admitted(request, table, access.owner_of_request(request))
    except Http404:
        return no_table(request)
    rows = frames.state_payload(table.pk, seat)["seats"] if table.status == Table.WAITING else []
    context = seats_context(request, table, rows, seat, invite)
    context["waiting"] = table.status == Table.WAITING
    return render(request, "game/partials/seats.html", context)


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return no_table(request)
    owner = access.owner_from_request(request)
    try:
        seat, invite = _admitted(request, table, owner)
    except Http404:
        return no_table(request)
    invited = bool(invite)
    host = access.is_host(table, owner)
    if invited and seat is None and not host and not owner.is_user:
        # A guest who came by the invite: signing in, in this browser, brings them back.
        signin.remember_invite(request.session, table.pk, invite)
    if not access.may_watch(table, owner, invite, seat) and table.status != Table.WAITING:
        return render(
            request,
            "game/error.html",
            {"text": _("This table does not take spectators.")},
            status=403,
        )
    pages = registry.spec(table.game).pages
    payload = frames.state_payload(table.pk, seat)
    if table.status != Table.WAITING:
        last = pages.last_hand(table, seat)
        if last is not None:
            payload["last_hand"] = last
    lang = language()
    socket = f"/ws/tables/{table.pk}/?format=html&lang={lang}"
    if invited:
        socket += f"&invite={invite}"
    is_guest_table = bool(table.host_guest)
    # An invite is for a person to take a seat: at a table whose seats are all bots or
    # taken (bots only, or started), there is none to offer.
    open_seat = table.status == Table.WAITING and any(
        not (s["bot"] or s["player"]) for s in payload["seats"]
    )
    context = {
        "table": table,
        "seat": seat,
        "is_host": host,
        "variant_name": pages.title(table.variant),
        "live_html": mark_safe(table_live_html(payload, lang)),
        "socket_url": socket,
        "invite_url": request.build_absolute_uri(table_url(table, table.invite))
        if table.private and host and not is_guest_table and open_seat
        else "",
        "invite": invite,
        "seats": payload["seats"],
        "waiting": table.status == Table.WAITING,
        "guest": not owner.is_user,
        "copied": copied_link(frames.copied_from(table)),
        # Leaving a table where every other seat is a bot closes it (lifecycle.leave_seat):
        # its button says so, rather than that a bot plays on.
        "leave_ends": table.status == Table.PLAYING and seat is not None
        and all(s["bot"] for s in payload["seats"] if s["seat"] != seat),
        # The seat this player left during play (a bot's since): "Take my seat back".
        "left_seat": access.left_seat_of(table, owner) if seat is None else None,
        "fair": fairbox.fair_context(table, seat),
        **pages.table_context(request, lang),
    }
    if context["waiting"]:
        context.update(seats_context(request, table, payload["seats"], seat, invite))
    return render(request, pages.table_template, context)


def copied_link(copied: dict[str, Any] | None) -> dict[str, Any] | None:
    """Where a deal played again comes from, for the pages: table, hand and the URL of
    that hand's replay (in the active language). None for an ordinary table."""
    if not copied:
        return None
    table, hand = int(copied["table"]), int(copied["hand"])
    return {"table": table, "hand": hand, "url": reverse("game:replay", args=[table, hand])}


def _seat_action(request: HttpRequest, do: Any) -> HttpResponse:
    owner = access.owner_from_request(request)
    invite = request.POST.get("invite") or None
    try:
        table = do(owner)
    except TableError as error:
        return error_page(request, error)
    return HttpResponseRedirect(table_url(table, invite))


def _guest_sits(request: HttpRequest, table_id: int, number: int, invite: str) -> HttpResponse:
    """A guest chose a seat: people's tables need an account, so they go to sign in (or
    sign up) with the table, its invite and their seat kept, and come back seated
    (game.tables.signin)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.may_see(table, access.owner_of_request(request), invite):
        return no_table(request)
    if table.status != Table.WAITING:
        return error_page(request, TableError("conflict", "the table has already started"))
    if not 0 <= number < len(frames.state_payload(table.pk, None)["seats"]):
        return error_page(request, TableError("bad_request", "no such seat"))
    kept = invite if access.has_invite(table, invite) else ""  # a public table needs none
    signin.remember_invite(request.session, table.pk, kept, number)
    messages.info(
        request,
        _("Sign in, or create an account, to take your seat: you come straight back to it."),
    )
    login = reverse("account_login")
    return HttpResponseRedirect(f"{login}?next={quote(table_url(table, kept or None))}")


def _takes_back(table_id: int, owner: access.Owner, number: int) -> bool:
    """Whether ``owner`` (a guest) asks for the seat they left during play: theirs to take
    back without an account, as they held it."""
    if not owner.guest_key:
        return False
    table = Table.objects.filter(pk=table_id, status=Table.PLAYING).first()
    return table is not None and access.left_seat_of(table, owner) == number


@require_POST
def sit(request: HttpRequest, table_id: int) -> HttpResponse:
    found = inbound.digits(request.POST.get("seat", ""))  # ASCII digits: not "１" or "²"
    number = -1 if found is None else found
    invite = request.POST.get("invite") or None
    visitor = access.owner_of_request(request)
    if not visitor.is_user and not _takes_back(table_id, visitor, number):
        return _guest_sits(request, table_id, number, invite or "")
    return _seat_action(
        request,
        lambda owner: lifecycle.take_seat(
            table_id=table_id, owner=owner, seat=number, invite=invite
        ),
    )


@require_POST
def set_seed(request: HttpRequest, table_id: int) -> HttpResponse:
    """A seated player's own seed, from the table page's fairness box, while it waits."""
    seed = request.POST.get("seed", "").strip()
    if not lifecycle.CLIENT_SEED.fullmatch(seed):  # refused here in the player's words
        text = _(
            "1 to 64 letters (a–z, A–Z), digits, - or _. "
            "You may change it until the game starts."
        )
        context = {"text": text, "code": "bad_request"}
        return render(request, "game/error.html", context, status=400)
    return _seat_action(
        request,
        lambda owner: lifecycle.set_client_seed(table_id=table_id, owner=owner, seed=seed),
    )


@require_POST
def leave(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, lambda owner: lifecycle.leave_seat(table_id=table_id, owner=owner)
    )


@require_POST
def start(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, lambda owner: lifecycle.start_table(table_id=table_id, owner=owner)
    )


@require_GET
def replay(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """A finished hand (or game), drawn by its game's replay page once it is over."""
    try:
        table = readable_table(request, table_id)
    except Http404:
        return no_table(request)
    seat = access.seat_of(table, access.owner_from_request(request))
    invite = request.GET.get("invite") or ""
    return registry.spec(table.game).pages.replay(request, table, hand, seat, invite)
