"""The pages of the live tables: Play now, the lobby, a new table, the table itself and
the replay of a finished hand. Every write goes through ``game.services``; these views
only turn its answers (and its ``TableError``) into pages."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import GameStats
from game import bgboard, bgrender, services
from game import render as table_render
from game import state as states
from game.engine import backgammon as bg
from game.engine import courtpiece as cp
from game.engine import fair
from game.forms import BgTableForm, DealAgainForm, NewTableForm, choice_label, option_label
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
    """One click from the home page: a Rung table against three bots, or with
    ``game=backgammon`` a money game against GNU Backgammon (guests welcome)."""
    owner = services.owner_from_request(request)
    game = request.POST.get("game") or "courtpiece"
    if game not in ("courtpiece", "backgammon"):
        return _error_page(request, services.TableError("bad_request", f"unknown game {game!r}"))
    try:
        table = services.play_now(owner=owner, game=game)
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


def _bg_options_text(options: dict[str, Any], length: int) -> list[str]:
    words = [
        _("Match to %(n)s points") % {"n": length} if length else _("Money game"),
        _("Cube") + ": " + choice_label(bool(options.get("cube", True))),
    ]
    if options.get("bot_level") == "medium":
        words.append(_("Medium (1-ply)"))
    return words


def _lobby_rows(game: str = "courtpiece") -> list[dict[str, Any]]:
    tables = services.list_open_tables(game)
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
                "variant_name": _("Backgammon")
                if game == "backgammon"
                else table_render.variant_name(t["variant"]),
                "options_text": _bg_options_text(t["options"] or {}, int(t.get("length") or 0))
                if game == "backgammon"
                else _options_text(t["variant"], t["options"] or {}),
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
    bg_rows = _lobby_rows("backgammon")
    groups.append({"variant": "backgammon", "name": _("Backgammon"), "tables": bg_rows})
    context = {"groups": groups, "any": bool(rows or bg_rows)}
    if request.headers.get("HX-Request"):
        return render(request, "game/lobby_tables.html", context)
    context["guest"] = _is_guest(request)
    return render(request, "game/lobby.html", context)


def new_table(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        made = _create_from_form(request, form, variant=data["variant"])
        if made is not None:
            return made
    return render(request, "game/new_table.html", {"form": form, "guest": _is_guest(request)})


def _is_guest(request: HttpRequest) -> bool:
    """Not signed in: such a player may only make tables where every other seat is a bot
    (services.create_table), so the pages say so before any form."""
    return not services.owner_of_request(request).is_user


def _create_from_form(request: HttpRequest, form: Any, **game: Any) -> HttpResponse | None:
    """Create the table a valid form describes (``game`` names the game's own fields): the
    table page, an error page for a guest, or None with the refusal added to the form."""
    data = form.cleaned_data
    try:
        table = services.create_table(
            owner=services.owner_from_request(request),
            options=data["options"],
            private=bool(data.get("private")),
            bots=data["bots"],
            move_seconds=data["move_seconds"],
            spectators=bool(data.get("spectators")),
            **game,
        )
    except services.TableError as error:
        if error.code == "needs_account":
            return _error_page(request, error)
        form.add_error(None, table_render.error_text(error.code))
        return None
    return HttpResponseRedirect(_table_url(table))


def _is_host(table: Table, owner: services.Owner) -> bool:
    if owner.is_user:
        return table.host_id == owner.user.pk
    return bool(owner.guest_key and table.host_guest == owner.guest_key)


def _last_hand(table: Table, seat: int | None) -> dict[str, Any] | None:
    """The hand that just ended, while the next one has not really begun (or the match
    is over): shown as the summary. Only its own seat's view, as in the live frame."""
    if table.status == Table.WAITING or table.game == "backgammon":
        return None  # a backgammon frame says the last game itself (the match's list)
    match = states.load(table)
    hands = spec(table.game).finished(match)
    if not hands:
        return None
    if not match.is_over and not table_render.young_hand(match.hand.view(seat)):
        return None  # the next hand has its first card down: the summary has had its time
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
        "backgammon": table.game == "backgammon",
        "bg_home": _bg_home(request, lang),
        "seat": seat,
        "is_host": host,
        "variant_name": _("Backgammon")
        if table.game == "backgammon"
        else table_render.variant_name(table.variant),
        "live_html": mark_safe(table_render.table_live_html(payload, lang)),
        "socket_url": socket,
        "invite_url": request.build_absolute_uri(_table_url(table, table.invite))
        if table.private and host and not is_guest_table
        else "",
        "invite": invite if invited else "",
        "seats": payload["seats"],
        "waiting": table.status == Table.WAITING,
        "guest": not owner.is_user,
        "copied": table_render.copied_link(services.copied_from(table)),
    }
    return render(request, "game/table.html", context)


