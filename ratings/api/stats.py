"""``GET /api/v1/players/{id}/stats/?club=&tournament=&from=&to=``: a player's statistics, his
rating history and his head-to-head (``ratings.stats.player_stats``: the scope and the basis
of every figure are explained there).

``club`` and ``tournament`` are slugs; one that does not exist or that the caller may not read
is a 404 at its path (a members-only club does not exist to outsiders), and both together are
refused (400): a tournament's tables are points of its ranking, a club's are money. A player
the caller may see nothing of is a 404, as on ``GET /api/v1/players/{id}/``.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Player
from clubs.selectors import club_visible
from core.api import ApiView
from core.errors import Invalid, NotFound
from ratings.periods import period_from
from ratings.stats import HEAD_TO_HEAD_LIMIT, RATE_PLACES, player_stats
from tournaments.models import Tournament
from tournaments.selectors import can_read_tournament

RATE = f"a float rounded to {RATE_PLACES} places; null when there is nothing to divide by"


def _rate(help_text: str, **kwargs) -> serializers.FloatField:
    return serializers.FloatField(allow_null=True, help_text=f"{help_text} ({RATE})", **kwargs)


class BasisField(serializers.ChoiceField):
    """A group's basis: the constant it was given, whatever the object."""

    def __init__(self, value: str, **kwargs) -> None:
        self.value = value
        super().__init__(choices=[value], source="*", read_only=True, **kwargs)

    def to_representation(self, _) -> str:
        return self.value


class StatsRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class StatsPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()


class StatsScopeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["club", "tournament"],
        help_text="club: club tables (money); tournament: one tournament's tables (points)",
    )
    club = StatsRefSerializer(allow_null=True, help_text="the club asked for (club=), else null")
    tournament = StatsRefSerializer(
        allow_null=True, help_text="the tournament asked for, else null"
    )
    first_day = serializers.DateField(allow_null=True, help_text="from=, in each club's zone")
    last_day = serializers.DateField(allow_null=True, help_text="to=, included")
    clubs = StatsRefSerializer(many=True, help_text="the readable clubs whose tables are counted")


class StatsBasisSerializer(serializers.Serializer):
    """How much each group of figures rests on."""

    sessions = serializers.IntegerField(help_text="every session in scope: scores rest on it")
    entered_sessions = serializers.IntegerField(help_text="of them, totals entered, no hands")
    sessions_with_hands = serializers.IntegerField(help_text="hand figures rest on these")
    hands = serializers.IntegerField()
    shown_hands = serializers.IntegerField(help_text="hands shown by tiles")
    declared_hands = serializers.IntegerField(help_text="hands where something was declared")
    wins = serializers.IntegerField(help_text="win figures rest on these")
    shown_wins = serializers.IntegerField(help_text="wins shown by tiles")
    declared_wins = serializers.IntegerField()


class StatsScoresSerializer(serializers.Serializer):
    basis = BasisField("sessions", help_text="rests on every session, entered totals included")
    sessions = serializers.IntegerField()
    total_score = serializers.IntegerField()
    average_score = _rate("score per session")
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="how often 1st, 2nd, 3rd, 4th (ties share)"
    )
    place_rates = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text=f"places per session ({RATE})"
    )


class StatsWinOrderSerializer(serializers.Serializer):
    first = serializers.IntegerField(source="first_wins")
    second = serializers.IntegerField(source="second_wins")
    third = serializers.IntegerField(source="third_wins")


class StatsKongsSerializer(serializers.Serializer):
    concealed = serializers.IntegerField(source="kongs_concealed", help_text="暗杠")
    direct = serializers.IntegerField(source="kongs_direct", help_text="直杠")
    added = serializers.IntegerField(source="kongs_added", help_text="弯杠")
    total = serializers.IntegerField(source="kongs")
    net = serializers.IntegerField(
        source="kong_net", help_text="杠钱: kong payments and 退税, net (呼叫转移 apart)"
    )


class StatsTransferSerializer(serializers.Serializer):
    paid = serializers.IntegerField(source="transfer_paid")
    received = serializers.IntegerField(source="transfer_received")


class StatsChajiaoSerializer(serializers.Serializer):
    paid = serializers.IntegerField(source="chajiao_paid")
    received = serializers.IntegerField(source="chajiao_received")


class StatsHandFiguresSerializer(serializers.Serializer):
    basis = BasisField("hands", help_text="rests on the hands (basis.hands)")
    wins = serializers.IntegerField()
    win_rate = _rate("胡牌率: wins per hand")
    self_draws = serializers.IntegerField()
    self_draw_rate = _rate("自摸率: self-draws per win")
    deal_ins = serializers.IntegerField(help_text="点炮: discards won on (一炮多响 counts once)")
    deal_in_rate = _rate("点炮率: deal-ins per hand")
    self_drawn_against = serializers.IntegerField(help_text="被自摸: self-drawn wins he paid")
    self_drawn_against_rate = _rate("被自摸 per hand")
    win_order = StatsWinOrderSerializer(source="*", help_text="血战: 1st, 2nd, 3rd to win a hand")
    kongs = StatsKongsSerializer(source="*")
    kong_transfer = StatsTransferSerializer(source="*", help_text="呼叫转移 paid and received")
    chajiao = StatsChajiaoSerializer(source="*", help_text="查叫 paid and received")
    huazhu = serializers.IntegerField(help_text="花猪: drawn hands he ended holding three suits")


