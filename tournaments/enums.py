"""The tournaments app's choices, apart from its models.

Kept in a module of their own so that code which only names a state or a method (the pages, a
form's choices) reads them without importing a model: ``tournaments.models`` keeps every name
working (``Round.Status`` is :class:`RoundStatus`), so its fields' choices are these very
classes. Only ``django.db.models`` is imported here, for the Choices base class.
"""

from __future__ import annotations

from django.db import models


class SubstituteCounts(models.TextChoices):
    """Whose result a substitute's (替补) table is."""

    REGISTERED = "registered", "The registered player's"
    SUBSTITUTE = "substitute", "The substitute's"
    NOBODY = "nobody", "Nobody's"


class TournamentStatus(models.TextChoices):
    """Where a tournament is in its life (``Tournament.Status``)."""

    REGISTRATION = "registration", "Registration"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class SeatingMethod(models.TextChoices):
    """How a tournament seats its rounds (``Tournament.Seating``)."""

    BALANCED = "balanced", "Balanced: fewest repeat meetings over the event"
    SWISS = "swiss", "Swiss: leaders together, avoiding repeat meetings"
    RANDOM = "random", "Random (reproducible from the seed)"


class RegistrationStatus(models.TextChoices):
    """Whether an entry plays on (``Registration.Status``)."""

    ACTIVE = "active", "Active"
    WITHDRAWN = "withdrawn", "Withdrawn"


class RoundStatus(models.TextChoices):
    """Where a round's seating stands (``Round.Status``)."""

    SEATING = "seating", "Being seated"
    SEATED = "seated", "Seated"
    FAILED = "failed", "Seating failed"


class PenaltyReason(models.TextChoices):
    """Why a referee took points off a player (``Penalty.Reason``)."""

    FALSE_WIN = "false_win", "诈胡 beyond the table's own payment"
    LATE = "late", "Late"
    CONDUCT = "conduct", "Conduct"
    OTHER = "other", "Other"
