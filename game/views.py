"""The pages of the live tables: Play now, the lobby, a new table, the table itself and
the replay of a finished hand. Every write goes through ``game.services``; these views
only turn its answers (and its ``TableError``) into pages."""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import GameStats
from game import render as table_render
from game import services
from game import state as states
from game.engine import courtpiece as cp
from game.engine import fair
from game.forms import NewTableForm, choice_label, option_label
from game.games import spec
from game.models import Table


def _lang() -> str:
    return get_language() or "en"


def _table_url(table: Table, invite: str | None = None) -> str:
    url = reverse("game:table", args=[table.pk])
    return f"{url}?invite={invite}" if invite else url


def _error_page(request: HttpRequest, error: services.TableError) -> HttpResponse:
    status = getattr(error, "http_status", 400)
    if error.code == "needs_account":
        login = reverse("account_login")
        return HttpResponseRedirect(f"{login}?next={request.get_full_path()}")
    context = {"text": table_render.error_text(error.code), "code": error.code}
    return render(request, "game/error.html", context, status=status)


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """One click from the home page: a Rung table against three bots (guests welcome)."""
    owner = services.owner_from_request(request)
    try:
        table = services.play_now(owner=owner)
    except services.TableError as error:
        return _error_page(request, error)
    return HttpResponseRedirect(_table_url(table))


def _options_text(variant: str, options: dict[str, Any]) -> list[str]:
    engine = cp.VARIANTS.get(variant)
    if engine is None:
        return []
    return [
        f"{option_label(variant, name)}: {choice_label(options.get(name, opt.default))}"
        for name, opt in engine.options.items()
    ]


def _lobby_rows() -> list[dict[str, Any]]:
    tables = services.list_open_tables("courtpiece")
    ids = [t["id"] for t in tables]
    users = {
        t.pk: {s.number: s.user for s in t.seats.all() if s.user_id}
        for t in Table.objects.filter(pk__in=ids).prefetch_related("seats__user")
    }
    rows = []
    for t in tables:
        seated = users.get(t["id"], {})
        family = spec(t["game"]).rating_game(t["variant"])
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
                "variant_name": table_render.variant_name(t["variant"]),
                "options_text": _options_text(t["variant"], t["options"] or {}),
                "seats": seats,
                "free": sum(1 for s in t["seats"] if not s["bot"] and not s["player"]),
            }
        )
    return rows


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables per variant, refreshed by htmx every few seconds (the list only)."""
    rows = _lobby_rows()
    groups = [
        {
            "variant": v,
            "name": table_render.variant_name(v),
            "tables": [r for r in rows if r["variant"] == v],
        }
        for v in cp.VARIANTS
    ]
    context = {"groups": groups, "any": bool(rows)}
    if request.headers.get("HX-Request"):
        return render(request, "game/lobby_tables.html", context)
    return render(request, "game/lobby.html", context)


def new_table(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        owner = services.owner_from_request(request)
        try:
            table = services.create_table(
                owner=owner,
                variant=data["variant"],
                options=data["options"],
                private=bool(data.get("private")),
                bots=data["bots"],
                move_seconds=data["move_seconds"],
                spectators=bool(data.get("spectators")),
            )
        except services.TableError as error:
            if error.code == "needs_account":
                return _error_page(request, error)
            form.add_error(None, table_render.error_text(error.code))
        else:
            return HttpResponseRedirect(_table_url(table))
    return render(request, "game/new_table.html", {"form": form})


def _is_host(table: Table, owner: services.Owner) -> bool:
    if owner.is_user:
        return table.host_id == owner.user.pk
    return bool(owner.guest_key and table.host_guest == owner.guest_key)


def _last_hand(table: Table, seat: int | None) -> dict[str, Any] | None:
    """The hand that just ended, while the next one has not really begun (or the match
    is over): shown as the summary. Only its own seat's view, as in the live frame."""
    if table.status == Table.WAITING:
        return None
    match = states.load(table)
    hands = spec(table.game).finished(match)
    if not hands:
        return None
    if not match.is_over and len(match.hand.history) > 3:
        return None
    return hands[-1].view(seat)


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    owner = services.owner_from_request(request)
    seat = services.seat_of(table, owner)
    invite = request.GET.get("invite") or ""
    invited = bool(invite) and invite == table.invite
    host = _is_host(table, owner)
    if table.private and seat is None and not host and not invited:
        raise Http404("no such table")  # a private table is not even admitted to exist
    may_watch = seat is not None or (table.spectators and (not table.private or invited or host))
    if not may_watch and table.status != Table.WAITING:
        return render(
            request,
            "game/error.html",
            {"text": _("This table does not take spectators.")},
            status=403,
        )
    payload = services.state_payload(table.pk, seat)
    last = _last_hand(table, seat)
    if last is not None:
        payload["last_hand"] = last
    lang = _lang()
    socket = f"/ws/tables/{table.pk}/?format=html&lang={lang}"
    if invited:
        socket += f"&invite={invite}"
    is_guest_table = bool(table.host_guest)
    context = {
        "table": table,
        "seat": seat,
        "is_host": host,
        "variant_name": table_render.variant_name(table.variant),
        "live_html": mark_safe(table_render.table_live_html(payload, lang)),
        "socket_url": socket,
        "invite_url": request.build_absolute_uri(_table_url(table, table.invite))
        if table.private and host and not is_guest_table
        else "",
        "invite": invite if invited else "",
        "seats": payload["seats"],
        "waiting": table.status == Table.WAITING,
        "guest": not owner.is_user,
    }
    return render(request, "game/table.html", context)