def _bg_home(request: HttpRequest, lang: str) -> str:
    """The side of the player's home board: their profile's choice, else by language."""
    user = request.user
    profile = getattr(user, "profile", None) if user.is_authenticated else None
    chosen = getattr(profile, "board_home", "") if profile is not None else ""
    return chosen if chosen in bgrender.HOMES else bgrender.default_home(lang)


@require_GET
def bg_board(request: HttpRequest, table_id: int) -> HttpResponse:
    """The board of the viewer's turn after the steps made so far (htmx, from
    ``static/js/bgtable.js``): ``steps`` is ``src,dst,die;src,dst,die…``, ``version`` the
    frame's. The planner is built from the table's CURRENT state, so a step that is not
    part of a legal play, a stale frame or a seat not on roll gets an error (status 409 or
    422, drawn into the page's error line) and the board stays as it was."""
    table = get_object_or_404(Table, pk=table_id)
    if table.game != "backgammon":
        raise Http404("not a backgammon table")
    owner = services.owner_from_request(request)
    seat = services.seat_of(table, owner)

    def refuse(code: str, status: int, text: str | None = None) -> HttpResponse:
        html = bgrender.board_error_html(text or table_render.error_text(code))
        return HttpResponse(html, status=status)

    if seat is None:
        return refuse("not_seated", 403)
    payload = services.state_payload(table.pk, seat)
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
    return services.may_read(table, owner, request.GET.get("invite") or "")


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
    public = services.state_payload(table.pk, None)
    seats = table_render._Seats({"seat": seat, "seats": public["seats"]})
    summary = table_render._summary(
        seats,
        finished,
        _record_fairness(record),
        table.pk,
        1,
        record.get("copied_from"),
    )
    if summary is None:
        raise Http404("that hand is not over")
    summary["number"] = hand
    summary["replay_url"] = reverse("game:replay", args=[table.pk, hand])
    # The live table fetches this once per hand (the slot is hx-preserve'd), so it is also
    # the moment to say the result in the table's aria-live region (out of band).
    return render(
        request,
        "game/partials/summary_fragment.html",
        {
            "summary": summary,
            "announce": table_render.announce_summary(summary),
            "goal": table_render.goal_text(((public.get("view") or {}).get("match")) or {}),
        },
    )


@require_GET
def replay(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """A finished hand trick by trick, all four hands face up (only once it is over)."""
    table = get_object_or_404(Table, pk=table_id)
    owner = services.owner_from_request(request)
    seat = services.seat_of(table, owner)
    invite = request.GET.get("invite") or ""
    if table.private and seat is None and not _is_host(table, owner) and invite != table.invite:
        raise Http404("no such table")
    if table.game == "backgammon":
        return _bg_replay(request, table, hand, seat, invite)
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
        names, full, _record_fairness(record), None, 1, record.get("copied_from")
    )
    # A deal played again was not shuffled from this table's seeds: its check is the
    # original hand's, from the seeds that table revealed (seats moved round by "shift").
    origin = record.get("copied_from") or {
        "server_seed": record["server_seed"],
        "client_seeds": record["client_seeds"],
        "commitment": record["commitment"],
        "counter": record["counter"],
        "shift": 0,
    }
    shift = int(origin["shift"])
    first = fair.deal(origin["server_seed"], origin["client_seeds"], origin["counter"])
    recomputed = [first[(s + shift) % 4] for s in range(4)]
    snippet = VERIFY_SNIPPET.format(
        seed=origin["server_seed"],
        clients=repr(list(origin["client_seeds"])),
        commitment=origin["commitment"],
        counter=origin["counter"],
    )
    again_url = reverse("game:again", args=[table.pk, hand])
    context = {
        "table": table,
        "hand": hand,
        "variant_name": table_render.variant_name(table.variant),
        "tricks": tricks,
        "hands": hands,
        "summary": summary,
        "result": result,
        "record": record,
        "origin": origin,
        "chain_ok": _chain_matches(origin["server_seed"], origin["commitment"], origin["counter"]),
        "deal_ok": recomputed == deal,
        "snippet": snippet,
        "trump": table_render.suit_name(full["trump"]) if full.get("trump") else "",
        "trump_origin": _trump_origin(names, full),
        "table_url": _table_url(table, invite or None),
        # This hand's cards are a copy (its fairness is the original's) ...
        "copied": table_render.copied_link(record.get("copied_from")),
        # ... or the table began with one and this later hand was shuffled here.
        "table_copied": table_render.copied_link(services.copied_from(table)),
        "again_url": f"{again_url}?{urlencode({'invite': invite})}" if invite else again_url,
    }
    return render(request, "game/replay.html", context)


