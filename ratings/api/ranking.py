"""``GET /api/v1/clubs/{slug}/ranking/`` (to be built)."""

from core.api import CSVCapableView


class ClubRankingView(CSVCapableView):
    pass
