"""``GET /api/v1/players/{id}/stats/`` (to be built)."""

from core.api import ApiView


class PlayerStatsView(ApiView):
    pass
