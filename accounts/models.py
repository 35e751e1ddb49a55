"""A player's profile and per-game statistics.

The user model stays Django's own; what Baithak adds hangs off it: ``user.profile`` (one
per user, created with the user) and ``user.game_stats`` (one row per game played).
Other code relies on the names ``profile`` and ``language``: the home redirect reads
``request.user.profile.language``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.rating import MODEL

NAME_LIMIT = 40  # the longest name shown: a display name's own limit


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        _("display name"),
        max_length=NAME_LIMIT,
        blank=True,
        help_text=_("Shown at the table and on your statistics page. Empty: your username."),
    )
    language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("The site opens in this language whenever you are signed in."),
    )
    # Which side of the backgammon board a player's home board is on (issue #10): a
    # left-to-right or right-to-left habit. Empty: by the page's language (game.backgammon.render).
    board_home = models.CharField(
        _("backgammon home board"),
        max_length=5,
        blank=True,
        default="",
        choices=[
            ("", _("By language (left in Urdu, right in Hindi and English)")),
            ("right", _("On the right")),
            ("left", _("On the left")),
        ],
        help_text=_("Where your home board is drawn at the backgammon table."),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A display name holds no invisible or direction-changing character and is not
        another player's username, in any case (accounts.names). Run by the profile form
        and the admin (ModelForm validation)."""
        name = self.display_name or ""
        if not name:
            return
        users = get_user_model().objects
        taken = (
            users.filter(**{f"{users.model.USERNAME_FIELD}__iexact": names.as_username(name)})
            .exclude(pk=self.user_id)
            .exists()
        )
        try:
            names.check_display_name(name, taken_username=taken)
        except ValidationError as error:
            raise ValidationError({"display_name": error}) from None

    @property
    def name(self) -> str:
        """What other players see: the display name, or the username when none is set."""
        return self.shown_name(self.display_name, self.user.get_username())

    @staticmethod
    def shown_name(display_name: str | None, username: str) -> str:
        """:attr:`name` from the two columns (``None``: no profile), for readers of rows.
        Never longer than a display name may be: a longer username (up to 150 characters)
        is cut with an ellipsis, so every sentence and seat that names a player stays
        readable (issue #26)."""
        name = (display_name or "").strip() or username
        return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


class GameStats(models.Model):
    """One player's record and rating in one game (a Court Piece variant or Backgammon).

    Written only by :func:`accounts.services.record_result`; the rating is openskill's
    Plackett-Luce (mu, sigma), shown as the conservative ``ordinal`` (mu - 3 sigma).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats"
    )
    # A rating family a game declared (accounts.games): no choices= here, so a new game
    # or variant needs no migration of this table.
    game = models.CharField(_("game"), max_length=20)
    played = models.PositiveIntegerField(_("played"), default=0)
    won = models.PositiveIntegerField(_("won"), default=0)
    lost = models.PositiveIntegerField(_("lost"), default=0)
    # Of the games lost, those the player left while they were being played (live tables).
    abandoned = models.PositiveIntegerField(_("abandoned"), default=0)
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game statistics")
        verbose_name_plural = _("game statistics")
        constraints = (
            models.UniqueConstraint(fields=["user", "game"], name="one_stats_row_per_game"),
            models.CheckConstraint(
                condition=models.Q(played=models.F("won") + models.F("lost")),
                name="played_is_won_plus_lost",
            ),
        )
        ordering = ("user_id", "game")

    def __str__(self) -> str:
        return f"{self.user} · {self.game}"

    @property
    def rating(self) -> float:
        """The conservative rating shown to players: openskill's ordinal, mu - 3 sigma."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


class GameResult(models.Model):
    """One finished game (a match at a live table) as one signed-in player played it:
    rated or not (against bots, with guests, Play now), won or lost, and for a rated
    game the rating it left. The player's page counts the unrated ones apart, lists the
    recent ones with their replays and draws the rating's course from the rated ones.

    Written only by :func:`accounts.services.record_game`. ``table`` is the live table's
    number (accounts imports nothing of the games: a plain number, not a key)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results"
    )
    game = models.CharField(_("game"), max_length=20)  # a rating family (accounts.games)
    table = models.PositiveIntegerField()
    hands = models.PositiveSmallIntegerField(default=0)  # finished hands (or games): replays
    private = models.BooleanField(default=False)  # listed on the public page only if False
    rated = models.BooleanField(default=False)
    won = models.BooleanField(default=False)
    abandoned = models.BooleanField(default=False)
    # Who else sat there: "bot", "guest" or "@username", partners first (team games).
    partners = models.JSONField(default=list, blank=True)
    opponents = models.JSONField(default=list, blank=True)
    rating = models.FloatField(null=True, blank=True)  # rated games: the ordinal after it
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        constraints = (
            models.UniqueConstraint(fields=["user", "table"], name="one_result_per_table"),
        )
        indexes = (models.Index(fields=["user", "-finished_at"], name="result_recent"),)
        ordering = ("-finished_at", "-pk")

    def __str__(self) -> str:
        return f"{self.user} · {self.game} · table {self.table}"
