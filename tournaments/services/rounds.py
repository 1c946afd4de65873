"""Rounds started and seated (by a worker: the seating algorithm, finals, reseats), and a table's
result entered."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from clubs.models import Seat, TableSession
from clubs.services.sessions import ResultFields, session_result_enter
from core.errors import Conflict, Invalid, problem
from core.jobs import job_create, job_failed, job_queue
from core.text import clean_text
from tournaments import selectors
from tournaments.models import (
    Registration,
    Round,
    Table,
    Tournament,
)
from tournaments.seating import RoundSeating, SeatingError, SeatingResult, seat_round
from tournaments.seating.quality import quality as seating_quality

from .locks import ROUND_LOCKED, _lock
from .standings import standings_request

# --- rounds and their seating -----------------------------------------------------------------


#: the Celery task that seats a round (``tournaments.tasks``), queued by name
SEATING_TASK = "tournaments.generate_seating"
#: a seating asked for that has not finished after this long was lost (its worker died, or the
#: broker was down longer than this): asking again seats the round again (a seating stops at
#: 20 s; a repeated one answers the seating already made)
SEATING_REQUEST_TTL = timedelta(minutes=2)


@transaction.atomic
def round_start(*, tournament: Tournament) -> Round:
    """Seat the next round: checks now, the seating itself in ``tournaments.generate_seating``."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    rounds = list(tournament.round_set.select_related("task").order_by("number"))
    if rounds and rounds[-1].status == Round.Status.SEATING and not _seating_lost(rounds[-1]):
        message = f"round {rounds[-1].number} is being seated"
        raise Conflict("seating_in_progress", message)
    if rounds and rounds[-1].status in (Round.Status.FAILED, Round.Status.SEATING):
        # the last attempt failed (say, a pin that could not be honoured) or was lost: again
        return _seat_again(rounds[-1], tournament, reseat=False)
    number = len(rounds) + 1
    if number > tournament.rounds:
        message = f"all {tournament.rounds} rounds are seated"
        raise Conflict("no_rounds_left", message)
    if rounds:
        last = rounds[-1]
        [progress] = selectors.rounds_progress(tournament, [last])
        if last.status != Round.Status.SEATED or progress.tables_with_result < progress.tables:
            message = (
                f"round {last.number} is not complete: "
                f"{progress.tables_with_result} of {progress.tables} tables have a result"
            )
            raise Conflict("round_not_complete", message)
    if len(_active_players(tournament, number)) < 4:
        message = "a round needs at least four active players" + (
            " checked in" if tournament.check_in else ""
        )
        raise Conflict("too_few_players", message)
    round_ = Round.objects.create(tournament=tournament, number=number, method=tournament.seating)
    round_.task = job_create(SEATING_TASK, tournament)
    round_.save(update_fields=["task"])
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    job_queue(round_.task, round_.pk)
    return round_


