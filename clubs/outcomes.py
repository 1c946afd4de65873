"""The result of a table session (一桌的战果), as everything built on sessions reads it.

A :class:`SessionOutcome` is one read model for a club table and a tournament table alike: the
four seated players with their score and their place (ties share the better place: two players
level on top are both 1st and the next is 3rd), the 叫马 bettors with theirs, when it was played,
how many hands it had and how many of them were declared rather than shown, and whether it is
finished. Tournament standings, ratings and player statistics all read it, so that a table
counts the same everywhere.

A session is **finished** when it is closed; a table that plays a fixed number of hands (a
tournament table's ``hand_limit``) is finished as well once it has played them or its final
totals were entered. A club table that is still open is still being played, whatever it holds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count, Q

from clubs.models import Bettor, Hand, Seat, TableSession
from clubs.selectors import hand_version, sessions_totals
from scoring import services as scoring_services
from scoring.engine.settle import Settlement


class SeatOutcome(NamedTuple):
    """One seated player's result: his score and his place (1–4, ties sharing the better)."""

    seat: int
    player_id: int
    name: str
    score: int
    place: int
    tied: bool


class BettorOutcome(NamedTuple):
    """A 叫马 bettor's result (a player of the service, or a guest by name)."""

    bettor_id: int
    player_id: int | None
    name: str
    score: int


@dataclass(frozen=True)
class SessionOutcome:
    session_id: int
    club_id: int
    kind: str
    started_at: datetime
    finished: bool
    hands: int  # live hands that count (0 when the totals were entered instead)
    declared_hands: int  # of them, hands where something was declared, not shown (RULES §6)
    entered: bool  # the totals were entered as a final result, not played out hand by hand
    seats: tuple[SeatOutcome, ...]
    bettors: tuple[BettorOutcome, ...]

    @property
    def verified(self) -> bool:
        """Every hand shown by its tiles (a session of entered totals is not)."""
        return self.hands > 0 and self.declared_hands == 0 and not self.entered

    @property
    def key(self) -> tuple[datetime, int]:
        """The order sessions are played in (and rated in): start time, then id."""
        return (self.started_at, self.session_id)

    def seat_of(self, player_id: int) -> SeatOutcome | None:
        return next((s for s in self.seats if s.player_id == player_id), None)


def places(scores: Iterable[int]) -> list[int]:
    """Places by score, ties sharing the better place: [10, 10, 0, -20] → [1, 1, 3, 4]."""
    scores = list(scores)
    return [1 + sum(other > mine for other in scores) for mine in scores]


def session_outcomes(session_ids: Iterable[int]) -> dict[int, SessionOutcome]:
    """The outcomes of the given sessions, by id (ids of sessions that do not exist are left
    out): four queries however many sessions."""
    ids = list(session_ids)
    if not ids:
        return {}
    sessions = (
        TableSession.objects.filter(pk__any_of=ids)
        .order_by()
        .annotate(
            # the hands that count: a hand held by the table's confirmation rule is left out
            # (and a table that plays a fixed number of hands is not finished while it waits)
            live=Count(
                "hands", filter=Q(hands__is_deleted=False, hands__counts=True), distinct=True
            ),
            declared=Count(
                "hands",
                filter=Q(
                    hands__is_deleted=False, hands__counts=True, hands__settlement__verified=False
                ),
                distinct=True,
            ),
            entered=Count("results", distinct=True),
        )
        .values_list(
            "pk", "club_id", "kind", "started_at", "status", "hand_limit", "live", "declared",
            "entered",
        )
    )  # fmt: skip
    totals = sessions_totals(ids)
    seats: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for session_id, number, player_id, name in (
        Seat.objects.filter(session_id__any_of=ids)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "player_id", "player__name")
    ):
        seats[session_id].append((number, player_id, name))
    bettors: dict[int, list[tuple[int, int | None, str]]] = defaultdict(list)
    for session_id, bettor_id, player_id, player_name, guest in (
        Bettor.objects.filter(session_id__any_of=ids)
        .order_by("session_id", "id")
        .values_list("session_id", "id", "player_id", "player__name", "guest_name")
    ):
        bettors[session_id].append((bettor_id, player_id, player_name or guest))
    out = {}
    for pk, club_id, kind, started_at, status, limit, live, declared, entered in sessions:
        book = totals[pk]
        scores = [book.of_player(p) for _, p, _ in seats[pk]]
        shared = places(scores)
        finished = status == TableSession.Status.CLOSED or (
            limit is not None and (entered > 0 or live >= limit)
        )
        out[pk] = SessionOutcome(
            session_id=pk,
            club_id=club_id,
            kind=kind,
            started_at=started_at,
            finished=finished,
            hands=live,
            declared_hands=declared,
            entered=entered > 0,
            seats=tuple(
                SeatOutcome(n, p, name, score, place, shared.count(place) > 1)
                for (n, p, name), score, place in zip(seats[pk], scores, shared, strict=True)
            ),
            bettors=tuple(
                BettorOutcome(b, p, name, book.of_bettor(b)) for b, p, name in bettors[pk]
            ),
        )
    return out


def session_outcome(session_id: int) -> SessionOutcome | None:
    return session_outcomes([session_id]).get(session_id)


#: what a statistics' read takes of each hand row
_ROW = ("number", "record", "settlement", "ruleset_fingerprint", "pk", "revision", "updated_at")


def _settled(row: tuple) -> tuple[int, Settlement]:
    """(number, settlement) of a hand row (``_ROW``): what ``selectors.settled_hand`` reads."""
    number, record, settlement, fingerprint, pk, revision, updated_at = row
    settled = scoring_services.stored_settlement(
        record=record,
        settlement=settlement,
        ruleset=scoring_services.pinned_by_fingerprint(fingerprint),
        version=hand_version(pk, revision, updated_at),
    )
    return number, settled


def session_hand_records(session_id: int) -> list[tuple[int, Settlement]]:
    """A session's live hands that count (not held by the table's confirmation rule), in
    order: (number, settlement), the settlement typed with its record within."""
    return [
        _settled(row)
        for row in Hand.objects.filter(session_id=session_id, is_deleted=False, counts=True)
        .order_by("number")
        .values_list(*_ROW)
    ]


def sessions_hand_records(session_ids: Iterable[int]) -> dict[int, list[tuple[int, Settlement]]]:
    """:func:`session_hand_records` of many sessions in one query, by session id (a session
    without such a hand is left out)."""
    out: dict[int, list[tuple[int, Settlement]]] = defaultdict(list)
    for session_id, *row in (
        Hand.objects.filter(session_id__any_of=list(session_ids), is_deleted=False, counts=True)
        .order_by("session_id", "number")
        .values_list("session_id", *_ROW)
    ):
        out[session_id].append(_settled(tuple(row)))
    return out


def session_ids_of(club_id: int) -> list[int]:
    """Every session of a club, club tables and tournament tables, in play order."""
    return list(
        TableSession.objects.filter(club_id=club_id)
        .order_by("started_at", "id")
        .values_list("pk", flat=True)
    )


def session_club_id(session_id: int) -> int | None:
    """The club a session belongs to (None: no such session)."""
    return TableSession.objects.filter(pk=session_id).values_list("club_id", flat=True).first()
