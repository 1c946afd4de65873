"""Receivers: a tournament table's hands or totals changed → its standings follow; anything of
a tournament written → its live pages are told (``core.live``)."""

from __future__ import annotations

from django.db.models import Model

from clubs.models import TableSession
from core import live
from tournaments.models import (
    Penalty,
    Registration,
    Round,
    StandingsSnapshot,
    Substitution,
    Table,
    Tournament,
)
from tournaments.services import standings_request


def standings_follow_table(*, session_id: int, **_) -> None:
    tournament_id = (
        Tournament.objects.filter(round_set__tables__session_id=session_id)
        .values_list("pk", flat=True)
        .first()
    )
    if tournament_id is not None:
        standings_request(tournament_id=tournament_id)


#: a round's tournament, a table's round, a tournament session's round: none of them ever
#: changes, so what was read once is kept (what is not there yet is not)
_KEPT: dict[tuple[str, int], int] = {}


def _kept(what: str, pk: int, read) -> int | None:
    found = _KEPT.get((what, pk))
    if found is None:
        found = read().values_list(what, flat=True).first()
        if found is not None:
            if len(_KEPT) > 50_000:
                _KEPT.clear()
            _KEPT[(what, pk)] = found
    return found


def _round_tournament(round_id: int) -> int | None:
    return _kept("tournament_id", round_id, lambda: Round.objects.filter(pk=round_id))


def _table_round(table_id: int) -> int | None:
    return _kept("round_id", table_id, lambda: Table.objects.filter(pk=table_id))


def _session_round(session_id: int) -> int | None:
    return _kept("round_id", -session_id, lambda: Table.objects.filter(session_id=session_id))


def _tournament_of(instance: Model) -> int | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Registration | StandingsSnapshot | Penalty | Round):
        return instance.tournament_id
    if isinstance(instance, Table):
        return _round_tournament(instance.round_id)
    if isinstance(instance, Substitution):
        round_id = _table_round(instance.table_id)
        return None if round_id is None else _round_tournament(round_id)
    return None


#: the models whose rows a tournament's pages show
LIVE_MODELS = (Tournament, Registration, Round, Table, StandingsSnapshot, Penalty, Substitution)


def tournament_written(*, instance: Model, **_) -> None:
    """A row of a tournament saved or deleted: its pages read it again after the commit."""
    tournament_id = _tournament_of(instance)
    if tournament_id is not None:
        channel = live.tournament_channel(tournament_id)
        live.announce(channel, kind="tournament", tournament=tournament_id)


def tournament_table_written(*, session_id: int, kind: str, version: int, **_) -> None:
    """A tournament table's hands or results changed: the live tables, the round page and
    the desk show its progress at once, before its standings are recomputed."""
    if kind != TableSession.Kind.TOURNAMENT:
        return
    round_id = _session_round(session_id)
    tournament_id = None if round_id is None else _round_tournament(round_id)
    if tournament_id is None:
        return
    channel = live.tournament_channel(tournament_id)
    live.announce(channel, kind="table", table=session_id, version=version)