@transaction.atomic
def round_reseat(*, round_: Round, reason: str, user=None) -> Round:
    """Seat a round again (after a late withdrawal, say), as long as nothing was played; the
    reason is kept with the round. A seating drawn again draws anew (another seed)."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the round is seated again")
    reason = clean_text(reason.strip(), "reason")[:200]
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament", "task")
        .get(pk=round_.pk)
    )
    if round_.status == Round.Status.SEATING and not _seating_lost(round_):
        raise Conflict("seating_in_progress", f"round {round_.number} is being seated")
    if round_.tournament.round_set.filter(number__gt=round_.number).exists():
        message = "only the latest round can be seated again"
        raise Conflict("not_latest_round", message)
    if selectors.round_has_results(round_):
        message = f"round {round_.number} has results; it cannot be seated again"
        raise Conflict("round_has_results", message)
    round_.reseats = [
        *round_.reseats,
        {"reason": reason, "by": getattr(user, "username", None), "at": timezone.now().isoformat()},
    ]
    round_.save(update_fields=["reseats"])
    # the plan of the rounds to come was drawn with the old seating: drawn again with it
    Tournament.objects.filter(pk=round_.tournament_id).update(seating_plan=[])
    return _seat_again(round_, round_.tournament, reseat=True)


def _seating_lost(round_: Round) -> bool:
    """A seating asked for longer ago than the TTL and not done: its message or worker was
    lost. Its job says so, and it may be asked for again."""
    task = round_.task
    if task is None or task.updated_at > timezone.now() - SEATING_REQUEST_TTL:
        return False
    lost = problem("", "seating_request_expired", "the seating was not done in time; asked again")
    job_failed(str(task.pk), [lost])
    return True


def _seat_again(round_: Round, tournament: Tournament, *, reseat: bool) -> Round:
    round_.status = Round.Status.SEATING
    round_.task = job_create(SEATING_TASK, tournament)
    round_.save(update_fields=["status", "task"])
    if reseat:
        job_queue(round_.task, round_.pk, True)
    else:
        job_queue(round_.task, round_.pk)
    return round_


def _active_players(tournament: Tournament, number: int) -> list[Registration]:
    """Who round ``number`` seats: the active entries due by then (and, where the tournament
    checks in, those checked in)."""
    entries = tournament.registrations.filter(
        status=Registration.Status.ACTIVE, first_round__lte=number
    )
    if tournament.check_in:
        entries = entries.filter(checked_in=True)
    return list(entries.order_by(F("seed_rating").desc(nulls_last=True), "pk"))


#: a round drawn again draws with the seed plus this for each time it was drawn again
RESEAT_SEED_STEP = 7919


def _seat_finals(
    tournament: Tournament, round_: Round, players: list[int], history: list[RoundSeating]
) -> SeatingResult:
    """A final round: the top ``finals_players`` of the standings before it at seeded tables
    (1st–4th at table 1, …; each final round moves the seats on one wind), the rest in the
    consolation group at the tables after them, seated by the tournament's method (or
    given no table: no consolation)."""
    standings, _, _ = selectors.standings_now(tournament, before_round=round_.number)
    order = {s.player: i for i, s in enumerate(standings)}
    if round_.number == tournament.first_final_round:
        ranked = sorted(players, key=lambda p: (order.get(p, len(order)), p))
        top = ranked[: tournament.finals_players]
    else:  # the finalists of the first final round, in the standings' order now
        chosen = selectors.finalists(tournament)
        top = sorted((p for p in players if p in chosen), key=lambda p: order.get(p, len(order)))
    if len(top) < tournament.finals_players:
        message = (
            f"the finals seat {tournament.finals_players} players; "
            f"{len(top)} of them are here to play"
        )
        raise SeatingError("finals_short", message)
    shift = (round_.number - tournament.first_final_round) % 4
    groups = [top[i : i + 4] for i in range(0, len(top), 4)]
    groups = [g[shift:] + g[:shift] for g in groups]
    chosen = set(top)
    rest = [p for p in players if p not in chosen]
    byes: tuple[int, ...] = ()
    if tournament.consolation and len(rest) >= 4:
        if tournament.seating == Tournament.Seating.SWISS:
            rest.sort(key=lambda p: order.get(p, len(order)))
        consolation = seat_round(
            method=tournament.seating, players=rest, history=history,
            total_rounds=tournament.rounds,
            seed=tournament.seed + RESEAT_SEED_STEP * len(round_.reseats),
        ).round  # fmt: skip
        groups += [list(t.players) for t in consolation.tables]
        byes = consolation.byes
    seating = RoundSeating.from_groups(groups, byes)
    return SeatingResult(round=seating, plan=(), quality=seating_quality(history, seating))


def round_seat(*, round_id: int, reseat: bool = False) -> dict[str, Any]:
    """The body of ``tournaments.generate_seating``: seat one round and write it whole.

    Idempotent: a round already seated answers its seating again (unless asked to reseat,
    which the API allows only while the round has no result).
    """
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
        tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if round_.status == Round.Status.SEATED and not reseat:
            return _seating_summary(round_)
        if selectors.round_has_results(round_):
            raise Conflict("round_has_results", f"round {round_.number} has results")
        old_sessions = list(round_.tables.values_list("session_id", flat=True))
        round_.tables.all().delete()
        TableSession.objects.filter(pk__in=old_sessions).delete()

        registrations = _active_players(tournament, round_.number)
        players = [r.player_id for r in registrations]
        if tournament.seating == Tournament.Seating.SWISS and round_.number > 1:
            standings, _, _ = selectors.standings_now(tournament, before_round=round_.number)
            rank = {s.player: i for i, s in enumerate(standings)}
            players.sort(key=lambda p: rank.get(p, len(rank)))
        history_rounds = selectors.seated_rounds(tournament, before=round_.number)
        history = list(selectors.seatings(history_rounds).values())  # in round order
        pinned = {r.player_id: r.pinned_table for r in registrations if r.pinned_table}
        first_final = tournament.first_final_round
        try:
            if first_final and round_.number >= first_final:
                result = _seat_finals(tournament, round_, players, history)
            else:
                result = seat_round(
                    method=tournament.seating,
                    players=players,
                    history=history,
                    total_rounds=(first_final - 1) if first_final else tournament.rounds,
                    seed=tournament.seed + RESEAT_SEED_STEP * len(round_.reseats),
                    pinned=pinned,
                    plan=[RoundSeating.from_dict(r) for r in tournament.seating_plan] or None,
                )
        except SeatingError as e:
            raise Invalid.single("", e.code, e.message) from e

        now = timezone.now()
        seating = result.round
        sessions = TableSession.objects.bulk_create(
            TableSession(
                club_id=tournament.club_id, started_at=now, ruleset_id=tournament.ruleset_id,
                base=tournament.base, mode=tournament.mode, kind=TableSession.Kind.TOURNAMENT,
                hand_limit=tournament.hands_per_table,
                confirmation_rule=tournament.confirmation_rule,
                notes=f"{tournament.name[:150]} · R{round_.number} T{t.number}",
            )
            for t in seating.tables
        )  # fmt: skip
        Seat.objects.bulk_create(
            Seat(session=s, number=n, player_id=p)
            for s, t in zip(sessions, seating.tables, strict=True)
            for n, p in enumerate(t.players)
        )
        Table.objects.bulk_create(
            Table(round=round_, number=t.number, session=s)
            for s, t in zip(sessions, seating.tables, strict=True)
        )
        round_.byes = list(seating.byes)
        round_.quality = result.quality.as_dict()
        round_.status = Round.Status.SEATED
        round_.seated_at = now
        round_.save(update_fields=["byes", "quality", "status", "seated_at"])
        tournament.seating_plan = [r.as_dict() for r in result.plan]
        tournament.save(update_fields=["seating_plan"])
        # the rounds before it are over: their results no longer change behind people's backs
        earlier = TableSession.objects.filter(
            tournament_table__round__tournament=tournament,
            tournament_table__round__number__lt=round_.number,
            lock_code="",
        )
        _lock(earlier, ROUND_LOCKED, f"round {round_.number} is seated")
        # a bye scores at once: the standings change with the seating
        if seating.byes:
            standings_request(tournament_id=tournament.pk)
        return _seating_summary(round_)


def _seating_summary(round_: Round) -> dict[str, Any]:
    return {
        "round": round_.number,
        "tables": round_.tables.count(),
        "byes": list(round_.byes),
        "quality": round_.quality,
    }


def round_seating_failed(*, round_id: int) -> None:
    Round.objects.filter(pk=round_id, status=Round.Status.SEATING).update(
        status=Round.Status.FAILED
    )


#: a table result is ``{"scores": [{"player": id, "score": n}, …]}``
TABLE_RESULT_FIELDS = ResultFields(items="scores", total="score")


@transaction.atomic
def table_result_enter(*, table: Table, scores: list[dict[str, Any]], user) -> None:
    """A table's four totals (they sum to zero), entered instead of hands: the clubs'
    final-result entry on the table's session, which queues the standings on commit."""
    session_result_enter(
        session=table.session, totals=scores, user=user, fields=TABLE_RESULT_FIELDS
    )
