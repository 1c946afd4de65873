"""Clubs, the people who play in them, and the tables they sit at.

A :class:`Player` is one person across the whole service; a :class:`Membership` gives him a
role in one club. A :class:`TableSession` (一桌) seats four players of a club under one
ruleset snapshot, which it pins: its hands are settled (and re-settled on correction) under
those rules. The session is one aggregate, written by this app alone: its seats, 叫马
bettors, hands with their revisions and payments, and final results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# the choices live in clubs.enums (read there by code that needs no model); every name stays
# importable from here, as it always was
from clubs.enums import (  # noqa: F401
    ROLE_RANK,
    ClubVisibility,
    ConfirmationRule,
    ConfirmationVerdict,
    InvitationKind,
    InvitationState,
    RevisionAction,
    Role,
    SessionKind,
    SessionMode,
    SessionStatus,
)


class Club(models.Model):
    """A mahjong club (俱乐部): its default rules, stake and who may see its results."""

    Visibility = ClubVisibility

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    ruleset = models.ForeignKey(
        "scoring.RulesetSnapshot", on_delete=models.PROTECT, related_name="clubs"
    )
    base = models.PositiveIntegerField(default=1, help_text="base stake (底) of a new session")
    time_zone = models.CharField(max_length=64, default="Asia/Shanghai")
    unit_label = models.CharField(max_length=16, default="分", help_text="currency or unit")
    confirmation_rule = models.CharField(
        max_length=8, choices=ConfirmationRule.choices, default=ConfirmationRule.SHOWN,
        help_text="when a hand at the club's tables counts: at once (confirmations shown only), "
        "or once three (two) players other than its scorer confirmed it",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC


class Player(models.Model):
    """A person who plays (玩家): one player across every club, optionally with a login."""

    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player's place in a club, with his role and the name the club knows him by."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    display_name = models.CharField(max_length=80, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.club} ({self.role})"

    @property
    def name(self) -> str:
        return self.display_name or self.player.name


class TableSession(models.Model):
    """一桌: four players of a club at one table under one ruleset, hand after hand."""

    Status = SessionStatus
    Mode = SessionMode
    Kind = SessionKind

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    started_at = models.DateTimeField()
    ruleset = models.ForeignKey(
        "scoring.RulesetSnapshot", on_delete=models.PROTECT, related_name="sessions"
    )
    base = models.PositiveIntegerField(default=1)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.XUEZHAN)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.CLUB)
    hand_limit = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a table that plays a fixed number of hands takes no more"
    )
    lock_code = models.CharField(
        max_length=30,
        blank=True,
        help_text="set by the app that owns the table (a tournament round seated past it, a "
        "finished tournament): its hands and results do not change until that app lifts it",
    )
    lock_message = models.CharField(max_length=200, blank=True)
    notes = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    data_version = models.PositiveBigIntegerField(
        default=0, help_text="counts the writes that asked for the session's follow-up"
    )
    derived_version = models.PositiveBigIntegerField(
        default=0,
        help_text="the data_version its statistics' lines, ratings and awards were last "
        "computed from: lower than data_version while a follow-up is on its way (or lost)",
    )
    changed_at = models.DateTimeField(null=True, blank=True, help_text="its last such write")
    guest_key = models.CharField(
        max_length=43, unique=True, null=True, blank=True,
        help_text="the players' link /g/<key>/: whoever holds it follows this table on his own "
        "phone, no login, until the table closes (the key is then cleared for good)",
    )  # fmt: skip
    confirmation_rule = models.CharField(
        max_length=8, choices=ConfirmationRule.choices, blank=True,
        help_text="the table's own confirmation rule (a tournament's); empty: the club's",
    )  # fmt: skip

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["club", "-started_at"]),
            # the sessions whose derived data lag, for the periodic check: few rows
            models.Index(
                fields=["changed_at"],
                condition=models.Q(data_version__gt=models.F("derived_version")),
                name="session_derived_lag",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} table {self.pk} ({self.started_at:%Y-%m-%d})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Seat(models.Model):
    """A seat (0–3, in play order) of a table session and the player in it."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["session", "player"], name="one_seat_per_player"),
            models.CheckConstraint(condition=Q(number__lte=3), name="seat_number_0_to_3"),
        ]

    def __str__(self) -> str:
        return f"S{self.number}: {self.player}"