def _trump_origin(names: Any, full: dict[str, Any]) -> str:
    """Who the hakim was and where trump came from, for the top of a replay (a newcomer
    could not tell): read from the finished hand's view, whose history shows every action
    once the hand is over. No trump (a redeal): nothing."""
    caller, trump = full.get("caller"), full.get("trump")
    if caller is None or not trump:
        return ""
    verbs = {str(a).partition(":")[0] for _s, a in full.get("history") or []}
    values = {"who": names.name(int(caller)), "suit": table_render.suit_name(trump)}
    if "thirteenth" in verbs and full.get("thirteenth_card"):
        values["card"] = table_render.card_name(full["thirteenth_card"])
        return _(
            "Hakim (who chose trump): %(who)s. Trump: %(suit)s, the suit of the hakim's "
            "thirteenth card, the %(card)s."
        ) % values
    if full.get("turned_card"):
        values["card"] = table_render.card_name(full["turned_card"])
        return _(
            "Hakim: %(who)s. Trump: %(suit)s, the suit of the card turned up when time ran "
            "out, the %(card)s."
        ) % values
    if "hide" in verbs:
        return _(
            "Hakim (who chose trump): %(who)s. Trump: %(suit)s, from the card the hakim "
            "placed face down."
        ) % values
    if "bid" in verbs:
        return _("Hakim (who won the bidding): %(who)s. Trump: %(suit)s, named in the bid.") % (
            values
        )
    if "call" in verbs:
        return _(
            "Hakim (who chose trump): %(who)s. Trump: %(suit)s, chosen from the hakim's hand."
        ) % values
    return _("Hakim (who chose trump): %(who)s. Trump: %(suit)s.") % values


def _record_fairness(record: dict[str, Any]) -> dict[str, Any]:
    """A fairness block for one hand's summary, from its record (``given``: a copy)."""
    block: dict[str, Any] = {
        "commitment": record["commitment"],
        "server_seeds": [record["server_seed"]],
    }
    if record.get("copied_from"):
        block["given"] = [0]
    return block


