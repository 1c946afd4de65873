"""Input and output serializers of the clubs API."""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import Club, Membership, Player, Role, TableSession


class RulesetOutSerializer(serializers.Serializer):
    preset = serializers.CharField()
    spec = serializers.JSONField()
    fingerprint = serializers.CharField()


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ClubOutSerializer(serializers.ModelSerializer):
    ruleset = RulesetOutSerializer()
    my_role = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["slug", "name", "visibility", "ruleset", "base", "time_zone", "unit_label",
                  "created_at", "my_role"]  # fmt: skip

    def get_my_role(self, club: Club) -> str | None:
        from clubs.selectors import membership_of

        m = membership_of(self.context["request"].user, club)
        return m.role if m else None


class ClubInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60)
    visibility = serializers.ChoiceField(choices=Club.Visibility.choices, required=False)
    ruleset = serializers.JSONField(
        required=False, help_text='preset name or {"preset", "options"}'
    )
    base = serializers.IntegerField(min_value=1, required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    unit_label = serializers.CharField(max_length=16, required=False)


class ClubUpdateSerializer(ClubInSerializer):
    name = serializers.CharField(max_length=120, required=False)
    slug = None


class MembershipOutSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer()

    class Meta:
        model = Membership
        fields = ["id", "player", "display_name", "role", "joined_at"]


class MembershipInSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)
    display_name = serializers.CharField(max_length=80, required=False, default="")


class MembershipUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    display_name = serializers.CharField(max_length=80, required=False)


class ClubPlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player.id")
    name = serializers.CharField(source="player.name")
    display_name = serializers.CharField()
    role = serializers.CharField()


class ClubPlayerInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    display_name = serializers.CharField(max_length=80, required=False, default="")


class SeatOutSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    player = PlayerRefSerializer()


class BettorOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)


class TotalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()


class SessionOutSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    ruleset = RulesetOutSerializer()
    seats = SeatOutSerializer(many=True)
    bettors = BettorOutSerializer(many=True)
    totals = serializers.SerializerMethodField()

    class Meta:
        model = TableSession
        fields = ["id", "club", "started_at", "status", "base", "mode", "ruleset", "seats",
                  "bettors", "notes", "created_at", "closed_at", "totals"]  # fmt: skip

    def get_totals(self, session: TableSession) -> dict:
        totals = self.context.get("totals", {}).get(session.pk)
        players = totals["players"] if totals else {}
        bettors = totals["bettors"] if totals else {}
        return {
            "players": [
                {"id": s.player_id, "name": s.player.name, "total": players.get(s.player_id, 0)}
                for s in session.seats.all()
            ],
            "bettors": [
                {"id": b.pk, "name": b.name, "total": bettors.get(b.pk, 0)}
                for b in session.bettors.all()
            ],
        }


class BettorInSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    guest_name = serializers.CharField(max_length=80, required=False, default="")


class SessionInSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, help_text="four player ids, seats 0–3"
    )
    started_at = serializers.DateTimeField(required=False)
    bettors = BettorInSerializer(many=True, required=False)
    ruleset = serializers.JSONField(required=False)
    base = serializers.IntegerField(min_value=1, required=False)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, required=False)
    notes = serializers.CharField(max_length=200, required=False, default="")


class SessionUpdateSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField(required=False)
    notes = serializers.CharField(max_length=200, required=False)


class ResultItemSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, allow_null=True)
    bettor = serializers.IntegerField(required=False, allow_null=True)
    total = serializers.IntegerField()


class ResultInSerializer(serializers.Serializer):
    totals = ResultItemSerializer(many=True)


class PlayerSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="session.id")
    club = serializers.CharField(source="session.club.slug")
    started_at = serializers.DateTimeField(source="session.started_at")
    status = serializers.CharField(source="session.status")
    total = serializers.IntegerField()
    running_total = serializers.IntegerField()
