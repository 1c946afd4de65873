"""``GET /api/v1/clubs/{slug}/awards/`` (to be built)."""

from core.api import ApiView


class ClubAwardsView(ApiView):
    pass