@require_http_methods(["GET", "POST"])
def deal_again(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """Play a finished hand's deal again at a new table (issue #9). GET: what that means
    and the choices (everyone: against three bots, like Play now; signed in: seats,
    timer and privacy for friends, as on "Create a table"). POST: the new table, then
    its page (with its invite link for a private one). Every refusal changes nothing."""
    owner = services.owner_from_request(request)
    invite = request.POST.get("invite") or request.GET.get("invite") or None
    try:
        source, _copied = services.deal_to_copy(
            table_id=table_id, hand=hand, owner=owner, invite=invite
        )
    except services.TableError as error:
        return _error_page(request, error)
    how = request.POST.get("with") if request.method == "POST" else None
    form = DealAgainForm(request.POST if how == "form" else None, private_only=source.private)
    if request.method == "POST":
        if how not in ("bots", "form"):
            return _error_page(request, services.TableError("bad_request", "with is bots or form"))
        choices: dict[str, Any] | None = None
        if how == "form" and form.is_valid():
            data = form.cleaned_data
            choices = {
                "private": bool(data.get("private")),
                "bots": data["bots"],
                "move_seconds": data["move_seconds"],
                "spectators": bool(data.get("spectators")),
            }
        if how == "bots" or choices is not None:
            try:
                table = services.play_deal_again(
                    owner=owner, table_id=table_id, hand=hand, invite=invite, **(choices or {})
                )
            except services.TableError as error:
                if how == "bots" or error.code == "needs_account":
                    return _error_page(request, error)
                form.add_error(None, table_render.error_text(error.code))
            else:
                return HttpResponseRedirect(_table_url(table))
    replay_url = reverse("game:replay", args=[source.pk, hand])
    context = {
        "source": source,
        "hand": hand,
        "variant_name": table_render.variant_name(source.variant),
        # Seated there: they hold their own cards again (services.deal_to_copy); else
        # the cards of seat 0, named as the replay page names it.
        "own_cards": services.seat_of(source, owner) is not None,
        "holder": table_render._Seats(
            {"seat": None, "seats": services.state_payload(source.pk, None)["seats"]}
        ).name(0),
        "form": form,
        "guest": not owner.is_user,
        "invite": invite or "",
        "replay_url": f"{replay_url}?{urlencode({'invite': invite})}" if invite else replay_url,
    }
    # Reached by a POST only when the form was refused: say so in the status too.
    status = 400 if request.method == "POST" else 200
    return render(request, "game/deal_again.html", context, status=status)


def new_bg_table(request: HttpRequest) -> HttpResponse:
    """Create a backgammon table: money game or match, the house rules the engine has,
    the bot and its level (``game.bgtable`` checks them again)."""
    form = BgTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        made = _create_from_form(
            request, form, game="backgammon", length=form.cleaned_data["length"]
        )
        if made is not None:
            return made
    return render(request, "game/new_bg_table.html", {"form": form, "guest": _is_guest(request)})


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


def _bg_steps(game: bg.Game) -> list[dict[str, Any]]:
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
            row["text"] = bgrender.action_label("roll")
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
            row["text"] = bgboard.describe_play(action[5:]) if action[5:] else _("No legal move")
        else:
            row["text"] = bgrender.action_label(action)
        row["position_id"] = pos.to_id()
        out.append(row)
    return out


def _bg_replay(
    request: HttpRequest, table: Table, hand: int, seat: int | None, invite: str
) -> HttpResponse:
    try:
        record = services.hand_record(table.pk, hand)
    except services.TableError as error:
        if error.code == "not_found":
            raise Http404("that game is not over") from None
        return _error_page(request, error)
    game = spec(table.game).finished(states.load(table))[hand - 1]
    names = bgrender._names({"seats": services.state_payload(table.pk, None)["seats"]})
    steps = _bg_steps(game)
    for row in steps:
        row["who"] = bgrender.who(row["seat"], seat, names) if row["seat"] is not None else ""
    dice = [list(d) for d in record["dice"]]
    recomputed = [
        list(fair.dice(record["server_seed"], record["client_seeds"], n)) for n in range(len(dice))
    ]
    result = game.result
    context = {
        "table": table,
        "hand": hand,
        "steps": steps,
        "result": bgrender._result({"result": dataclasses.asdict(result)}, seat, names)
        if result is not None
        else None,
        "record": record,
        "dice": [f"{a}-{b}" for a, b in dice],
        "chain_ok": _chain_matches(record["server_seed"], record["commitment"], record["counter"]),
        "dice_ok": recomputed == dice,
        "snippet": BG_VERIFY_SNIPPET.format(
            seed=record["server_seed"],
            clients=repr(list(record["client_seeds"])),
            commitment=record["commitment"],
            counter=record["counter"],
            dice=repr(dice),
        ),
        "mat": bool(record.get("mat")),
        "table_url": _table_url(table, invite or None),
    }
    return render(request, "game/bg_replay.html", context)


@require_GET
def bg_mat(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """Games 1..hand of a backgammon table as a Jellyfish .mat file, for GNU Backgammon
    or eXtreme Gammon (404 until that game is over, or where .mat cannot say it)."""
    table = get_object_or_404(Table, pk=table_id, game="backgammon")
    owner = services.owner_from_request(request)
    if not _may_read(request, table, owner):
        raise Http404("no such table")
    try:
        record = services.hand_record(table.pk, hand)
    except services.TableError as error:
        if error.code == "not_found":
            raise Http404("that game is not over") from None
        return _error_page(request, error)
    if not record.get("mat"):
        raise Http404("this game has no .mat form (a Nackgammon start)")
    response = HttpResponse(record["mat"], content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="baithak-{table.pk}-{hand}.mat"'
    return response
