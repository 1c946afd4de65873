"""Tournaments (比赛): registration, rounds seated four to a table, table results, standings.

A tournament's tables are ordinary table sessions of its club, so hands recorded there go
through the engine exactly as in a club, and four entered totals are the club's final-result
entry. Who may
do what follows the club's roles: its organisers direct the tournament, its scorers score.
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models

from clubs.models import ConfirmationRule, TableSession

# the choices live in tournaments.enums (read there by code that needs no model); every name
# stays importable from here, as it always was
from tournaments.enums import (  # noqa: F401
    PenaltyReason,
    RegistrationStatus,
    RoundStatus,
    SeatingMethod,
    SubstituteCounts,
    TournamentStatus,
)


class Tournament(models.Model):
    """A tournament: its rules, its schedule of rounds, how it seats and ranks its players."""

    Status = TournamentStatus
    Seating = SeatingMethod

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="tournaments",
        help_text="the host club, or the club made for a tournament without one; "
        "its organisers direct the tournament and its scorers score it",
    )
    hosted = models.BooleanField(default=True, help_text="the club is a host club of its own")
    ruleset = models.ForeignKey(
        "scoring.RulesetSnapshot", on_delete=models.PROTECT, related_name="tournaments"
    )
    base = models.PositiveIntegerField(default=1)
    mode = models.CharField(
        max_length=10, choices=TableSession.Mode.choices, default=TableSession.Mode.XUEZHAN
    )
    rounds = models.PositiveSmallIntegerField()
    hands_per_table = models.PositiveSmallIntegerField(default=8)
    placement_points = models.JSONField(default=list, help_text="points for 1st, 2nd, 3rd, 4th")
    tiebreaks = models.JSONField(default=list)
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.BALANCED)
    seed = models.BigIntegerField(default=0, help_text="seating with the same seed repeats")
    bye_points = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="placement points for a bye; empty: the mean of the placement points",
    )
    bye_table_score = models.IntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    is_public = models.BooleanField(default=True)
    check_in = models.BooleanField(
        default=False, help_text="a round seats only the entries checked in (on the day)"
    )
    round_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a round's time on the clock; none: no clock"
    )
    approve_gate = models.BooleanField(
        default=False,
        help_text="a done table counts in the standings only once the scorekeeper approved it",
    )
    hide_last_rounds = models.PositiveSmallIntegerField(
        default=0,
        help_text="the standings show the players no result of the last N rounds until revealed",
    )
    standings_revealed = models.BooleanField(default=False)
    substitute_counts = models.CharField(
        max_length=10, choices=SubstituteCounts.choices, default=SubstituteCounts.REGISTERED,
        help_text="whose standings, ratings and statistics a substitute's table counts for",
    )  # fmt: skip
    confirmation_rule = models.CharField(
        max_length=8, choices=ConfirmationRule.choices, blank=True,
        help_text="when a hand at the tournament's tables counts (see the club's setting); "
        "empty: the club's rule",
    )  # fmt: skip
    finals_players = models.PositiveSmallIntegerField(
        default=0, help_text="the top 4, 8 or 16 play the last rounds as finals; 0: no finals"
    )
    finals_rounds = models.PositiveSmallIntegerField(
        default=1, help_text="how many of the last rounds are finals (with finals_players)"
    )
    finals_carry = models.BooleanField(
        default=True,
        help_text="the finals rank by all points (carry-over); false: the finals' points alone",
    )
    consolation = models.BooleanField(
        default=True, help_text="the players not in the finals play on at their own tables"
    )
    #: balanced seating plans the whole event; the rounds not yet played wait here
    seating_plan = models.JSONField(default=list, blank=True)
    #: when the standings recompute now waiting in the queue was asked for: a burst of
    #: results queues one (a request older than ``STANDINGS_REQUEST_TTL`` counts as lost)
    standings_requested_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: its background jobs (seating, standings), as ``GET /api/v1/tasks/{id}`` reports them
    tasks = GenericRelation(
        "core.TaskRecord", content_type_field="subject_type", object_id_field="subject_id"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def first_final_round(self) -> int | None:
        """The first of the final rounds (None: no finals)."""
        if not self.finals_players:
            return None
        return self.rounds - self.finals_rounds + 1

    @property
    def bye_fraction(self) -> Fraction:
        if self.bye_points is not None:
            return Fraction(self.bye_points)
        points = self.placement_points
        return Fraction(sum(Fraction(p) for p in points), len(points))


class Registration(models.Model):
    """A player entered in a tournament: seed rating, late entry, withdrawal, pinned table."""

    Status = RegistrationStatus

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="entries")
    seed_rating = models.IntegerField(null=True, blank=True)
    club_name = models.CharField(
        max_length=80, blank=True, help_text="the club he comes from, as the entry list says"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    first_round = models.PositiveSmallIntegerField(
        default=1, help_text="late entries play from this round on"
    )
    withdrawn_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the last round seated before the withdrawal"
    )
    pinned_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="always seated at this table (accessibility)"
    )
    checked_in = models.BooleanField(default=False, help_text="here on the day (签到)")
    private_key = models.CharField(
        max_length=43, unique=True, null=True, blank=True,
        help_text="the player's private page /me/<key>/ (no login): made when first asked "
        "for, replaced to revoke the old link",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    """One round (轮): seated by a Celery task, complete when every table has a result."""

    Status = RoundStatus

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATING)
    method = models.CharField(max_length=10, choices=Tournament.Seating.choices)
    byes = models.JSONField(default=list, help_text="player ids without a table this round")
    quality = models.JSONField(default=dict, blank=True)
    task = models.ForeignKey(
        "core.TaskRecord", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seated_at = models.DateTimeField(null=True, blank=True)
    reseats = models.JSONField(
        default=list, blank=True,
        help_text="each time the round was seated again: reason, by (user id), at",
    )  # fmt: skip
    # the round clock: stored times, never a process (what is left is worked out when read)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_extra_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="added for every table"
    )

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundUnlock(models.Model):
    """An organiser unlocked a round's tables to correct them (they lock when the next round is
    seated, and when the tournament is finished): who, when and why, kept for good."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="unlocks")
    reason = models.CharField(max_length=200)
    unlocked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    unlocked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "unlocked_at", "id"]

    def __str__(self) -> str:
        return f"{self.round} unlocked: {self.reason}"


