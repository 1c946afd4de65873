"""Admin of the scoring app: the ruleset snapshots sessions pin, read-only (they are
immutable: a snapshot is created by the services the first time a ruleset is used)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from core.admin import ReadOnlyAdminMixin, pretty_json
from scoring.models import RulesetSnapshot

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
