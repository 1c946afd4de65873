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
    period_data,
)
from ratings.ranking import RANKING, ClubRanking, club_ranking_read, ranking_query

#: the rows of a page (``?page=``) unless ``page_size`` says otherwise, and its most
PAGE_SIZE, MAX_PAGE_SIZE = 100, 500
#: a row of the ranking: its fields are ``ratings.ranking.RANKING``'s columns
RankingRowSerializer = RANKING.serializer


class ClubRankingOutSerializer(serializers.Serializer):
    """The ranking (``ratings.ranking.ClubRanking``)."""

    period = ClubPeriodSerializer()
    sort = serializers.ChoiceField(choices=list(RANKING.sort_keys))
    order = serializers.ChoiceField(choices=["asc", "desc"])
    min_sessions = serializers.IntegerField()
    count = serializers.IntegerField(help_text="the ranking's rows, on every page")
    rows = RankingRowSerializer(many=True, help_text="every row, or those of ?page=")

    def __init__(self, *args, rows: slice = slice(None), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown = rows

    def to_representation(self, ranking: ClubRanking) -> dict[str, Any]:
        # What the declared fields give (the schema's source), written out directly: five
        # hundred rows through field objects cost more than the queries. The rows are
        # written by their columns (``RANKING.data``), as the fields are made of them.
        row = RANKING.data
        return {
            "period": period_data(ranking.period),
            "sort": ranking.sort,
            "order": ranking.order,
            "min_sessions": ranking.min_sessions,
            "count": len(ranking.rows),
            "rows": [row(r) for r in ranking.rows[self.shown]],
        }


def csv_rows(ranking: ClubRanking, shown: slice = slice(None)) -> list[dict[str, Any]]:
    """One flat row per player, a column per figure (the CSV's columns of ``RANKING``: its
    places as place_1 … place_4)."""
    row = RANKING.csv_row
    return [row(r) for r in ranking.rows[shown]]


RANKING_PARAMS = [
    *PERIOD_PARAMS,
    OpenApiParameter("min_sessions", int, description="only players with this many sessions"),
    OpenApiParameter("sort", str, enum=list(RANKING.sort_keys), description="default: rating"),
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