class Table(models.Model):
    """A table of a round. Its table session holds the seats (in order; seat 0 deals first)
    and the result: hands recorded through the engine, or the four totals entered (the
    clubs' final-result entry). The table's scores are the session's totals either way."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    session = models.OneToOneField(
        "clubs.TableSession", on_delete=models.PROTECT, related_name="tournament_table"
    )
    clock_extra_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="added to the round's clock for this table alone"
    )
    approved_version = models.PositiveBigIntegerField(
        null=True, blank=True,
        help_text="the table session's data version the scorekeeper approved: a later change "
        "to the table needs approving again",
    )  # fmt: skip
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    approved_at = models.DateTimeField(null=True, blank=True)
    scorer_key = models.CharField(
        max_length=43, unique=True, null=True, blank=True,
        help_text="the table card's link /t/<key>/: whoever holds it records the table's hands "
        "(no login) until the round locks, when the key is cleared for good",
    )  # fmt: skip
    disputed_at = models.DateTimeField(
        null=True, blank=True, help_text="marked for the referee: not approved until resolved"
    )
    dispute = models.CharField(max_length=200, blank=True, help_text="what is disputed")
    dispute_resolution = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class StoredJSONField(models.JSONField):
    """JSON kept as the text it was written (PostgreSQL's ``json``, not ``jsonb``): for a
    document written whole and read back whole, never searched inside. Parsing megabytes of
    text into ``jsonb`` was most of a snapshot's write at 10,000 players (issue 25: 125 ms,
    27 ms as ``json``); reading it back is parsing it once either way."""

    def db_type(self, connection) -> str:
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def from_db_value(self, value, expression, connection):
        # psycopg parses ``json`` itself (Django has it hand over only ``jsonb`` as text)
        if connection.vendor == "postgresql":
            return value
        return super().from_db_value(value, expression, connection)


class StandingsSnapshot(models.Model):
    """Standings as computed at one moment: written whole in one row, so a reader never sees
    a half-computed table, and never changed (a recompute writes the next version). The API
    serves the highest version."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings_snapshots"
    )
    version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    rounds_complete = models.PositiveSmallIntegerField(default=0)
    tables_counted = models.PositiveIntegerField(default=0)
    rows = StoredJSONField(
        default=list, help_text="the standings, numbers as numbers (``tournaments.readmodels``)"
    )
    points_scale = models.PositiveIntegerField(
        default=1, help_text="placement points in the rows are whole numbers of 1/points_scale"
    )
    tiebreaks = models.JSONField(default=list, help_text="the tiebreak chain that ordered them")
    seconds = models.FloatField(default=0, help_text="time the computation took")
    visible = StoredJSONField(
        null=True, blank=True,
        help_text="while the last rounds are hidden: the standings the players see (through, "
        "rounds_complete, tables_counted, points_scale, rows); null: they see these",
    )  # fmt: skip
    sessions_version = models.PositiveBigIntegerField(
        default=0,
        help_text="the sum of its tables' data versions when it was computed: lower than "
        "their sum now while a recompute is on its way (or lost)",
    )

    class Meta:
        ordering = ["tournament_id", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="one_snapshot_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} standings v{self.version}"


class Penalty(models.Model):
    """罚分: whole placement points a referee takes off a player, for a round or for the
    tournament, with a reason. A revoked penalty stays, struck through, with who revoked it and
    why: the record of the day keeps every change. The standings count the penalties in force
    (``tournaments.selectors.standings_now``), so a recompute never loses one."""

    Reason = PenaltyReason

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the round it is for; none: the tournament as a whole"
    )
    points = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    words = models.CharField(max_length=200, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    revoke_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament_id", "given_at", "id"]

    def __str__(self) -> str:
        return f"−{self.points} for {self.player} in {self.tournament}"

    @property
    def in_force(self) -> bool:
        return self.revoked_at is None


class Substitution(models.Model):
    """替补: a reserve plays a table for a registered player who is absent. The table's seat
    holds the substitute (who is named at the table and in its hands); whose result the
    table is — the registered player's, the substitute's or nobody's — the tournament's
    ``substitute_counts`` decides, for standings, ratings and statistics alike."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    absent = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "absent"], name="one_substitute_per_absent"),
            models.UniqueConstraint(
                fields=["table", "substitute"], name="one_absent_per_substitute"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.substitute} for {self.absent} at {self.table}"
