"""``GET /api/v1/clubs/{slug}/ranking/``: the club ranking (排行榜) of a period, as JSON or CSV.

The answer renders ``ratings.ranking.ClubRanking`` (kept under the club's read version,
``ratings.ranking.club_ranking_read``); a members-only club is, to anyone else, a club that
does not exist (404). ``count`` is how many rows the ranking has; ``?page=N`` answers its
N-th :data:`PAGE_SIZE` rows (``page_size``: 1 to :data:`MAX_PAGE_SIZE`), ranked over the
whole ranking; without ``page``, every row (as before pages were asked for). A page past the
last is a 404, a page or size that is not a number a 400.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api.access import club_for
from core.api import CSVCapableView
from core.errors import Invalid, NotFound, problem
from ratings.api.common import (
    FORMAT_PARAM,
    PERIOD_PARAMS,
    ClubPeriodSerializer,
    RoundedFloatField,
    period_data,
)
from ratings.ranking import SORT_KEYS, ClubRanking, RankingRow, club_ranking_read, ranking_query

RATE = "a float rounded to 4 places (null: no denominator); the counts beside it are exact"
#: the rows of a page (``?page=``) unless ``page_size`` says otherwise, and its most
PAGE_SIZE, MAX_PAGE_SIZE = 100, 500


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="shared on ties of the sort key")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(help_text="the club's name for him, else his own")
    rating = RoundedFloatField(
        2, allow_null=True, help_text="club rating now, 2 places; null: unrated"
    )
    provisional = serializers.BooleanField(help_text="under 10 rated sessions, or unrated")
    rated_sessions = serializers.IntegerField()
    delta = RoundedFloatField(2, help_text="change over the period's rated sessions, 2 places")
    sessions = serializers.IntegerField()
    hands = serializers.IntegerField()
    total = serializers.IntegerField(help_text="sum of session scores")
    average = RoundedFloatField(2, allow_null=True, help_text="score per session, 2 places")
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="how often 1st, 2nd, 3rd, 4th (ties share)"
    )
    wins = serializers.IntegerField()
    self_draws = serializers.IntegerField()
    deal_ins = serializers.IntegerField(help_text="点炮: discards won on (一炮多响 counts once)")
    win_rate = RoundedFloatField(4, allow_null=True, help_text=f"胡牌率 wins/hands: {RATE}")
    self_draw_rate = RoundedFloatField(
        4, allow_null=True, help_text=f"自摸率 self_draws/wins: {RATE}"
    )
    deal_in_rate = RoundedFloatField(4, allow_null=True, help_text=f"点炮率 deal_ins/hands: {RATE}")
    average_win = RoundedFloatField(2, allow_null=True, help_text="value of a win, 2 places")
    biggest_hand = serializers.IntegerField(help_text="the largest value of one win (0: none)")


class ClubRankingOutSerializer(serializers.Serializer):
    """The ranking (``ratings.ranking.ClubRanking``)."""

    period = ClubPeriodSerializer()
    sort = serializers.ChoiceField(choices=list(SORT_KEYS))
    order = serializers.ChoiceField(choices=["asc", "desc"])
    min_sessions = serializers.IntegerField()
    count = serializers.IntegerField(help_text="the ranking's rows, on every page")
    rows = RankingRowSerializer(many=True, help_text="every row, or those of ?page=")

    def __init__(self, *args, rows: slice = slice(None), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown = rows

    def to_representation(self, ranking: ClubRanking) -> dict[str, Any]:
        # What the declared fields give (the schema's source), written out directly: five
        # hundred rows through field objects cost more than the queries.
        # tests/ratings/test_ranking_api.py checks the two agree.
        return {
            "period": period_data(ranking.period),
            "sort": ranking.sort,
            "order": ranking.order,
            "min_sessions": ranking.min_sessions,
            "count": len(ranking.rows),
            "rows": [row_data(row) for row in ranking.rows[self.shown]],
        }


def _round(value: float | None, places: int) -> float | None:
    return None if value is None else round(value, places)


def row_data(r: RankingRow) -> dict[str, Any]:
    """One row as :class:`RankingRowSerializer` writes it (written out: see above)."""
    return {
        "rank": r.rank, "player": r.player_id, "name": r.name, "rating": _round(r.rating, 2),
        "provisional": r.provisional, "rated_sessions": r.rated_sessions,
        "delta": round(r.delta, 2), "sessions": r.sessions, "hands": r.hands, "total": r.total,
        "average": _round(r.average, 2), "places": list(r.places), "wins": r.wins,
        "self_draws": r.self_draws, "deal_ins": r.deal_ins, "win_rate": _round(r.win_rate, 4),
        "self_draw_rate": _round(r.self_draw_rate, 4),
        "deal_in_rate": _round(r.deal_in_rate, 4), "average_win": _round(r.average_win, 2),
        "biggest_hand": r.biggest_hand,
    }  # fmt: skip


def csv_rows(ranking: ClubRanking, shown: slice = slice(None)) -> list[dict[str, Any]]:
    """One flat row per player, a column per figure; places as place_1 … place_4."""
    rows = []
    for row in ranking.rows[shown]:
        data = row_data(row)
        places = data.pop("places")
        at = list(data).index("average") + 1
        items = list(data.items())
        items[at:at] = [(f"place_{k}", n) for k, n in enumerate(places, 1)]
        rows.append(dict(items))
    return rows


RANKING_PARAMS = [
    *PERIOD_PARAMS,
    OpenApiParameter("min_sessions", int, description="only players with this many sessions"),
    OpenApiParameter("sort", str, enum=list(SORT_KEYS), description="default: rating"),
    OpenApiParameter(
        "order", str, enum=["asc", "desc"], description="default: asc for name, else desc"
    ),
    OpenApiParameter("page", int, description="the N-th page of page_size rows; none: all"),
    OpenApiParameter(
        "page_size", int, description=f"rows of a page: {PAGE_SIZE}, at most {MAX_PAGE_SIZE}"
    ),
    FORMAT_PARAM,
]


def _whole(text: str, top: int) -> int | None:
    """A whole number from 1 to ``top`` written in a few ASCII digits, else None."""
    text = text.strip()
    ok = text.isascii() and text.isdigit() and len(text) <= 7
    return int(text) if ok and 1 <= int(text) <= top else None


def rows_shown(params, count: int) -> slice:
    """The rows ``?page=&page_size=`` ask for among ``count`` (every row without ``page``)."""
    page_text, size_text = params.get("page"), params.get("page_size")
    problems = []
    size = PAGE_SIZE if size_text in (None, "") else _whole(size_text, MAX_PAGE_SIZE)
    if size is None:
        message = f"page_size is a whole number from 1 to {MAX_PAGE_SIZE}"
        problems.append(problem("page_size", "invalid", message))
    page = None if page_text in (None, "") else _whole(page_text, 10**6)
    if page_text not in (None, "") and page is None:
        problems.append(problem("page", "invalid", "page is a whole number from 1"))
    if problems:
        raise Invalid(problems)
    if page is None:
        return slice(None)
    if (page - 1) * size >= max(count, 1):
        raise NotFound("Invalid page: the ranking has fewer rows.", path="page")
    return slice((page - 1) * size, page * size)


class ClubRankingView(CSVCapableView):
    """Every player of the club's own tables in the period: his club rating (provisional
    marked), its change over the period, and his figures; sortable, ``?format=csv``."""

    @extend_schema(parameters=RANKING_PARAMS, responses=ClubRankingOutSerializer)
    def get(self, request: Request, slug: str, format=None) -> Response:
        club = club_for(request, slug)
        query = ranking_query(request.query_params, club.time_zone)
        ranking = club_ranking_read(club, query)  # under the club's read version
        shown = rows_shown(request.query_params, len(ranking.rows))
        if self.wants_csv(request):
            return Response(csv_rows(ranking, shown))
        return Response(ClubRankingOutSerializer(ranking, rows=shown).data)
