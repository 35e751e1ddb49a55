"""Writes to players' statistics. Live tables call :func:`record_result` when a game ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.games import game_codes
from accounts.models import GameStats
from accounts.rating import MODEL


def record_result(
    game: str,
    teams: Sequence[Sequence[Any]],
    winning_team: int,
    abandoned: Sequence[Any] = (),
) -> None:
    """Count one finished game for every player and update their ratings.

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


def _validate(game: str, teams: Sequence[Sequence[Any]], winning_team: int) -> None:
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
            if not getattr(user, "is_authenticated", False) or user.pk is None:
                raise ValueError(f"{user!r} is not a registered player")
            if user.pk in seen:
                raise ValueError(f"{user!r} appears more than once")
            seen.add(user.pk)
