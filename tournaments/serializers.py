"""Input and output shapes of the tournaments API."""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import Player, TableSession
from tournaments.models import Registration, Round, TaskRecord, Tournament
from tournaments.standings import DEFAULT_TIEBREAKS


class TournamentInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=56)
    club = serializers.SlugField(
        required=False, allow_null=True, help_text="host club slug; you must organise it"
    )
    rounds = serializers.IntegerField(min_value=1, max_value=100)
    hands_per_table = serializers.IntegerField(min_value=1, max_value=100, default=8)
    ruleset = serializers.JSONField(required=False, help_text="default: the club's ruleset")
    base = serializers.IntegerField(min_value=1, default=1)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, default="xuezhan")
    placement_points = serializers.JSONField(required=False, help_text="default [4, 2, 1, 0]")
    tiebreaks = serializers.JSONField(
        required=False, help_text=f"default {list(DEFAULT_TIEBREAKS)}"
    )
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, default="balanced")
    seed = serializers.IntegerField(default=0, min_value=0, max_value=2**53)
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True
    )
    bye_table_score = serializers.IntegerField(default=0)
    is_public = serializers.BooleanField(default=True)


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=100, required=False)
    hands_per_table = serializers.IntegerField(min_value=1, max_value=100, required=False)
    ruleset = serializers.JSONField(required=False)
    base = serializers.IntegerField(min_value=1, required=False)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, required=False)
    placement_points = serializers.JSONField(required=False)
    tiebreaks = serializers.JSONField(required=False)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**53, required=False)
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True
    )
    bye_table_score = serializers.IntegerField(required=False)
    is_public = serializers.BooleanField(required=False)
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TournamentOutSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    ruleset = serializers.JSONField(source="ruleset.spec")
    ruleset_fingerprint = serializers.CharField(source="ruleset.fingerprint")
    bye_points = serializers.SerializerMethodField()
    rounds_seated = serializers.IntegerField(read_only=True, default=None)
    players = serializers.IntegerField(read_only=True, default=None)

    class Meta:
        model = Tournament
        fields = ["name", "slug", "club", "hosted", "status", "is_public", "rounds",
                  "rounds_seated", "players", "hands_per_table", "ruleset", "ruleset_fingerprint",
                  "base", "mode", "placement_points", "tiebreaks", "seating", "seed",
                  "bye_points", "bye_table_score", "created_at"]  # fmt: skip

    def get_bye_points(self, t: Tournament) -> str:
        from tournaments.selectors import fraction_text

        return fraction_text(t.bye_fraction)


class RegistrationInSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    name = serializers.CharField(max_length=80, required=False, default="")
    seed_rating = serializers.IntegerField(required=False, allow_null=True)
    pinned_table = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class RegistrationUpdateSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Registration.Status.choices, required=False)
    seed_rating = serializers.IntegerField(required=False, allow_null=True)
    pinned_table = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class RegistrationOutSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Registration
        fields = ["player", "name", "seed_rating", "status", "first_round", "withdrawn_after",
                  "pinned_table", "created_at"]  # fmt: skip


class RoundOutSerializer(serializers.ModelSerializer):
    task = serializers.SerializerMethodField()
    table_count = serializers.IntegerField(read_only=True, default=None)
    tables_with_result = serializers.IntegerField(read_only=True, default=None)

    class Meta:
        model = Round
        fields = ["number", "status", "method", "byes", "quality", "seated_at", "task",
                  "table_count", "tables_with_result"]  # fmt: skip

    def get_task(self, r: Round) -> str | None:
        return f"/api/v1/tasks/{r.task_id}" if r.task_id else None


class TableScoreInSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    score = serializers.IntegerField()


class TableResultInSerializer(serializers.Serializer):
    scores = TableScoreInSerializer(many=True)


class TaskOutSerializer(serializers.ModelSerializer):
    id = serializers.CharField()
    tournament = serializers.CharField(source="tournament.slug", default=None)

    class Meta:
        model = TaskRecord
        fields = ["id", "name", "tournament", "state", "progress", "result", "error",
                  "created_at", "updated_at"]  # fmt: skip


class TaskAcceptedSerializer(serializers.Serializer):
    """The answer to a POST that starts a task (202)."""

    task = serializers.CharField(help_text="URL to poll: GET /api/v1/tasks/{id}")
    task_id = serializers.CharField()
    round = serializers.IntegerField(required=False)
