"""What the home page shows beyond its words: the live figures (tables playing, players
online), the visitor's lesson progress, and its picture.

The figures are read from the database with three aggregate queries and kept in Django's
cache for a few seconds, so a busy front door costs the database three small queries every
LIVE_SECONDS whatever the traffic.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from game.models import Seat, Table
from game.tables import access
from guide import figures
from tutorials import progress
from tutorials.content import get_text
from tutorials.lessons import LESSONS

LIVE_CACHE_KEY = "home:live-figures"
LIVE_SECONDS = 5


def live_figures() -> dict[str, int]:
    """{"tables": games being played with a person at them now (private games against
    bots too), "open": public
    tables waiting or being played (what the Live tables page lists: a guest's Play now
    table is private, so it is counted in "tables" only), "players": people (accounts
    and guests, never bots) with a table open right now}, at most LIVE_SECONDS old."""
    figures_now = cache.get(LIVE_CACHE_KEY)
    if figures_now is None:
        # Games someone is at now: a table whose people have all gone (the bots finish
        # it, or it waits to be resumed) is not a game being played to a visitor, who
        # read "19 games" beside "1 player".
        tables = (
            Table.objects.filter(
                status=Table.PLAYING, seats__connections__gt=0, seats__bot=False
            )
            .distinct()
            .count()
        )
        # the lobby's own filter (game.tables.frames.list_open_tables)
        open_tables = Table.objects.filter(
            private=False, status__in=[Table.WAITING, Table.PLAYING]
        ).count()
        # A seat's `connections` counts its open sockets over every server process; one
        # person seated at two tables is one player online.
        players = (
            Seat.objects.filter(connections__gt=0, bot=False)
            .order_by()
            .values("user_id", "guest_key")
            .distinct()
            .count()
        )
        figures_now = {"tables": tables, "open": open_tables, "players": players}
        cache.set(LIVE_CACHE_KEY, figures_now, LIVE_SECONDS)
    return dict(figures_now)


def players_with_visitor(players: int, owner: access.Owner) -> int:
    """The "players online" figure as the visitor reads it: the people at a table with a
    socket open (``live_figures``, counted over every server process from the seats'
    ``connections``), and the visitor, who is online too, once. A newcomer on the home page
    read "Players online 0". Someone already counted (a table open in another tab) is not
    counted twice: one small query, and none for a first visit (no account, no guest key:
    no seat anywhere)."""
    if not owner.is_user and not owner.guest_key:
        return players + 1
    mine = Q(user=owner.user) if owner.is_user else Q(guest_key=owner.guest_key)
    seated = Seat.objects.filter(mine, connections__gt=0, bot=False).exists()
    return players if seated else players + 1


def lesson_progress(request: Any) -> dict[str, Any]:
    """The visitor's lessons (account or guest session, as tutorials.progress keeps them):
    how many are done, stars won of the most there are, and the lesson to open next."""
    lang = translation.get_language()
    stars = progress.all_stars(request)
    lessons = [(lesson, get_text(lang, lesson.slug)) for lesson in LESSONS]
    lessons = [(lesson, text) for lesson, text in lessons if text is not None]
    done = sum(1 for lesson, _text in lessons if stars.get(lesson.slug, 0))
    won = sum(min(stars.get(lesson.slug, 0), 3) for lesson, _text in lessons)
    following = next(
        ((lesson, text) for lesson, text in lessons if not stars.get(lesson.slug, 0)), None
    )
    return {
        "done": done,
        "total": len(lessons),
        "stars": won,
        "max_stars": 3 * len(lessons),
        "next_title": following[1].title if following else None,
        "next_url": (
            reverse("tutorials:lesson", kwargs={"slug": following[0].slug}) if following else None
        ),
    }


# --- the picture ---------------------------------------------------------------------------

WIDTH, HEIGHT = 660, 320
_BOARD_SCALE = 0.8
# A trick of Rung on the table, clubs trump: the seven of clubs cuts the ace of hearts.
_TRICK = (("K", "H", 122, 28), ("A", "H", 212, 120), ("7", "C", 122, 212), ("Q", "H", 32, 120))
_WINNER = 2


def _table() -> str:
    parts = [
        '<ellipse cx="150" cy="160" rx="146" ry="150" fill="#6b4a2b"/>',
        '<ellipse cx="150" cy="160" rx="132" ry="136" fill="#2f6b4f"/>',
        '<ellipse cx="150" cy="160" rx="132" ry="136" fill="none" stroke="#24563f" '
        'stroke-width="3"/>',
    ]
    parts += [
        figures.card(rank, suit, x, y, highlight=i == _WINNER)
        for i, (rank, suit, x, y) in enumerate(_TRICK)
    ]
    return "".join(parts)


@lru_cache(maxsize=8)
def _picture(lang: str) -> str:
    with translation.override(lang):
        title = _(
            "A card table with a trick of Rung on it, beside a backgammon board set for "
            "the first roll"
        )
        board_x = WIDTH - figures.BOARD_W * _BOARD_SCALE - 4
        board_y = (HEIGHT - figures.BOARD_H * _BOARD_SCALE) / 2
        body = (
            _table()
            + f'<g transform="translate({board_x:g} {board_y:g}) scale({_BOARD_SCALE:g})">'
            + figures.board_body(figures.START)
            + "</g>"
        )
        return figures.svg_image(title, WIDTH, HEIGHT, body, "home-picture")


def picture() -> str:
    """Our own drawing: a card table with a trick on it and a backgammon board, as inline
    SVG from the guide's figure helpers (same cards and board as the rules pages)."""
    return _picture(translation.get_language() or "en")
