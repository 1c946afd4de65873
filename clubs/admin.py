"""Admin of the clubs app: clubs, players, memberships, table sessions and what hangs off them.

An organiser can fix data here without the API, but never around the engine: once a session
has hands its seats, bettors and rules are read-only (the stored payments name them), its
status changes only through the close/reopen actions (``clubs.services``), and hands are
view-only: what the engine settled is shown, never edited. The one write on hands is the
soft-delete action, which calls the same service as the API with the reason typed beside the
action menu.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.html import format_html

from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Invitation,
    Membership,
    Payment,
    Player,
    Seat,
    SeatRepair,
    SessionResult,
    TableSession,
)
from clubs.selectors import settled_hand
from clubs.services.hands import hand_delete
from clubs.services.sessions import session_close, session_reopen
from clubs.signals import club_changed
from clubs.tasks import follow_session
from core.admin import ReadOnlyAdminMixin, ReadOnlyInline, pretty_json, service_error_text
from core.errors import ServiceError


def party(player, bettor) -> str:
    if player is not None:
        return str(player)
    return f"{bettor} (叫马)" if bettor is not None else "—"


def has_hands(session: TableSession | None) -> bool:
    return session is not None and session.pk is not None and session.hands.exists()


# --- clubs, players, memberships ---------------------------------------------------------------


class ClubMembershipInline(admin.TabularInline):
    model = Membership
    fields = ("player", "role", "display_name", "joined_at")
    readonly_fields = ("joined_at",)
    autocomplete_fields = ("player",)
    extra = 0


class PlayerMembershipInline(admin.TabularInline):
    model = Membership
    fields = ("club", "role", "display_name", "joined_at")
    readonly_fields = ("joined_at",)
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "slug",
        "visibility",
        "ruleset",
        "base",
        "unit_label",
        "members",
        "sessions",
        "created_at",
    )
    list_filter = ("visibility", "ruleset__preset", "time_zone")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    list_select_related = ("ruleset",)
    date_hierarchy = "created_at"
    readonly_fields = ("created_at",)
    inlines = (ClubMembershipInline,)

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_members=Count("memberships", distinct=True),
                n_sessions=Count("sessions", distinct=True),
            )
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and form.changed_data:  # as ``club_update`` tells (a new time zone: awards)
            club_changed.send(sender=Club, club_id=obj.pk, fields=frozenset(form.changed_data))

    @admin.display(description="members", ordering="n_members")
    def members(self, obj: Club) -> int:
        return obj.n_members

    @admin.display(description="sessions", ordering="n_sessions")
    def sessions(self, obj: Club) -> int:
        return obj.n_sessions


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "clubs", "created_at")
    list_filter = ("memberships__club", ("user", admin.EmptyFieldListFilter))
    search_fields = ("name", "user__username", "user__email", "memberships__display_name")
    list_select_related = ("user",)
    date_hierarchy = "created_at"
    readonly_fields = ("created_at",)
    raw_id_fields = ("user",)
    inlines = (PlayerMembershipInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("memberships__club")

    @admin.display(description="clubs")
    def clubs(self, obj: Player) -> str:
        return ", ".join(f"{m.club} ({m.role})" for m in obj.memberships.all()) or "—"


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "role", "display_name", "joined_at")
    list_filter = ("role", "club")
    search_fields = ("player__name", "display_name", "club__name", "club__slug")
    list_select_related = ("player", "club")
    autocomplete_fields = ("player", "club")
    date_hierarchy = "joined_at"
    readonly_fields = ("joined_at",)


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Invitations and password-reset links, to look at: organisers make and revoke them on the
    members page (the token is not shown: it is the link's secret)."""

    list_display = ("club", "kind", "role", "player", "created_by", "created_at", "expires_at",
                    "used_at", "revoked_at")  # fmt: skip
    list_filter = ("kind", "role", "club")
    list_select_related = ("club", "player", "created_by")
    exclude = ("token",)
    date_hierarchy = "created_at"


