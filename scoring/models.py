"""Rulesets as stored, hands (一局) with their settlements, payments and revisions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class RulesetSnapshot(models.Model):
    """The exact rules a session plays under: immutable, shared by identical rulesets.

    ``fingerprint`` is the engine's SHA-256 of the complete description, so a stored hand can
    prove which rules settled it even after a preset changes.
    """

    fingerprint = models.CharField(max_length=64, unique=True)
    preset = models.CharField(max_length=20)
    spec = models.JSONField(help_text="preset and the options that differ from its defaults")
    description = models.JSONField(help_text="the complete ruleset as the engine describes it")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["preset", "id"]

    def __str__(self) -> str:
        options = self.spec.get("options") or {}
        return f"{self.preset} {options}" if options else self.preset

    def save(self, *args, **kwargs):
        if self.pk and not kwargs.pop("force_snapshot_update", False):
            raise ValueError("a ruleset snapshot is immutable")
        super().save(*args, **kwargs)


class Hand(models.Model):
    """一局: one hand of a table session, as recorded and as the engine settled it."""

    session = models.ForeignKey(
        "clubs.TableSession", on_delete=models.CASCADE, related_name="hands"
    )
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

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"],
                condition=Q(is_deleted=False),
                name="one_live_hand_per_number",
            )
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of session {self.session_id}"


class HandRevision(models.Model):
    """Every state a hand has been in: who changed it, when, how and why."""

    class Action(models.TextChoices):
        CREATED = "created", "Created"
        CORRECTED = "corrected", "Corrected"
        DELETED = "deleted", "Deleted"

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


class Payment(models.Model):
    """One transfer of a settled hand: from a seat's player or a bettor to another."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="payments")
    position = models.PositiveSmallIntegerField(help_text="order within the settlement")
    payer_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payer_bettor = models.ForeignKey(
        "clubs.Bettor", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payee_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payee_bettor = models.ForeignKey(
        "clubs.Bettor", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
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
