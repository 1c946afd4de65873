"""Rulesets as stored: immutable snapshots that sessions and tournaments pin."""

from __future__ import annotations

from django.db import models


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
