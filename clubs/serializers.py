"""Input and output serializers of the clubs API."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.limits import BASE, HAND_NUMBER, SCORE
from clubs.models import (
    Club,
    ConfirmationRule,
    HandConfirmation,
    HandRevision,
    Invitation,
    Membership,
    Player,
    Role,
    TableSession,
)
from clubs.selectors import (
    HandView,
    SessionTotals,
    clubs_visible_to,
    membership_of,
    players_visible_to,
)
from core.columns import Column, Table
from core.fields import DateTimeField, TimeZoneField


class VisiblePlayerField(serializers.PrimaryKeyRelatedField):
    """A player by id, among those the caller may see (``clubs.selectors.players_visible_to``):
    an id he may not see answers exactly as one that does not exist."""

    visible_to = staticmethod(players_visible_to)

    def __init__(self, **kwargs) -> None:
        # the full queryset names the model for the schema; the caller's view is get_queryset's
        kwargs.setdefault("queryset", Player.objects.all())
        super().__init__(**kwargs)

    def get_queryset(self):
        request = self.context.get("request")
        return self.visible_to(request.user if request is not None else None)


class VisibleClubField(serializers.SlugRelatedField):
    """A club by slug, among those the caller may see (``clubs.selectors.clubs_visible_to``):
    a members-only club of others answers exactly as a slug never used (``does_not_exist``)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("queryset", Club.objects.all())
        super().__init__(slug_field="slug", **kwargs)

    def get_queryset(self):
        request = self.context.get("request")
        return clubs_visible_to(request.user if request is not None else None)


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
                  "confirmation_rule", "created_at", "my_role"]  # fmt: skip

    def get_my_role(self, club: Club) -> str | None:
        m = membership_of(self.context["request"].user, club)
        return m.role if m else None


class ClubInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60)
    visibility = serializers.ChoiceField(choices=Club.Visibility.choices, required=False)
    ruleset = serializers.JSONField(
        required=False, help_text='preset name or {"preset", "options"}'
    )
    base = serializers.IntegerField(required=False, **BASE)
    time_zone = TimeZoneField(required=False)
    unit_label = serializers.CharField(max_length=16, required=False)
    confirmation_rule = serializers.ChoiceField(
        choices=ConfirmationRule.choices, required=False,
        help_text="when a hand counts in totals, standings and ratings: shown (at once; "
        "confirmations are only shown), three or two (once three, or two, players other than "
        "the one who entered it confirmed it)",
    )  # fmt: skip


class ClubUpdateSerializer(ClubInSerializer):
    name = serializers.CharField(max_length=120, required=False)
    slug = None


class MembershipOutSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer()

    class Meta:
        model = Membership
        fields = ["id", "player", "display_name", "role", "joined_at"]


class MembershipInSerializer(serializers.Serializer):
    player = VisiblePlayerField()
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


class SessionTotalsSerializer(serializers.Serializer):
    players = TotalSerializer(many=True, help_text="each seated player, in seat order")
    bettors = TotalSerializer(many=True, help_text="each 叫马 bettor")


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

    @extend_schema_field(SessionTotalsSerializer)
    def get_totals(self, session: TableSession) -> dict:
        totals = self.context.get("totals", {}).get(session.pk) or SessionTotals()
        return {
            "players": [
                {"id": s.player_id, "name": s.player.name, "total": totals.of_player(s.player_id)}
                for s in session.seats.all()
            ],
            "bettors": [
                {"id": b.pk, "name": b.name, "total": totals.of_bettor(b.pk)}
                for b in session.bettors.all()
            ],
        }


class BettorInSerializer(serializers.Serializer):
    player = VisiblePlayerField(required=False)
    guest_name = serializers.CharField(max_length=80, required=False, default="")


class SessionInSerializer(serializers.Serializer):
    players = VisiblePlayerField(many=True, help_text="four player ids, seats 0–3")
    started_at = DateTimeField(required=False)
    bettors = BettorInSerializer(many=True, required=False)
    ruleset = serializers.JSONField(required=False)
    base = serializers.IntegerField(required=False, **BASE)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, required=False)
    notes = serializers.CharField(max_length=200, required=False, default="")


class SessionUpdateSerializer(serializers.Serializer):
    """Start time and notes; seats, bettors, base and mode while nothing was played."""

    started_at = DateTimeField(required=False)
    notes = serializers.CharField(max_length=200, required=False)
    players = VisiblePlayerField(many=True, required=False, help_text="four player ids")
    bettors = BettorInSerializer(many=True, required=False)
    base = serializers.IntegerField(required=False, **BASE)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, required=False)


class ResultItemSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, allow_null=True)
    bettor = serializers.IntegerField(required=False, allow_null=True)
    total = serializers.IntegerField(**SCORE)


class ResultInSerializer(serializers.Serializer):
    totals = ResultItemSerializer(many=True)


class PlayerClubSerializer(serializers.Serializer):
    slug = serializers.CharField(source="club.slug")
    name = serializers.CharField(source="club.name")
    display_name = serializers.CharField()
    role = serializers.CharField()


class PlayerSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="session.id")
    role = serializers.ChoiceField(choices=["seat", "bettor"], help_text="sat, or bet (叫马)")
    club = serializers.CharField(source="session.club.slug")
    started_at = serializers.DateTimeField(source="session.started_at")
    status = serializers.CharField(source="session.status")
    total = serializers.IntegerField()
    running_total = serializers.IntegerField()


class PlayerOutSerializer(serializers.Serializer):
    """A player's history (``clubs.selectors.PlayerHistory``): the clubs and sessions the
    caller may see, with his total and running total in each."""

    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    clubs = PlayerClubSerializer(many=True, source="memberships")
    sessions = PlayerSessionSerializer(many=True, help_text="club sessions")
    total = serializers.IntegerField(help_text="the running total over the club sessions")
    tournament_tables = PlayerSessionSerializer(many=True, help_text="tournament tables")
    tournament_total = serializers.IntegerField(
        help_text="the running total of table scores over the tournament tables"
    )


# --- hands ------------------------------------------------------------------------------------


class HandInSerializer(serializers.Serializer):
    """The hand record (see the engine's settle contract) without ruleset/base/mode."""

    number = serializers.IntegerField(required=False, **HAND_NUMBER)
    dealer = serializers.IntegerField(min_value=0, max_value=3, required=False)
    declared_void = serializers.JSONField(required=False)
    events = serializers.JSONField()
    draw = serializers.JSONField(required=False)
    bettors = serializers.JSONField(required=False)
    session = serializers.JSONField(required=False)


class PartySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["player", "bettor"])
    id = serializers.IntegerField()
    name = serializers.CharField()


class PaymentOutSerializer(serializers.Serializer):
    payer = PartySerializer()
    payee = PartySerializer()
    amount = serializers.IntegerField()
    reason = serializers.CharField()
    event = serializers.IntegerField(allow_null=True)


def _payments(payments) -> list[dict]:
    """A hand's payments as :class:`PaymentOutSerializer` writes them (written out: a hand has
    dozens, and a serializer per row costs more than the engine's whole settlement)."""
    return [
        {"payer": dict(p.payer._asdict()), "payee": dict(p.payee._asdict()), "amount": p.amount,
         "reason": p.reason, "event": p.event}
        for p in payments
    ]  # fmt: skip


#: a hand as answered, from its read model (``clubs.selectors.HandView``): each field declared
#: once, as a column (``core.columns``), whence the schema and the written answer
HAND: Table[HandView] = Table("HandOut", (
    Column("session", value="hand.session_id"),
    Column("number", value="hand.number"),
    Column("dealer", value="hand.dealer"),
    Column("next_dealer", value="hand.next_dealer", null=True),
    Column("revision", value="hand.revision"),
    Column("is_deleted", value="hand.is_deleted", kind="bool"),
    Column("deleted_reason", value="hand.deleted_reason", kind="str"),
    Column("record", value="hand.record", kind="json"),
    Column("settlement", value="hand.settlement", kind="json"),
    Column("payments", kind=lambda **kw: PaymentOutSerializer(many=True, **kw), json=_payments),
    Column("ruleset_fingerprint", value="hand.ruleset_fingerprint", kind="str"),
    Column("entered_by", value="hand.entered_by.username", kind="str", null=True),
    Column("entered_at", value="hand.entered_at", kind="datetime"),
    Column("updated_at", value="hand.updated_at", kind="datetime"),
), doc="A hand as answered, from its read model (``clubs.selectors.HandView``).")  # fmt: skip
HandOutSerializer = HAND.serializer


class RevisionOutSerializer(serializers.ModelSerializer):
    changed_by = serializers.CharField(source="changed_by.username", default=None)

    class Meta:
        model = HandRevision
        fields = ["revision", "action", "changes", "reason", "changed_by", "changed_at",
                  "record", "settlement"]  # fmt: skip


class ClubRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class InvitationOutSerializer(serializers.Serializer):
    """An invitation (``kind: join``) or password-reset link (``kind: reset``) of a club.

    ``url`` is the page that opens it (the link to pass on, also as the QR code on the members
    page); ``player`` is the invited player (join) or the member whose password it resets."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Invitation.Kind.choices)
    role = serializers.CharField(allow_null=True, help_text="join: the role it gives")
    player = PlayerRefSerializer(allow_null=True)
    state = serializers.ChoiceField(choices=Invitation.State.choices)
    url = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["role"] = data["role"] or None
        return data

    def get_url(self, inv: Invitation) -> str:
        path = reverse("page-invitation", args=[inv.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class InvitationInSerializer(serializers.Serializer):
    """``{"role": "scorer", "player": 12}`` invites (``player`` optional: a player of the club
    without a login); ``{"kind": "reset", "player": 12}`` issues a password-reset link for the
    login of the club's member ``player``."""

    kind = serializers.ChoiceField(choices=Invitation.Kind.choices, default=Invitation.Kind.JOIN)
    role = serializers.ChoiceField(choices=[Role.SCORER, Role.MEMBER], required=False)
    player = serializers.IntegerField(required=False, min_value=1)

    def validate(self, data):
        if data["kind"] == Invitation.Kind.JOIN and "role" not in data:
            raise serializers.ValidationError({"role": "an invitation names a role"})
        if data["kind"] == Invitation.Kind.RESET:
            if "role" in data:
                raise serializers.ValidationError({"role": "a reset link gives no role"})
            if "player" not in data:
                raise serializers.ValidationError({"player": "whose password the link resets"})
        return data


class AcceptedOutSerializer(serializers.Serializer):
    """What accepting an invitation gave: the club, the player now linked to the login and his
    role there."""

    club = ClubRefSerializer()
    player = PlayerRefSerializer()
    role = serializers.CharField()


class MeClubSerializer(serializers.Serializer):
    slug = serializers.CharField(source="club.slug")
    name = serializers.CharField(source="club.name")
    role = serializers.CharField()


class SeatRepairInSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3), min_length=4, max_length=4,
        help_text="the seat whose player sits at seats 0–3 from now: [1, 0, 2, 3] swaps the "
        "first two, [3, 0, 1, 2] moves everyone on one wind",
    )  # fmt: skip
    reason = serializers.CharField(max_length=200, help_text="why (kept with the repair)")


class SeatRepairOutSerializer(serializers.Serializer):
    before = serializers.ListField(child=serializers.IntegerField(), help_text="players by seat")
    after = serializers.ListField(child=serializers.IntegerField(), help_text="players by seat")
    reason = serializers.CharField()
    repaired_by = serializers.CharField(source="repaired_by.username", default=None)
    repaired_at = serializers.DateTimeField()


# --- confirmations (issue 24 §2) ---------------------------------------------------------------


class ConfirmationInSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(choices=["confirm", "dispute"])
    words = serializers.CharField(
        max_length=200, required=False, allow_blank=True, trim_whitespace=False,
        help_text="what is wrong (required to dispute): “not 清一色”, “I did not 点炮”",
    )  # fmt: skip
    seat = serializers.IntegerField(
        min_value=0, max_value=3, required=False,
        help_text="your seat (0–3); by default the seat of your login's player",
    )  # fmt: skip


class ConfirmationOutSerializer(serializers.Serializer):
    revision = serializers.IntegerField(help_text="the hand's revision the word is about")
    seat = serializers.IntegerField(allow_null=True, help_text="null: the organiser's ruling")
    verdict = serializers.ChoiceField(choices=HandConfirmation.Verdict.choices)
    words = serializers.CharField()
    by = serializers.CharField(source="by.username", default=None, allow_null=True)
    by_link = serializers.BooleanField()
    at = serializers.DateTimeField()


class DisputeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    words = serializers.CharField()


class HandConfirmationsOutSerializer(serializers.Serializer):
    """Where a hand stands under its table's confirmation rule, and every word said about it."""

    number = serializers.IntegerField()
    revision = serializers.IntegerField()
    rule = serializers.ChoiceField(choices=ConfirmationRule.choices)
    counts = serializers.BooleanField(help_text="counts in totals, standings and ratings")
    entry_seat = serializers.IntegerField(
        allow_null=True, help_text="the seat that entered it (its entry is its confirmation)"
    )
    needed = serializers.IntegerField(help_text="confirmations the rule asks for")
    confirmed = serializers.ListField(child=serializers.IntegerField(), help_text="seats")
    disputed = DisputeSerializer(many=True)
    waiting = serializers.IntegerField(help_text="confirmations still missing")
    ruling = serializers.CharField(allow_null=True, help_text="the organiser's ruling, if any")
    words = ConfirmationOutSerializer(many=True, help_text="every word, each revision's, in order")


class ResolutionInSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, help_text="the ruling, in a few words")
    hand = serializers.JSONField(
        required=False,
        help_text="the corrected hand record, when the ruling corrects it (as for PUT)",
    )
