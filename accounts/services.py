"""Writes to players' statistics. Live tables call :func:`record_game` when a game ends:
every signed-in player's result is kept (:class:`GameResult`), and a rated game also
moves the ratings (:func:`record_result`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from accounts.games import game_codes
from accounts.models import GameResult, GameStats
from accounts.rating import MODEL


def record_result(
    game: str,
    teams: Sequence[Sequence[Any]],
    winning_team: int,
    abandoned: Sequence[Any] = (),
) -> dict[int, float]:
    """Count one finished game for every player and update their ratings; returns each
    player's new rating (the ordinal shown), by their primary key.

    ``teams`` lists the sides in seat order, each a list of users: Court Piece passes two
    teams of two (seats {0, 2} and {1, 3}), Backgammon two teams of one. ``winning_team``
    is an index into ``teams``; every other team lost.

    ``abandoned`` lists players (among ``teams``) who left the game while it was being
    played: each is counted as having lost and abandoned it, and rated as a loser even
    if their side, finished by a bot, won.

    Everything happens in one transaction with the players' rows locked, so two tables
    finishing at once cannot lose an update. Bad input raises ``ValueError`` before
    anything is written.
    """
    _validate(game, teams, winning_team)
    players_pk = {user.pk for team in teams for user in team}
    if any(getattr(u, "pk", None) not in players_pk for u in abandoned):
        raise ValueError("every player who abandoned must be in one of the teams")
    leavers = {u.pk for u in abandoned}
    after: dict[int, float] = {}
    with transaction.atomic():
        players = [user for team in teams for user in team]
        for user in players:
            GameStats.objects.get_or_create(user=user, game=game)
        # Lock in one order (by primary key) so concurrent results cannot deadlock.
        rows = {
            row.user_id: row
            for row in GameStats.objects.select_for_update()
            .filter(game=game, user__in=players)
            .order_by("pk")
        }
        team_rows = [[rows[user.pk] for user in team] for team in teams]
        ratings = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in team_rows]
        # openskill ranks: 1 for the winners, 2 for everyone else (a shared second place).
        ranks = [1 if i == winning_team else 2 for i in range(len(teams))]
        new_ratings = MODEL.rate(ratings, ranks=ranks)
        # A leaver on the winning side is rated as if their side had lost.
        lost_ratings = (
            MODEL.rate(ratings, ranks=[2 if i == winning_team else 1 for i in range(len(teams))])
            if leavers
            else new_ratings
        )
        for i, team in enumerate(team_rows):
            for j, row in enumerate(team):
                left = row.user_id in leavers
                new = lost_ratings[i][j] if left and i == winning_team else new_ratings[i][j]
                row.played += 1
                if i == winning_team and not left:
                    row.won += 1
                else:
                    row.lost += 1
                if left:
                    row.abandoned += 1
                row.mu, row.sigma = new.mu, new.sigma
                row.save(
                    update_fields=[
                        "played", "won", "lost", "abandoned", "mu", "sigma", "updated_at"
                    ]
                )
                after[row.user_id] = row.rating
    return after


def who(member: Any) -> str:
    """How a result names someone else at the table: "@username", "bot" or "guest"."""
    if isinstance(member, str):
        if member not in ("bot", "guest"):
            raise ValueError(f"a seat without an account is 'bot' or 'guest', not {member!r}")
        return member
    return "@" + member.get_username()


def record_game(
    game: str,
    sides: Sequence[Sequence[Any]],
    winning_team: int,
    *,
    table: int,
    hands: int,
    finished_at: datetime,
    rated: bool,
    private: bool = False,
    abandoned: Sequence[Any] = (),
) -> list[GameResult]:
    """Keep one finished game for every signed-in player at it.

    ``sides`` lists the teams in seat order as :func:`record_result`'s ``teams`` do, but
    a seat without an account is the string ``"bot"`` or ``"guest"``. A ``rated`` game
    (every seat an account) also updates the ratings (:func:`record_result`) and keeps
    each player's new rating with the result. Recording a table twice changes nothing
    (one result per player and table). Bad input raises ``ValueError`` and writes nothing.
    """
    members = [m for side in sides for m in side]
    users = [m for m in members if not isinstance(m, str)]
    if rated and len(users) != len(members):
        raise ValueError("a rated game has an account at every seat")
    _validate(game, sides, winning_team, accounts_only=False)
    names = {id(m): who(m) for m in members}
    leavers = {u.pk for u in abandoned}
    out: list[GameResult] = []
    with transaction.atomic():
        if GameResult.objects.filter(table=table, user__in=users).exists():
            return out
        after = record_result(game, sides, winning_team, abandoned) if rated else {}
        for i, side in enumerate(sides):
            for member in side:
                if isinstance(member, str):
                    continue
                left = member.pk in leavers
                out.append(
                    GameResult(
                        user=member, game=game, table=table, hands=hands, private=private,
                        rated=rated, won=i == winning_team and not left, abandoned=left,
                        partners=[names[id(m)] for m in side if m is not member],
                        opponents=[
                            names[id(m)] for j, s in enumerate(sides) if j != i for m in s
                        ],
                        rating=after.get(member.pk), finished_at=finished_at,
                    )
                )
        GameResult.objects.bulk_create(out)
    return out


def _validate(
    game: str, teams: Sequence[Sequence[Any]], winning_team: int, accounts_only: bool = True
) -> None:
    codes = game_codes()
    if game not in codes:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(sorted(codes))}")
    if len(teams) < 2:
        raise ValueError("a result needs at least two teams")
    if any(len(team) == 0 for team in teams):
        raise ValueError("every team needs at least one player")
    if isinstance(winning_team, bool) or not isinstance(winning_team, int):
        raise ValueError(f"winning_team must be a team index, not {winning_team!r}")
    if not 0 <= winning_team < len(teams):
        raise ValueError(f"winning_team {winning_team} is not a team (0..{len(teams) - 1})")
    seen: set[int] = set()
    for team in teams:
        for user in team:
            if not accounts_only and user in ("bot", "guest"):
                continue
            if not getattr(user, "is_authenticated", False) or user.pk is None:
                raise ValueError(f"{user!r} is not a registered player")
            if user.pk in seen:
                raise ValueError(f"{user!r} appears more than once")
            seen.add(user.pk)
