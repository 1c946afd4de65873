"""The kernel's own records: answers kept for ``Idempotency-Key`` retries, and background jobs."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q


class IdempotentRequest(models.Model):
    """The first answer to a POST sent with an ``Idempotency-Key``, replayed on retries (for
    ``IDEMPOTENCY_KEY_HOURS``), with the access checks it passed, which a replay runs again."""

    key = models.CharField(max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    path = models.CharField(max_length=300)
    body_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    # [[check name, [arguments]], …]: see core.idempotency.note_check
    checks = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_answer_per_key")]
        indexes = [models.Index(fields=["created_at"], name="idempotent_created_at")]

    def __str__(self) -> str:
        return f"{self.key} ({self.path})"


class TaskRecord(models.Model):
    """A background job as the API reports it: ``GET /api/v1/tasks/{id}``.

    Kept in the database (not only in Celery's result backend) so the state is the same
    whether a worker or the eager in-process mode ran it, and it outlives result expiry. A job
    may be about one object of an app above (its ``subject``, e.g. a tournament): who may read
    the job is who may read the subject (``core.jobs.register_subject``).
    """

    class State(models.TextChoices):
        PENDING = "PENDING", "Queued"
        STARTED = "STARTED", "Running"
        SUCCESS = "SUCCESS", "Done"
        FAILURE = "FAILURE", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=60)
    subject_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("subject_type", "subject_id")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    progress = models.FloatField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["subject_type", "subject_id"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__gte=0, progress__lte=1), name="progress_0_to_1"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.id} {self.state}"


class OutboxMessage(models.Model):
    """A Celery task a write asked for, stored in the write's own transaction and sent to the
    broker by a sweep (``core.outbox``): nothing a client was told is done waits on the broker
    being up. It stays until its task has run to the end, so a broker that loses the task
    (Redis restarted empty) only delays it: the sweep sends it again."""

    task = models.CharField(max_length=100, help_text="the Celery task's name")
    args = models.JSONField(default=list)
    task_id = models.UUIDField(
        null=True, blank=True,
        help_text="the Celery task id it is sent with: the job record's, or one of its own",
    )  # fmt: skip
    not_before = models.DateTimeField(help_text="sent once this time has passed")
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0, help_text="sends the broker refused")
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="last sent; the row stays until its task is done"
    )
    deliveries = models.PositiveIntegerField(default=0, help_text="times sent to the broker")

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(fields=["not_before"], name="outbox_due"),
            models.Index(fields=["task_id"], name="outbox_task"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
