"""Ratings (等级分) and the figures player statistics are read from.

A :class:`RatingPool` is a set of sessions rated against each other: a club's own tables, or
one tournament's tables. Each finished session of a pool is one rated match; a
:class:`RatingChange` row keeps what it did to each of its four players (before, after, the
places the model expected, the place he took), so a page can say why a rating moved;
:class:`Rating` is where each player stands now. Every row names the :class:`RatingSystem`
(the model, its parameters, the library version) that computed it.

:class:`SessionLine` and :class:`WinLine` are the statistics' read model: one row per seated
player of a finished session and one per win, written from the session's hands whenever the
session changes (``ratings.services.session_refresh``), so that a ranking over 20,000 hands
adds up a few thousand rows instead of reading every hand's settlement.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from clubs.models import Club, Player, TableSession
from ratings.enums import ALL_TIME, PROVISIONAL_SESSIONS  # noqa: F401 (read from here too)
from tournaments.models import Tournament


class RatingSystem(models.Model):
    """A rating model with its parameters and the version of the library that ran it."""

    model = models.CharField(max_length=40)
    parameters = models.JSONField()
    library_version = models.CharField(max_length=20)
    key = models.CharField(max_length=64, unique=True, help_text="hash of the three")

    def __str__(self) -> str:
        return f"{self.model} (openskill {self.library_version})"


class RatingPool(models.Model):
    """Sessions rated against each other: a club's own tables (``tournament`` empty), or the
    tables of one tournament."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_pools")
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_pools"
    )
    system = models.ForeignKey(RatingSystem, on_delete=models.PROTECT, related_name="pools")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club"], condition=Q(tournament__isnull=True), name="one_pool_per_club"
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(tournament__isnull=False),
                name="one_pool_per_tournament",
            ),
        ]

    def __str__(self) -> str:
        return f"ratings of {self.tournament or self.club}"