class StatsBiggestWinSerializer(serializers.Serializer):
    amount = serializers.IntegerField(help_text="what each payer paid for the win itself")
    pattern = serializers.CharField()
    zh = serializers.CharField(source="name.zh")
    en = serializers.CharField(source="name.en")
    roots = serializers.IntegerField()
    self_draw = serializers.BooleanField()
    verified = serializers.BooleanField(help_text="shown by tiles; false: declared")
    session = serializers.IntegerField(source="session_id")
    hand = serializers.IntegerField(source="hand_number")
    started_at = serializers.DateTimeField(help_text="when the session started")
    day = serializers.DateField(help_text="the club's day it was played on (its time zone)")


class StatsPatternCountSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField(source="name.zh", help_text="as the preset names it")
    en = serializers.CharField(source="name.en")
    wins = serializers.IntegerField()
    shown = serializers.IntegerField(help_text="of them, shown by tiles")


class StatsWinFiguresSerializer(serializers.Serializer):
    basis = BasisField("wins", help_text="rests on the wins (basis.wins), declared included")
    wins = serializers.IntegerField()
    total = serializers.IntegerField(source="win_total", help_text="sum of the wins' values")
    average = _rate("average win value", source="average_win")
    biggest = StatsBiggestWinSerializer(allow_null=True)
    patterns = StatsPatternCountSerializer(many=True, help_text="most frequent first")
    roots = serializers.DictField(
        child=serializers.IntegerField(), help_text="wins by their number of 根: {0: n, 1: n}"
    )


class StatsRatingStepSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    played_at = serializers.DateTimeField()
    number = serializers.IntegerField(help_text="his n-th rated session in the pool")
    score = serializers.IntegerField()
    place = serializers.IntegerField()
    expected_place = serializers.IntegerField(help_text="the place the model expected")
    expected_probability = serializers.FloatField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    delta = serializers.FloatField()


class StatsRatingHistorySerializer(serializers.Serializer):
    club = StatsRefSerializer()
    tournament = StatsRefSerializer(allow_null=True, help_text="null: the club's own pool")
    rating = serializers.FloatField(help_text="the display rating now (a new player 1500)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    sessions = serializers.IntegerField(help_text="rated sessions")
    provisional = serializers.BooleanField()
    history = StatsRatingStepSerializer(many=True, help_text="the period's steps, oldest first")


class StatsOpponentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    sessions = serializers.IntegerField(help_text="sessions together")
    net = serializers.IntegerField(
        help_text="received from him minus paid to him (sessions played hand by hand)"
    )
    above = serializers.IntegerField(help_text="sessions this player finished above him")
    below = serializers.IntegerField()
    level = serializers.IntegerField(help_text="sessions they shared a place")


class StatsTournamentLineSerializer(serializers.Serializer):
    tournament = StatsRefSerializer()
    tables = serializers.IntegerField()
    score = serializers.IntegerField(help_text="table scores summed: points, not money")
    places = serializers.ListField(child=serializers.IntegerField(), help_text="1st … 4th")


class PlayerStatsSerializer(serializers.Serializer):
    """``ratings.stats.PlayerStats``."""

    player = StatsPlayerSerializer(source="*")
    scope = StatsScopeSerializer()
    basis = StatsBasisSerializer()
    scores = StatsScoresSerializer()
    hands = StatsHandFiguresSerializer()
    win_values = StatsWinFiguresSerializer()
    ratings = StatsRatingHistorySerializer(many=True, help_text="one per rating pool in scope")
    head_to_head = StatsOpponentSerializer(
        many=True, help_text=f"the {HEAD_TO_HEAD_LIMIT} opponents he sat with most"
    )
    tournaments = StatsTournamentLineSerializer(
        many=True, help_text="his tournament tables, apart (all of them under tournament=)"
    )


PARAMETERS = [
    OpenApiParameter("club", str, description="a club's slug: its own tables only"),
    OpenApiParameter("tournament", str, description="a tournament's slug: its tables only"),
    OpenApiParameter("from", OpenApiTypes.DATE, description="first day, in the club's zone"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="last day, included"),
]


class PlayerStatsView(ApiView):
    """A player's statistics over what you may see, his rating history and head-to-head."""

    @extend_schema(parameters=PARAMETERS, responses=PlayerStatsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        player = Player.objects.filter(pk=pk).first()
        if player is None:
            raise NotFound("no such player")
        params = request.query_params
        club = tournament = None
        if params.get("club") and params.get("tournament"):
            message = "a tournament's tables are apart from a club's: ask for one of them"
            raise Invalid.single("tournament", "club_and_tournament", message)
        if params.get("club"):
            club = club_visible(request.user, params["club"])
            if club is None:
                raise NotFound("no such club", path="club")
        if params.get("tournament"):
            tournament = (
                Tournament.objects.select_related("club").filter(slug=params["tournament"])
            ).first()
            if tournament is None or not can_read_tournament(request.user, tournament):
                raise NotFound("no such tournament", path="tournament")
        home = club or (tournament.club if tournament else None)
        period = period_from(params, home.time_zone) if home else period_from(params)
        stats = player_stats(player, request.user, club=club, tournament=tournament,
                             period=period)  # fmt: skip
        if stats is None:
            raise NotFound("no such player")
        return Response(PlayerStatsSerializer(stats).data)