def _seat_action(request: HttpRequest, table_id: int, do: Any) -> HttpResponse:
    owner = services.owner_from_request(request)
    invite = request.POST.get("invite") or None
    try:
        table = do(owner)
    except services.TableError as error:
        return _error_page(request, error)
    return HttpResponseRedirect(_table_url(table, invite))


@require_POST
def sit(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        number = int(request.POST.get("seat", ""))
    except ValueError:
        number = -1
    invite = request.POST.get("invite") or None
    return _seat_action(
        request,
        table_id,
        lambda owner: services.take_seat(
            table_id=table_id, owner=owner, seat=number, invite=invite
        ),
    )


@require_POST
def leave(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda owner: services.leave_seat(table_id=table_id, owner=owner)
    )


@require_POST
def start(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda owner: services.start_table(table_id=table_id, owner=owner)
    )


VERIFY_SNIPPET = """import hashlib, hmac

server_seed = "{seed}"
client_seeds = {clients}
commitment = "{commitment}"
n = {counter}

# 1. The seed is in the chain the table committed to before the first deal.
s = server_seed
for _ in range(n + 1):
    s = hashlib.sha256(s.encode()).hexdigest()
print("commitment matches:", s == commitment)

# 2. The deal recomputes (HMAC-SHA256 stream, Fisher-Yates, one card to each seat in turn).
def stream(key, msg):
    counter = 0
    while True:
        block = hmac.new(key.encode(), f"{{msg}}:{{counter}}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1

def below(ints, bound):
    limit = (2**32 // bound) * bound
    for x in ints:
        if x < limit:
            return x % bound

deck = [r + s for s in "SHDC" for r in "AKQJT98765432"]
ints = stream(server_seed, f"deal:{{n}}:" + ":".join(client_seeds))
for i in range(51, 0, -1):
    j = below(ints, i + 1)
    deck[i], deck[j] = deck[j], deck[i]
for seat in range(4):
    print("seat", seat, " ".join(deck[seat::4]))
"""


def _chain_matches(seed: str, commitment: str, counter: int) -> bool:
    s = seed
    for _round in range(counter + 1):
        s = hashlib.sha256(s.encode()).hexdigest()
    return s == commitment


def _may_read(request: HttpRequest, table: Table, owner: services.Owner) -> bool:
    invite = request.GET.get("invite") or ""
    seat = services.seat_of(table, owner)
    return (
        not table.private
        or seat is not None
        or _is_host(table, owner)
        or (bool(invite) and invite == table.invite)
    )


@require_GET
def hand_summary(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """The result of a finished hand as a fragment, for the live table to show while the
    next hand starts (the socket's frame only carries the hand being played)."""
    table = get_object_or_404(Table, pk=table_id)
    owner = services.owner_from_request(request)
    if not _may_read(request, table, owner):
        raise Http404("no such table")
    try:
        record = services.hand_record(table.pk, hand)
    except services.TableError as error:
        if error.code == "not_found":
            raise Http404("that hand is not over") from None
        return _error_page(request, error)
    seat = services.seat_of(table, owner)
    finished = cp.from_record(record["record"]).view(seat)
    seats = table_render._Seats(
        {"seat": seat, "seats": services.state_payload(table.pk, None)["seats"]}
    )
    summary = table_render._summary(
        seats,
        finished,
        {"commitment": record["commitment"], "server_seeds": [record["server_seed"]]},
        table.pk,
        1,
    )
    if summary is None:
        raise Http404("that hand is not over")
    summary["number"] = hand
    summary["replay_url"] = reverse("game:replay", args=[table.pk, hand])
    return render(request, "game/partials/summary.html", {"summary": summary})


@require_GET
def replay(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """A finished hand trick by trick, all four hands face up (only once it is over)."""
    table = get_object_or_404(Table, pk=table_id)
    owner = services.owner_from_request(request)
    seat = services.seat_of(table, owner)
    invite = request.GET.get("invite") or ""
    if table.private and seat is None and not _is_host(table, owner) and invite != table.invite:
        raise Http404("no such table")
    try:
        record = services.hand_record(table.pk, hand)
    except services.TableError as error:
        if error.code == "not_found":
            raise Http404("that hand is not over") from None
        return _error_page(request, error)
    finished = cp.from_record(record["record"])
    seats = services.state_payload(table.pk, None)["seats"]
    names = table_render._Seats({"seat": seat, "seats": seats})
    deal = [list(cards) for cards in finished.deal]
    recomputed = fair.deal(record["server_seed"], record["client_seeds"], record["counter"])
    full = finished.view(None)
    tricks = []
    for number, trick in enumerate(full["completed_tricks"], start=1):
        tricks.append(
            {
                "number": number,
                "winner": names.name(trick["winner"]),
                "cards": [
                    {
                        **table_render._card(c["card"]),  # type: ignore[dict-item]
                        "who": names.name(c["seat"]),
                        "won": c["seat"] == trick["winner"],
                    }
                    for c in trick["cards"]
                ],
            }
        )
    hands = [
        {
            "who": names.name(s),
            "groups": [
                {
                    "suit_name": table_render.suit_name(suit),
                    "cards": [table_render._card(c) for c in cards],
                }
                for suit, cards in table_render.sort_hand(deal[s])
            ],
        }
        for s in range(4)
    ]
    result = full["result"] or {}
    summary = table_render._summary(
        names,
        full,
        {"commitment": record["commitment"], "server_seeds": [record["server_seed"]]},
        None,
        1,
    )
    snippet = VERIFY_SNIPPET.format(
        seed=record["server_seed"],
        clients=repr(list(record["client_seeds"])),
        commitment=record["commitment"],
        counter=record["counter"],
    )
    context = {
        "table": table,
        "hand": hand,
        "variant_name": table_render.variant_name(table.variant),
        "tricks": tricks,
        "hands": hands,
        "summary": summary,
        "result": result,
        "record": record,
        "chain_ok": _chain_matches(record["server_seed"], record["commitment"], record["counter"]),
        "deal_ok": recomputed == deal,
        "snippet": snippet,
        "trump": table_render.suit_name(full["trump"]) if full.get("trump") else "",
        "table_url": _table_url(table, invite or None),
    }
    return render(request, "game/replay.html", context)
