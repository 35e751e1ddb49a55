"""Court Piece's own pages: a new table, a finished hand's summary (the live table fetches
it while the next hand starts), its replay with the check of its deal, and a deal played
again. Every write goes through the table services (game.tables)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from game.courtpiece import steps, variants
from game.courtpiece.cards import card, sort_hand
from game.courtpiece.forms import DealAgainForm, NewTableForm
from game.courtpiece.levels import level_text
from game.courtpiece.seats import Seats
from game.courtpiece.summary import announce_summary, hand_summary, young_hand
from game.courtpiece.words import card_name, goal_text, suit_name
from game.engine import courtpiece as cp
from game.engine import fair
from game.models import Table
from game.tables import access, botlevel, deal_again, frames, records, registry
from game.tables.errors import TableError
from game.tables.pages import (
    copied_link,
    create_from_form,
    error_page,
    finished_record,
    is_guest,
    readable_table,
    table_url,
)
from game.tables.store import replay
from game.tables.words import error_text


def options_text(variant: str, options: dict[str, Any], length: int = 0) -> list[str]:
    """A table's house rules in a few words, for the lobby."""
    engine = cp.VARIANTS.get(variant)
    if engine is None:
        return []
    words = [
        f"{variants.option_label(variant, name)}: "
        f"{variants.choice_label(options.get(name, opt.default))}"
        for name, opt in engine.options.items()
    ]
    return [*words, level_text(options)]


def last_hand(table: Table, seat: int | None) -> dict[str, Any] | None:
    """The hand that just ended, while the next one has not really begun (or the match
    is over): shown as the summary. Only its own seat's view, as in the live frame."""
    match = replay.load(table)
    hands = registry.spec(table.game).finished(match)
    if not hands:
        return None
    if not match.is_over and not young_hand(match.hand.view(seat)):
        return None  # the next hand has its first card down: the summary has had its time
    return hands[-1].view(seat)