# --- table sessions ----------------------------------------------------------------------------


class FrozenWithHandsInline(admin.TabularInline):
    """Editable until the session's first hand; the stored hands and payments name them."""

    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return not has_hands(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return not has_hands(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not has_hands(obj) and super().has_delete_permission(request, obj)


class SeatInline(FrozenWithHandsInline):
    model = Seat
    fields = ("number", "player")
    autocomplete_fields = ("player",)
    max_num = 4


class BettorInline(FrozenWithHandsInline):
    model = Bettor
    fields = ("player", "guest_name")
    autocomplete_fields = ("player",)


class HandInline(ReadOnlyInline):
    model = Hand
    fields = (
        "number",
        "dealer",
        "wins",
        "revision",
        "is_deleted",
        "deleted_reason",
        "entered_by",
        "entered_at",
    )
    readonly_fields = fields
    show_change_link = True

    @admin.display(description="wins")
    def wins(self, obj: Hand) -> str:
        return wins_summary(obj)


class SessionResultInline(ReadOnlyInline):
    model = SessionResult
    fields = ("player", "bettor", "total")
    readonly_fields = fields


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "club",
        "started_at",
        "status",
        "mode",
        "base",
        "players",
        "hand_count",
        "closed_at",
    )
    list_filter = ("status", "mode", "club", "ruleset__preset")
    search_fields = (
        "club__name",
        "club__slug",
        "notes",
        "seats__player__name",
        "bettors__guest_name",
        "bettors__player__name",
    )
    list_select_related = ("club",)
    date_hierarchy = "started_at"
    autocomplete_fields = ("club",)
    inlines = (SeatInline, BettorInline, HandInline, SessionResultInline)
    actions = ("close_sessions", "reopen_sessions")
    always_readonly = ("status", "closed_at", "created_by", "created_at")

    def get_queryset(self, request):
        live = Q(hands__is_deleted=False)
        return (
            super()
            .get_queryset(request)
            .annotate(n_hands=Count("hands", filter=live, distinct=True))
            .prefetch_related("seats__player")
        )

    def get_readonly_fields(self, request, obj=None):
        fields = self.always_readonly
        if has_hands(obj):  # the hands were settled under these rules
            fields += ("club", "ruleset", "base", "mode")
        return fields

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        if change and "started_at" in form.changed_data:
            # a finished session's lines, ratings and awards carry when it was played
            follow_session(obj.pk)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change and any(formset.has_changed() for formset in formsets):
            # seats or bettors changed (a session without hands, its totals entered): a write
            # to the session like any other, counted, so what was computed from it is again
            follow_session(form.instance.pk)

    @admin.display(description="players")
    def players(self, obj: TableSession) -> str:
        return " · ".join(f"S{s.number} {s.player}" for s in obj.seats.all())

    @admin.display(description="hands", ordering="n_hands")
    def hand_count(self, obj: TableSession):
        url = reverse("admin:clubs_hand_changelist") + f"?session__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, obj.n_hands)

    def _apply(self, request, queryset: QuerySet[TableSession], service, verb: str) -> None:
        done = 0
        for session in queryset:
            try:
                service(session=session)
            except ServiceError as e:
                self.message_user(request, f"{session}: {service_error_text(e)}", messages.ERROR)
            else:
                done += 1
        self.message_user(request, f"{verb} {done} session(s).", messages.SUCCESS)

    @admin.action(description="Close the selected sessions", permissions=("change",))
    def close_sessions(self, request, queryset):
        self._apply(
            request, queryset.filter(status=TableSession.Status.OPEN), session_close, "Closed"
        )

    @admin.action(description="Reopen the selected sessions", permissions=("change",))
    def reopen_sessions(self, request, queryset):
        self._apply(
            request, queryset.filter(status=TableSession.Status.CLOSED), session_reopen, "Reopened"
        )


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "player")
    list_filter = ("number", "session__club", "session__status")
    search_fields = ("player__name", "session__club__name")
    list_select_related = ("session__club", "player")
    autocomplete_fields = ("player",)
    raw_id_fields = ("session",)

    def has_change_permission(self, request, obj=None) -> bool:
        return not has_hands(obj and obj.session) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not has_hands(obj and obj.session) and super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        follow_session(obj.session_id)  # a write to its session (see save_related above)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        follow_session(obj.session_id)

    def delete_queryset(self, request, queryset):
        sessions = set(queryset.values_list("session_id", flat=True))
        super().delete_queryset(request, queryset)
        for session_id in sorted(sessions):
            follow_session(session_id)


