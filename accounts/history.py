"""What the player's page shows of their finished games: the unrated games counted
apart from the rated ones, the recent games with their replays, and each rating's
course over time as a small chart drawn here, on the server (an SVG: no chart library,
no script), with its figures as text too."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from accounts.games import game_choices
from accounts.models import GameResult
from accounts.rating import MODEL

RECENT = 10  # the history's rows
CHART_POINTS = 30  # the chart's last rated games
WIDTH, HEIGHT, PAD = 320, 120, 8  # the chart's drawing, in SVG units


def unrated_counts(user: Any) -> dict[str, dict[str, int]]:
    """Per game family, the player's unrated games: played, won, lost."""
    rows = (
        GameResult.objects.filter(user=user, rated=False)
        .values("game")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
    )
    return {
        r["game"]: {"played": r["played"], "won": r["won"], "lost": r["played"] - r["won"]}
        for r in rows
    }


def _who(entry: str) -> dict[str, Any]:
    if entry == "bot":
        return {"name": _("Bot"), "url": None}
    if entry == "guest":
        return {"name": _("Guest"), "url": None}
    username = entry.removeprefix("@")
    return {"name": username, "url": reverse("player", args=[username])}


def _replays(result: GameResult) -> list[dict[str, Any]]:
    try:
        return [
            {"n": n, "url": reverse("game:replay", args=[result.table, n])}
            for n in range(1, result.hands + 1)
        ]
    except NoReverseMatch:  # the live tables are not installed here
        return []


def recent(user: Any, *, is_self: bool, limit: int = RECENT) -> list[dict[str, Any]]:
    """The newest finished games, newest first: a visitor sees only those played at
    public tables (a private table's replays are for those who sat there)."""
    results = GameResult.objects.filter(user=user)
    if not is_self:
        results = results.filter(private=False)
    labels = dict(game_choices())
    return [
        {
            "result": r,
            "label": labels.get(r.game, r.game),
            "partners": [_who(p) for p in r.partners],
            "opponents": [_who(p) for p in r.opponents],
            "replays": _replays(r),
        }
        for r in results[:limit]
    ]


def _scale(values: list[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1:
        mid = (high + low) / 2
        low, high = mid - 0.5, mid + 0.5
    return low, high


def chart(ratings: list[tuple[Any, float]]) -> dict[str, Any]:
    """The drawing of one rating's course: ``ratings`` are (when, rating) after each
    rated game, oldest first; the chart starts from the rating every player starts
    with. Returns the SVG's points and the figures for the text beside it."""
    start = MODEL.rating().ordinal()
    values = [start] + [r for _when, r in ratings[-CHART_POINTS:]]
    low, high = _scale(values)
    steps = max(len(values) - 1, 1)
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    points = [
        (
            round(PAD + inner_w * i / steps, 1),
            round(PAD + inner_h * (high - v) / (high - low), 1),
        )
        for i, v in enumerate(values)
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "polyline": " ".join(f"{x},{y}" for x, y in points),
        "last": points[-1],
        "low": low,
        "high": high,
        "start": start,
        "first": values[1] if len(values) > 1 else start,
        "now": values[-1],
        "count": len(values) - 1,
        "figures": [{"when": when, "rating": r} for when, r in ratings[-CHART_POINTS:]],
    }


def rating_courses(user: Any) -> list[dict[str, Any]]:
    """One chart per game family the player has rated games in, in the games' order."""
    by_game: dict[str, list[tuple[Any, float]]] = {}
    rows = (
        GameResult.objects.filter(user=user, rated=True, rating__isnull=False)
        .order_by("finished_at", "pk")
        .values_list("game", "finished_at", "rating")
    )
    for game, when, rating in rows:
        by_game.setdefault(game, []).append((when, rating))
    return [
        {"code": code, "label": label, "chart": chart(by_game[code])}
        for code, label in game_choices()
        if code in by_game
    ]
