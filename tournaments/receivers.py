"""Receivers: a tournament table's hands or totals changed → its standings follow."""

from __future__ import annotations

from tournaments.models import Tournament
from tournaments.services import standings_request


def standings_follow_table(*, session_id: int, **_) -> None:
    tournament_id = (
        Tournament.objects.filter(round_set__tables__session_id=session_id)
        .values_list("pk", flat=True)
        .first()
    )
    if tournament_id is not None:
        standings_request(tournament_id=tournament_id)