def new_table(request: HttpRequest) -> HttpResponse:
    levels = botlevel.choices(request, "courtpiece")
    chosen = next((level["value"] for level in levels if level["selected"]), None)
    form = NewTableForm(request.POST or None, initial={"bot_level": chosen} if chosen else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        made = create_from_form(request, form, game="courtpiece", variant=data["variant"])
        if made is not None:
            return made
    return render(
        request,
        "courtpiece/new_table.html",
        {"form": form, "guest": is_guest(request), "bot_levels": {"courtpiece": levels}},
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


@require_GET
def summary_page(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """The result of a finished hand as a fragment, for the live table to show while the
    next hand starts (the socket's frame only carries the hand being played)."""
    table = readable_table(request, table_id, game="courtpiece")
    owner = access.owner_from_request(request)
    try:
        record = finished_record(table, hand)
    except TableError as error:
        return error_page(request, error)
    seat = access.seat_of(table, owner)
    finished = cp.from_record(record["record"]).view(seat)
    public = frames.state_payload(table.pk, None)
    seats = Seats({"seat": seat, "seats": public["seats"]})
    summary = hand_summary(
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
        "courtpiece/partials/summary_fragment.html",
        {
            "summary": summary,
            "announce": announce_summary(summary),
            "goal": goal_text(((public.get("view") or {}).get("match")) or {}),
        },
    )


def replay_page(
    request: HttpRequest, table: Table, hand: int, seat: int | None, invite: str
) -> HttpResponse:
    """A finished hand trick by trick, all four hands face up (only once it is over),
    with the check of its deal (``COURTPIECE.pages.replay``; game.tables.pages.replay
    has checked who may see it)."""
    try:
        record = finished_record(table, hand)
    except TableError as error:
        return error_page(request, error)
    finished = cp.from_record(record["record"])
    seats = frames.state_payload(table.pk, None)["seats"]
    names = Seats({"seat": seat, "seats": seats})
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
                        **card(c["card"]),  # type: ignore[dict-item]
                        "who": names.name(c["seat"]),
                        "won": c["seat"] == trick["winner"],
                        "step": (number - 1) * 4 + i + 1,
                    }
                    for i, c in enumerate(trick["cards"])
                ],
            }
        )
    hands = [
        {
            "seat": s,
            "deal": " ".join(deal[s]),  # as received: what the browser's check compares
            "who": names.name(s),
            "groups": [
                {
                    "suit_name": suit_name(suit),
                    "cards": [card(c) for c in cards],
                }
                for suit, cards in sort_hand(deal[s])
            ],
        }
        for s in range(4)
    ]
    result = full["result"] or {}
    summary = hand_summary(
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
    analysis_query = {"hand": hand, "lang": get_language()}
    if invite:
        analysis_query["invite"] = invite
    context = {
        "table": table,
        "hand": hand,
        "variant_name": variants.title(table.variant),
        "tricks": tricks,
        "hands": hands,
        "summary": summary,
        "result": result,
        "record": record,
        "origin": origin,
        "chain_ok": records.seed_is_committed(
            origin["server_seed"], origin["commitment"], origin["counter"]
        ),
        "deal_ok": recomputed == deal,
        "snippet": snippet,
        "origin_clients": json.dumps(list(origin["client_seeds"])),
        "trump": suit_name(full["trump"]) if full.get("trump") else "",
        "trump_origin": trump_origin(names, full),
        "table_url": table_url(table, invite or None),
        # This hand's cards are a copy (its fairness is the original's) ...
        "copied": copied_link(record.get("copied_from")),
        # ... or the table began with one and this later hand was shuffled here.
        "table_copied": copied_link(frames.copied_from(table)),
        "again_url": f"{again_url}?{urlencode({'invite': invite})}" if invite else again_url,
        "stepper": steps.replay_data(finished, names),
        "places": ("top", "left", "right", "bottom"),
        "analysis_url": reverse("api_analysis", args=[table.pk]) + "?" + urlencode(analysis_query),
        # the viewer's own mistakes as puzzles (tutorials.mistakes): for a seat's player only
        "mistakes_url": reverse("tutorials:own_hand", args=[table.pk, hand])
        if seat is not None
        else "",
    }
    return render(request, "courtpiece/replay.html", context)


def trump_origin(names: Any, full: dict[str, Any]) -> str:
    """Who the hakim was and where trump came from, for the top of a replay (a newcomer
    could not tell): read from the finished hand's view, whose history shows every action
    once the hand is over. No trump (a redeal): nothing."""
    caller, trump = full.get("caller"), full.get("trump")
    if caller is None or not trump:
        return ""
    verbs = {str(a).partition(":")[0] for _s, a in full.get("history") or []}
    values = {"who": names.name(int(caller)), "suit": suit_name(trump)}
    if "thirteenth" in verbs and full.get("thirteenth_card"):
        values["card"] = card_name(full["thirteenth_card"])
        return _(
            "Hakim (who chose trump): %(who)s. Trump: %(suit)s, the suit of the hakim's "
            "thirteenth card, the %(card)s."
        ) % values
    if full.get("turned_card"):
        values["card"] = card_name(full["turned_card"])
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
def deal_again_page(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """Play a finished hand's deal again at a new table. GET: what that means
    and the choices (everyone: against three bots, like Play now; signed in: seats,
    timer and privacy for friends, as on "Create a table"). POST: the new table, then
    its page (with its invite link for a private one). Every refusal changes nothing."""
    owner = access.owner_from_request(request)
    invite = request.POST.get("invite") or request.GET.get("invite") or None
    try:
        source, _copied = deal_again.deal_to_copy(
            table_id=table_id, hand=hand, owner=owner, invite=invite
        )
    except TableError as error:
        return error_page(request, error)
    how = request.POST.get("with") if request.method == "POST" else None
    form = DealAgainForm(request.POST if how == "form" else None, private_only=source.private)
    if request.method == "POST":
        if how not in ("bots", "form"):
            return error_page(request, TableError("bad_request", "with is bots or form"))
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
                table = deal_again.play_deal_again(
                    owner=owner, table_id=table_id, hand=hand, invite=invite, **(choices or {})
                )
            except TableError as error:
                if how == "bots" or error.code == "needs_account":
                    return error_page(request, error)
                form.add_error(None, error_text(error.code))
            else:
                return HttpResponseRedirect(table_url(table))
    replay_url = reverse("game:replay", args=[source.pk, hand])
    context = {
        "source": source,
        "hand": hand,
        "variant_name": variants.title(source.variant),
        # Seated there: they hold their own cards again (deal_again.deal_to_copy); else
        # the cards of seat 0, named as the replay page names it.
        "own_cards": access.seat_of(source, owner) is not None,
        "holder": Seats(
            {"seat": None, "seats": frames.state_payload(source.pk, None)["seats"]}
        ).name(0),
        "form": form,
        "guest": not owner.is_user,
        "invite": invite or "",
        "replay_url": f"{replay_url}?{urlencode({'invite': invite})}" if invite else replay_url,
    }
    # Reached by a POST only when the form was refused: say so in the status too.
    status = 400 if request.method == "POST" else 200
    return render(request, "courtpiece/deal_again.html", context, status=status)
