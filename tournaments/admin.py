"""Admin for tournaments: directors fix entries and read seatings, snapshots and tasks.

Seatings and standings are written by their Celery tasks only, so they are read-only here.
"""

from __future__ import annotations

from django.contrib import admin

from core.admin import ReadOnlyInline
from tournaments.models import (
    Penalty,
    Registration,
    Round,
    StandingsSnapshot,
    Substitution,
    Table,
    Tournament,
)


class RegistrationInline(admin.TabularInline):
    model = Registration
    fields = ("player", "seed_rating", "status", "first_round", "withdrawn_after", "pinned_table")
    autocomplete_fields = ("player",)
    extra = 0


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "status", "method", "byes", "quality", "seated_at")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "club", "status", "seating", "rounds", "is_public")
    list_filter = ("status", "seating", "is_public")
    search_fields = ("name", "slug", "club__name")
    list_select_related = ("club",)
    autocomplete_fields = ("club",)
    readonly_fields = (
        "ruleset",
        "seating_plan",
        "standings_requested_at",
        "created_by",
        "created_at",
    )
    inlines = (RegistrationInline, RoundInline)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament", "status", "seed_rating", "first_round",
                    "pinned_table")  # fmt: skip
    list_filter = ("status", "tournament")
    search_fields = ("player__name", "tournament__name")
    list_select_related = ("player", "tournament")
    autocomplete_fields = ("player", "tournament")


class TableInline(ReadOnlyInline):
    model = Table
    fields = ("number", "session")
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "method", "seated_at")
    list_filter = ("status", "method", "tournament")
    search_fields = ("tournament__name",)
    readonly_fields = ("tournament", "number", "status", "method", "byes", "quality", "task",
                       "seated_at")  # fmt: skip
    inlines = (TableInline,)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "session")
    search_fields = ("round__tournament__name", "session__seats__player__name")
    readonly_fields = ("round", "number", "session")


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ("tournament", "version", "computed_at", "rounds_complete", "tables_counted",
                    "seconds")  # fmt: skip
    list_filter = ("tournament",)
    readonly_fields = ("tournament", "version", "computed_at", "rounds_complete",
                       "tables_counted", "rows", "seconds")  # fmt: skip


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """The referees' penalties, given and revoked on the tournament's pages (read only here:
    a change goes through the services, which recompute the standings)."""

    list_display = ("tournament", "player", "points", "reason", "round", "given_at", "revoked_at")
    list_filter = ("tournament", "reason")
    readonly_fields = ("tournament", "player", "round", "points", "reason", "words", "given_by",
                       "given_at", "revoked_at", "revoked_by", "revoke_reason")  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    """替补: who played a table for whom (read only here: the services move the seat and what
    was recorded for it, and recompute the standings)."""

    list_display = ("table", "absent", "substitute", "reason", "made_by", "made_at")
    readonly_fields = ("table", "absent", "substitute", "reason", "made_by", "made_at")

    def has_add_permission(self, request) -> bool:
        return False
