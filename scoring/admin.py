"""Admin of the scoring app: read-only views of what the engine settled.

Rulesets, hands, their payments and revisions are never edited here: a hand changes only
through ``scoring.services`` (which re-validate and re-settle it and keep its history). The
one write is the "soft-delete" action, which calls :func:`scoring.services.hand_delete` with
the reason typed beside the action menu.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, QuerySet
from django.utils.html import format_html
from rest_framework.exceptions import APIException

from config.errors import errors_for_exception
from scoring.models import Hand, HandRevision, Payment, RulesetSnapshot
from scoring.services import hand_delete


def pretty_json(value: Any):
    """A JSON value as an indented, read-only block (CJK kept readable)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    return format_html('<pre style="white-space: pre-wrap; margin: 0">{}</pre>', text)


def service_error_text(exc: Exception) -> str:
    if isinstance(exc, APIException):
        return "; ".join(e["message"] for e in errors_for_exception(exc))
    return str(exc)


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


def party(player, bettor) -> str:
    if player is not None:
        return str(player)
    return f"{bettor} (叫马)" if bettor is not None else "—"


# --- rulesets ----------------------------------------------------------------------------------


@admin.register(RulesetSnapshot)
class RulesetSnapshotAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Immutable: a snapshot is created by the services the first time a ruleset is used."""

    list_display = (
        "preset",
        "options",
        "short_fingerprint",
        "club_count",
        "session_count",
        "created_at",
    )
    list_filter = ("preset",)
    search_fields = ("fingerprint", "preset")
    date_hierarchy = "created_at"
    fields = ("preset", "fingerprint", "spec_json", "description_json", "created_at")
    readonly_fields = fields

    @admin.display(description="options")
    def options(self, obj: RulesetSnapshot) -> str:
        opts = (obj.spec or {}).get("options") or {}
        return ", ".join(f"{k}={v}" for k, v in opts.items()) or "(preset defaults)"

    @admin.display(description="fingerprint")
    def short_fingerprint(self, obj: RulesetSnapshot) -> str:
        return obj.fingerprint[:12]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_clubs=Count("clubs", distinct=True), n_sessions=Count("sessions", distinct=True)
            )
        )

    @admin.display(description="clubs", ordering="n_clubs")
    def club_count(self, obj: RulesetSnapshot) -> int:
        return obj.n_clubs

    @admin.display(description="sessions", ordering="n_sessions")
    def session_count(self, obj: RulesetSnapshot) -> int:
        return obj.n_sessions

    @admin.display(description="spec")
    def spec_json(self, obj: RulesetSnapshot):
        return pretty_json(obj.spec)

    @admin.display(description="description")
    def description_json(self, obj: RulesetSnapshot):
        return pretty_json(obj.description)


# --- hands -------------------------------------------------------------------------------------


class PaymentInline(ReadOnlyInline):
    model = Payment
    fields = ("position", "payer", "payee", "amount", "reason", "event")
    readonly_fields = fields

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related(
                "payer_player", "payee_player", "payer_bettor__player", "payee_bettor__player"
            )
        )

    @admin.display(description="payer")
    def payer(self, obj: Payment) -> str:
        return party(obj.payer_player, obj.payer_bettor)

    @admin.display(description="payee")
    def payee(self, obj: Payment) -> str:
        return party(obj.payee_player, obj.payee_bettor)


class HandRevisionInline(ReadOnlyInline):
    model = HandRevision
    fields = ("revision", "action", "changes", "reason", "changed_by", "changed_at")
    readonly_fields = fields
    show_change_link = True


class HandActionForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=200,
        label="Reason",
        help_text="why the selected hands are deleted (required for the soft-delete)",
    )


def wins_summary(settlement: dict[str, Any] | None) -> str:
    """``S1 pinghu 2 · S3 qingyise 4 on S0`` from a stored settlement."""
    parts = []
    for w in (settlement or {}).get("wins", []):
        how = "自摸" if w.get("from") is None else f"on S{w['from']}"
        parts.append(f"S{w['seat']} {w.get('pattern')} {w.get('value')} {how}")
    if (settlement or {}).get("draw") is not None:
        parts.append("流局")
    return " · ".join(parts) or "—"


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Hands are view-only: the engine's settlement is shown, never edited. Soft-delete with
    a reason is the one action; corrections go through the API."""

    list_display = (
        "__str__",
        "club",
        "session_link",
        "dealer",
        "wins",
        "revision",
        "is_deleted",
        "entered_by",
        "entered_at",
    )
    list_filter = ("is_deleted", "session__status", "session__club", "session__mode")
    search_fields = (
        "session__club__name",
        "session__club__slug",
        "session__seats__player__name",
        "session__notes",
        "deleted_reason",
    )
    list_select_related = ("session__club", "entered_by")
    date_hierarchy = "entered_at"
    fields = (
        "session",
        "number",
        "dealer",
        "next_dealer",
        "revision",
        "wins",
        "totals",
        "is_deleted",
        "deleted_reason",
        "ruleset_fingerprint",
        "entered_by",
        "entered_at",
        "updated_at",
        "record_json",
        "settlement_json",
    )
    readonly_fields = fields
    inlines = (PaymentInline, HandRevisionInline)
    action_form = HandActionForm
    actions = ("soft_delete",)

    @admin.display(description="club", ordering="session__club__name")
    def club(self, obj: Hand):
        return obj.session.club

    @admin.display(description="session", ordering="session")
    def session_link(self, obj: Hand) -> str:
        return f"#{obj.session_id} ({obj.session.get_status_display()})"

    @admin.display(description="wins")
    def wins(self, obj: Hand) -> str:
        return wins_summary(obj.settlement)

    @admin.display(description="totals")
    def totals(self, obj: Hand) -> str:
        totals = (obj.settlement or {}).get("totals") or {}
        seats = ", ".join(f"S{i} {t:+d}" for i, t in enumerate(totals.get("seats", [])))
        bettors = totals.get("bettors") or []
        if bettors:
            seats += " · bettors " + ", ".join(f"B{i} {t:+d}" for i, t in enumerate(bettors))
        return seats or "—"

    @admin.display(description="record (as submitted)")
    def record_json(self, obj: Hand):
        return pretty_json(obj.record)

    @admin.display(description="settlement (by the engine)")
    def settlement_json(self, obj: Hand):
        return pretty_json(obj.settlement)

    def has_soft_delete_permission(self, request) -> bool:
        return request.user.has_perm("scoring.delete_hand")

    @admin.action(
        description="Soft-delete the selected hands (give a reason)",
        permissions=("soft_delete",),
    )
    def soft_delete(self, request, queryset: QuerySet[Hand]) -> None:
        reason = (request.POST.get("reason") or "").strip()
        if not reason:
            self.message_user(request, "Give a reason to soft-delete hands.", messages.ERROR)
            return
        done = 0
        for h in queryset.filter(is_deleted=False):
            try:
                hand_delete(hand=h, reason=reason, user=request.user)
            except APIException as e:
                self.message_user(request, f"{h}: {service_error_text(e)}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"Soft-deleted {done} hand(s): {reason}", messages.SUCCESS)


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("hand", "revision", "action", "changes", "reason", "changed_by", "changed_at")
    list_filter = ("action", "hand__session__club")
    search_fields = ("reason", "hand__session__club__name", "changed_by__username")
    list_select_related = ("hand", "changed_by")
    date_hierarchy = "changed_at"
    fields = (
        "hand",
        "revision",
        "action",
        "changes",
        "reason",
        "changed_by",
        "changed_at",
        "record_json",
        "settlement_json",
    )
    readonly_fields = fields

    @admin.display(description="record")
    def record_json(self, obj: HandRevision):
        return pretty_json(obj.record)

    @admin.display(description="settlement")
    def settlement_json(self, obj: HandRevision):
        return pretty_json(obj.settlement)


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("hand", "position", "payer", "payee", "amount", "reason", "event")
    list_filter = ("reason", "hand__session__club")
    search_fields = (
        "payer_player__name",
        "payee_player__name",
        "payer_bettor__guest_name",
        "payee_bettor__guest_name",
        "payer_bettor__player__name",
        "payee_bettor__player__name",
        "hand__session__club__name",
    )
    list_select_related = (
        "hand",
        "payer_player",
        "payee_player",
        "payer_bettor__player",
        "payee_bettor__player",
    )
    fields = ("hand", "position", "payer", "payee", "amount", "reason", "event")
    readonly_fields = fields

    @admin.display(description="payer")
    def payer(self, obj: Payment) -> str:
        return party(obj.payer_player, obj.payer_bettor)

    @admin.display(description="payee")
    def payee(self, obj: Payment) -> str:
        return party(obj.payee_player, obj.payee_bettor)
