"""Admin helpers every app uses, and the admin of the kernel's own records.

Records written by services (settled hands, payments, task records) are shown read-only: an
admin change goes through the same services as the API, never around them.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html

from core.http import service_error_items
from core.logins import ThrottledLoginFormMixin
from core.models import IdempotentRequest, OutboxMessage, TaskRecord


def pretty_json(value: Any):
    """A JSON value as an indented, read-only block (CJK kept readable)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    return format_html('<pre style="white-space: pre-wrap; margin: 0">{}</pre>', text)


def service_error_text(exc: Exception) -> str:
    """A service's refusal as one line for an admin message."""
    return "; ".join(e["message"] for e in service_error_items(exc))


class ThrottledLoginForm(ThrottledLoginFormMixin, AdminAuthenticationForm):
    """The admin's login form, refusing a login from where too many were tried
    (``core.logins``: ``authenticate()`` counts each password it checks)."""


admin.site.login_form = ThrottledLoginForm


def login(request: HttpRequest, extra_context=None) -> HttpResponse:
    """The admin's login page (``config.urls`` mounts it at ``admin/login/``), answering a
    throttled login with 429: the page again, with a message saying when to try again."""
    response = admin.site.login(request, extra_context)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.has_error(NON_FIELD_ERRORS, "throttled"):
        response.status_code = 429
        response["Retry-After"] = str(form.wait)
    return response


class ReadOnlyAdminMixin:
    """View only: nothing is added, changed or deleted through this admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(IdempotentRequest)
class IdempotentRequestAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Stored first answers to POSTs: viewable; deletable, so a stale key can be released."""

    list_display = ("key", "user", "path", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("key", "path", "user__username")
    list_select_related = ("user",)
    date_hierarchy = "created_at"
    fields = ("key", "user", "path", "body_hash", "status", "created_at", "checks", "response_json")
    readonly_fields = fields

    @admin.display(description="response")
    def response_json(self, obj: IdempotentRequest):
        return pretty_json(obj.response)

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("core.delete_idempotentrequest")


@admin.register(TaskRecord)
class TaskRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "name", "subject", "state", "progress", "created_at", "updated_at")
    list_filter = ("name", "state")
    fields = ("id", "name", "subject", "state", "progress", "result", "error", "created_at",
              "updated_at")  # fmt: skip
    readonly_fields = fields


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Tasks asked for and not yet sent: a long list means the broker or beat is down."""

    list_display = ("task", "args", "not_before", "attempts", "last_error", "created_at")
    list_filter = ("task",)
    fields = ("task", "args", "task_id", "not_before", "attempts", "last_error", "created_at")
    readonly_fields = fields