class Bettor(models.Model):
    """叫马: someone standing behind the table who bets on the seat his tile names each hand.

    Either a player of the service or a guest known only by name.
    """

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="bettors")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="bets"
    )
    guest_name = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["session_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(guest_name=""),
                name="bettor_is_player_or_named_guest",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.player.name if self.player_id else self.guest_name


class SessionResult(models.Model):
    """Final-result entry: a session's total for one player or bettor, when a club only
    notes totals. Such a session has no hands; its results sum to zero."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    bettor = models.ForeignKey(
        Bettor, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    total = models.IntegerField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    entered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False, bettor__isnull=True)
                | Q(player__isnull=True, bettor__isnull=False),
                name="result_for_player_or_bettor",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player or self.bettor}: {self.total:+d}"


class Hand(models.Model):
    """一局: one hand of a table session, as recorded and as the engine settled it."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    record = models.JSONField(help_text="the hand record as submitted")
    settlement = models.JSONField(help_text="the engine's settlement of the record")
    ruleset_fingerprint = models.CharField(max_length=64)
    dealer = models.PositiveSmallIntegerField()
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    revision = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    is_deleted = models.BooleanField(default=False)
    deleted_reason = models.CharField(max_length=200, blank=True)
    entry_seat = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="the seat of the player who entered (or last corrected) it, when he sits at "
        "the table: his entry is his confirmation",
    )  # fmt: skip
    counts = models.BooleanField(
        default=True,
        help_text="counts in totals, standings, ratings and statistics; false while the table's "
        "confirmation rule holds it (waiting for confirmations, or disputed) — kept by "
        "clubs.services.confirmations",
    )

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [
            # a number is never used twice in a session, a deleted hand's included: every
            # revision of hand 3 stays hand 3's
            models.UniqueConstraint(fields=["session", "number"], name="one_hand_per_number")
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of session {self.session_id}"


class HandRevision(models.Model):
    """Every state a hand has been in: who changed it, when, how and why."""

    Action = RevisionAction

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    revision = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    record = models.JSONField()
    settlement = models.JSONField()
    changes = models.JSONField(default=list, help_text="top-level record fields that changed")
    reason = models.CharField(max_length=200, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand_id", "revision"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "revision"], name="one_row_per_revision")
        ]

    def __str__(self) -> str:
        return f"{self.hand} r{self.revision} {self.action}"


class HandConfirmation(models.Model):
    """A seated player's word on a hand as it stands (its ``revision``): he confirms it, or
    disputes it in his own words; or the organiser's (referee's) ruling on it. A correction
    makes a new revision, so the confirmations of the one before no longer count (they stay,
    as history). The latest word of each seat on the current revision is his."""

    Verdict = ConfirmationVerdict

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="confirmations")
    revision = models.PositiveIntegerField(help_text="the hand's revision this word is about")
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="none: a ruling")
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    words = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    by_link = models.BooleanField(
        default=False, help_text="given through the table's players' link (no login)"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand_id", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(verdict="ruling", seat__isnull=True)
                | (~Q(verdict="ruling") & Q(seat__isnull=False, seat__lte=3)),
                name="confirmation_has_seat_ruling_none",
            )
        ]

    def __str__(self) -> str:
        return f"{self.verdict} of {self.hand} r{self.revision} by S{self.seat}"


class Payment(models.Model):
    """One transfer of a settled hand: from a seat's player or a bettor to another."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="payments")
    position = models.PositiveSmallIntegerField(help_text="order within the settlement")
    payer_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payer_bettor = models.ForeignKey(
        Bettor, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payee_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payee_bettor = models.ForeignKey(
        Bettor, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    amount = models.PositiveIntegerField(help_text="in the session's unit, base included")
    reason = models.CharField(max_length=16)
    event = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["hand_id", "position"]
        # (each foreign key has its own index: a player's payments are found by them)
        constraints = [
            models.CheckConstraint(
                condition=Q(payer_player__isnull=False) ^ Q(payer_bettor__isnull=False),
                name="payment_has_one_payer",
            ),
            models.CheckConstraint(
                condition=Q(payee_player__isnull=False) ^ Q(payee_bettor__isnull=False),
                name="payment_has_one_payee",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} ({self.reason}) in {self.hand}"


class Invitation(models.Model):
    """A single-use, expiring, revocable link an organiser hands to someone (and its QR code).

    ``join``: the person opening it gets a login (a new one, or the one he signs in with) linked
    to the invited player (or to his own), and the membership ``role`` in the club. ``reset``: the
    login ``user`` (a member of the club) sets a new password there. The token is the link's
    secret (``secrets.token_urlsafe``); it is kept so that the organiser can show the link again.
    """

    Kind = InvitationKind
    State = InvitationState

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.JOIN)
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=10, choices=Role.choices, blank=True)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="reset: the login whose password the link sets",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "expires_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="join", role__in=["scorer", "member"])
                | Q(kind="reset", role="", user__isnull=False),
                name="invitation_join_has_role_reset_has_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.club} ({self.state})"

    def state_at(self, now) -> str:
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.used_at is not None:
            return self.State.USED
        if self.expires_at <= now:
            return self.State.EXPIRED
        return self.State.OPEN

    @property
    def state(self) -> str:
        return self.state_at(timezone.now())

    @property
    def is_open(self) -> bool:
        return self.state == self.State.OPEN


class SeatRepair(models.Model):
    """换座: the seats of a table put right after the fact (two players swapped, or everyone
    moved on a wind), with the reason. The recorded hands stay with the seats they were played
    in; their payments and entered totals now belong to the players the seats hold."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="repairs")
    before = models.JSONField(help_text="player ids by seat, before")
    after = models.JSONField(help_text="player ids by seat, after")
    reason = models.CharField(max_length=200)
    repaired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    repaired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_id", "repaired_at", "id"]

    def __str__(self) -> str:
        return f"seats of {self.session} repaired: {self.reason}"