@admin.register(Bettor)
class BettorAdmin(SeatAdmin):
    list_display = ("__str__", "session", "player", "guest_name")
    list_filter = ("session__club", "session__status", ("player", admin.EmptyFieldListFilter))
    search_fields = ("guest_name", "player__name", "session__club__name")


@admin.register(SessionResult)
class SessionResultAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Entered through the API as one zero-sum set per session: view-only here."""

    list_display = ("session", "player", "bettor", "total")
    list_filter = ("session__club",)
    search_fields = ("player__name", "bettor__guest_name", "session__club__name")
    list_select_related = ("session__club", "player", "bettor__player")


# --- hands, their payments and revisions ------------------------------------------------------


class PaymentParties:
    """Who paid and who was paid, as people read them."""

    @admin.display(description="payer")
    def payer(self, obj: Payment) -> str:
        return party(obj.payer_player, obj.payer_bettor)

    @admin.display(description="payee")
    def payee(self, obj: Payment) -> str:
        return party(obj.payee_player, obj.payee_bettor)


class PaymentInline(PaymentParties, ReadOnlyInline):
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


def wins_summary(hand: Hand) -> str:
    """``S1 pinghu 2 · S3 qingyise 4 on S0`` from a stored hand's settlement."""
    settled = settled_hand(hand)
    parts = []
    for w in settled.wins:
        how = "自摸" if w.from_ is None else f"on S{w.from_}"
        parts.append(f"S{w.seat} {w.valuation.pattern} {w.valuation.value} {how}")
    if settled.draw is not None:
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
        return wins_summary(obj)

    @admin.display(description="totals")
    def totals(self, obj: Hand) -> str:
        settled = settled_hand(obj)
        seats = ", ".join(f"S{i} {t:+d}" for i, t in enumerate(settled.seat_totals))
        bettors = settled.bettor_totals
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
        return request.user.has_perm("clubs.delete_hand")

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
            except ServiceError as e:
                self.message_user(request, f"{h}: {service_error_text(e)}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"Soft-deleted {done} hand(s): {reason}", messages.SUCCESS)


@admin.register(HandConfirmation)
class HandConfirmationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The players' confirmations and disputes and the organisers' rulings: view-only (they are
    given on the table's pages and the API, which keep ``Hand.counts`` in step)."""

    list_display = ("hand", "revision", "seat", "verdict", "words", "by", "by_link", "at")
    list_filter = ("verdict", "by_link", "hand__session__club")
    search_fields = ("words", "hand__session__club__name", "by__username")
    list_select_related = ("hand", "by")
    date_hierarchy = "at"
    fields = ("hand", "revision", "seat", "verdict", "words", "by", "by_link", "at")
    readonly_fields = fields


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
class PaymentAdmin(PaymentParties, ReadOnlyAdminMixin, admin.ModelAdmin):
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


@admin.register(SeatRepair)
class SeatRepairAdmin(admin.ModelAdmin):
    """The seats put right after the fact: kept as they were made (read only)."""

    list_display = ("session", "reason", "repaired_by", "repaired_at")
    list_select_related = ("session__club", "repaired_by")
    readonly_fields = ("session", "before", "after", "reason", "repaired_by", "repaired_at")

    def has_add_permission(self, request) -> bool:
        return False
