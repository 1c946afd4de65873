"""``GET /api/v1/tasks/{id}``: a background job's state, progress, result or error."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core import jobs
from core.api import ApiView
from core.errors import NotFound
from core.models import TaskRecord


@extend_schema_field(OpenApiTypes.STR)
class SubjectField(serializers.Field):
    """What a job is about, named as its app registered it (``"tournament": "chengdu-open"``);
    null for a job about something else."""

    def __init__(self, subject: jobs.JobSubject, **kwargs: Any) -> None:
        self.subject = subject
        super().__init__(source="*", read_only=True, allow_null=True, **kwargs)

    def to_representation(self, task: TaskRecord) -> str | None:
        obj = task.subject
        return self.subject.label(obj) if isinstance(obj, self.subject.model) else None


class TaskOutSerializer(serializers.ModelSerializer):
    id = serializers.CharField()

    class Meta:
        model = TaskRecord
        fields = ["id", "name", "state", "progress", "result", "error", "created_at",
                  "updated_at"]  # fmt: skip

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for subject in jobs.subjects():
            fields[subject.field] = SubjectField(subject)
        return fields


class TaskDetailView(ApiView):
    """A background task: state (PENDING, STARTED, SUCCESS, FAILURE), progress, result or error.

    Readable by whoever may read what it is about."""

    @extend_schema(responses=TaskOutSerializer)
    def get(self, request: Request, task_id: str) -> Response:
        task = get_object_or_404(TaskRecord.objects.select_related("subject_type"), pk=task_id)
        if task.subject_type_id is not None:
            subject = jobs.subject_of(task.subject_type.model_class())
            obj = task.subject
            if subject is None or obj is None or not subject.readable(request.user, obj):
                raise NotFound(f"no such {subject.field if subject else 'task'}")
        return Response(TaskOutSerializer(task).data)


@extend_schema(exclude=True)
class TaskDetailSlashView(TaskDetailView):
    """``/tasks/{id}/`` answers like ``/tasks/{id}`` (listed once in the schema)."""