class Rating(models.Model):
    """Where a player stands in a pool after every session rated so far."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    system = models.ForeignKey(RatingSystem, on_delete=models.PROTECT, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="the display rating: ordinal, a new player 1500")
    sessions = models.PositiveIntegerField(help_text="rated sessions")

    class Meta:
        ordering = ["pool_id", "-rating", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="one_rating_per_pool")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return self.sessions < PROVISIONAL_SESSIONS


class RatingChange(models.Model):
    """What one rated session did to one player's rating, and why: the place the model
    expected of him at that table (``predict_rank``) and the place he took."""

    # no index of their own for pool, player and session: the ones below begin with them (a
    # recompute writes 40,000 rows, and every index is one more write per row); none for the
    # system, which only a rating system's deletion would look rows up by (none is deleted),
    # and which a recompute after a change of model sets on every row: not indexed, a row is
    # rewritten on its page, its indexes untouched
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    system = models.ForeignKey(
        RatingSystem, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    played_at = models.DateTimeField()
    number = models.PositiveIntegerField(help_text="his n-th rated session in the pool")
    score = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    expected_place = models.PositiveSmallIntegerField()
    expected_probability = models.FloatField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()

    class Meta:
        ordering = ["pool_id", "played_at", "session_id", "player_id"]
        indexes = [
            models.Index(fields=["pool", "played_at", "session"], name="rating_change_order"),
            models.Index(fields=["player", "pool", "played_at"], name="rating_change_player"),
        ]
        constraints = [
            # the session first: a session's rows are looked up without their pool (whether
            # it has any, a session's deletion), and with it (what it was rated as)
            models.UniqueConstraint(
                fields=["session", "pool", "player"], name="one_change_per_session"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.rating_before:.0f} → {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class SessionLine(models.Model):
    """One seated player's figures in one finished session (the statistics' read model)."""

    # no index of their own: the indexes and the constraint below begin with each of them
    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="session_lines", db_index=False
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        db_index=False,
    )  # fmt: skip
    kind = models.CharField(max_length=12)
    started_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    tied = models.BooleanField(default=False)
    entered = models.BooleanField(default=False, help_text="totals entered, no hands")
    hands = models.PositiveIntegerField(default=0)
    shown_hands = models.PositiveIntegerField(default=0, help_text="hands shown by tiles")
    wins = models.PositiveIntegerField(default=0)
    self_draws = models.PositiveIntegerField(default=0)
    deal_ins = models.PositiveIntegerField(default=0, help_text="点炮: discards won on")
    self_drawn_against = models.PositiveIntegerField(default=0, help_text="被自摸")
    win_total = models.PositiveIntegerField(default=0, help_text="sum of his wins' values")
    win_max = models.PositiveIntegerField(default=0)
    first_wins = models.PositiveIntegerField(default=0)
    second_wins = models.PositiveIntegerField(default=0)
    third_wins = models.PositiveIntegerField(default=0)
    kongs_concealed = models.PositiveIntegerField(default=0)
    kongs_direct = models.PositiveIntegerField(default=0)
    kongs_added = models.PositiveIntegerField(default=0)
    kong_net = models.IntegerField(default=0)
    transfer_paid = models.PositiveIntegerField(default=0)
    transfer_received = models.PositiveIntegerField(default=0)
    chajiao_paid = models.PositiveIntegerField(default=0)
    chajiao_received = models.PositiveIntegerField(default=0)
    huazhu = models.PositiveIntegerField(default=0)
    exchanged = models.JSONField(
        default=dict, help_text="net received from each other seated player, by player id"
    )

    class Meta:
        ordering = ["started_at", "session_id", "seat"]
        indexes = [
            models.Index(fields=["club", "kind", "started_at"], name="session_line_club"),
            models.Index(fields=["player", "started_at"], name="session_line_player"),
            models.Index(fields=["tournament", "started_at"], name="session_line_tournament"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="one_line_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.player} in session {self.session_id}: {self.score:+d}"


class WinLine(models.Model):
    """One win (胡) of a finished session: what it was and what it was worth."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="+")
    # no index of their own: the indexes below begin with them
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="win_lines", db_index=False
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=12)
    started_at = models.DateTimeField()
    hand_number = models.PositiveIntegerField()
    preset = models.CharField(max_length=40)
    pattern = models.CharField(max_length=40)
    roots = models.PositiveSmallIntegerField()
    amount = models.PositiveIntegerField(help_text="what each payer paid for the win")
    order = models.PositiveSmallIntegerField(help_text="1st, 2nd or 3rd to win the hand")
    self_draw = models.BooleanField()
    verified = models.BooleanField(help_text="shown by tiles; false: declared")

    class Meta:
        ordering = ["started_at", "session_id", "hand_number", "order"]
        indexes = [
            models.Index(fields=["club", "kind", "started_at"], name="win_line_club"),
            models.Index(fields=["player", "started_at"], name="win_line_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.pattern} {self.amount}"


class AwardHolder(models.Model):
    """A winner of one award of a club's season: a read model of ``club_awards``, rewritten by
    ``ratings.services.club_awards_refresh`` after every write that moves the club's lines
    (the ``ratings.refresh_awards`` task), so that a player's page reads his awards in one
    query instead of adding up the whole club's lines.

    A season is a year in the club's time zone (1 January to 31 December), or
    :data:`ALL_TIME`. Tied winners each have a row; an award nobody earned has none. Names are
    not kept: they are read when shown, so renaming a player moves nothing here."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.PositiveSmallIntegerField(help_text="a year; 0: all time")
    code = models.CharField(max_length=40, help_text="the award's code (ratings.awards)")
    order = models.PositiveSmallIntegerField(help_text="the award's place in AWARDS")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    value = models.FloatField(help_text="his figure, in the award's unit")
    session = models.ForeignKey(
        TableSession, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        help_text="the hand of a one-hand award: its session",
    )  # fmt: skip
    hand_number = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["club_id", "-season", "order", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "season", "code", "player"], name="one_holder_per_award"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.season or 'all time'}: {self.player_id}"


class ClubReadVersion(models.Model):
    """The version of what a club's ranking and its players' pages are computed from: their
    read models are cached under it (``core.readcache``), so moving it is all a write does
    for them to be read afresh — nothing is invalidated by hand, nothing stale is served.

    Moved (``ratings.read_versions.club_read_bump``) when the follow-ups have rewritten the
    club's statistics' lines, ratings or award holders (never on a hand's own request), and
    when what those pages name changes: a membership or its display name, a player's name, the
    club or one of its tournaments (their names, who may read them). A club without a row is
    at version 0."""

    #: the club's id, not a foreign key: a club's deletion removes its rows while its
    #: memberships' and tournaments' deletions, which move this, are still being heard
    club_id = models.BigIntegerField(primary_key=True)
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.club_id}: {self.version}"
