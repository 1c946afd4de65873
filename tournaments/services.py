"""Writes of the tournaments app. One transaction each; Celery tasks are queued on commit.

Seating and standings run in Celery tasks (``tournaments.tasks``), whose bodies are
:func:`round_seat` and :func:`standings_compute` here; each is queued by name with a job
record (``core.jobs``) that ``GET /api/v1/tasks/{id}`` reads.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max, Q
from django.db.models.signals import post_save
from django.utils import timezone
from django.utils.text import slugify

from clubs.models import Club, ConfirmationRule, Player, Seat, TableSession
from clubs.services.clubs import club_create
from clubs.services.confirmations import sessions_rule_set
from clubs.services.sessions import ResultFields, seat_player_replace, session_result_enter
from clubs.tasks import follow_session
from core import live
from core.db import prepared_row
from core.errors import Conflict, Invalid, problem
from core.jobs import job_create, job_failed, job_queue
from core.models import TaskRecord
from core.text import clean_line, clean_text
from scoring.services import ruleset_snapshot_get_or_create
from tournaments import selectors
from tournaments.models import (
    Penalty,
    Registration,
    Round,
    RoundUnlock,
    StandingsSnapshot,
    SubstituteCounts,
    Substitution,
    Table,
    Tournament,
)
from tournaments.readmodels import standings_json
from tournaments.seating import RoundSeating, SeatingError, SeatingResult, seat_round
from tournaments.seating.quality import quality as seating_quality
from tournaments.standings import DEFAULT_PLACEMENT_POINTS, DEFAULT_TIEBREAKS, TIEBREAKS

logger = logging.getLogger(__name__)

#: a recompute waits this long after the first result of a burst, so the burst lands in one
COALESCE_SECONDS = 1.0
#: a queued recompute that has not started after this long was lost (a broker restart): the
#: next result queues another
STANDINGS_REQUEST_TTL = timedelta(minutes=2)
#: a seating asked for that has not finished after this long was lost (its worker died, or the
#: broker was down longer than this): asking again seats the round again (a seating stops at
#: 20 s; a repeated one answers the seating already made)
SEATING_REQUEST_TTL = timedelta(minutes=2)

#: fields that shape the schedule or the scoring: fixed once the first round is seated
RULE_FIELDS = frozenset({"ruleset", "base", "mode", "hands_per_table", "seating", "seed", "rounds"})


def _check_rules(fields: dict[str, Any]) -> list[dict[str, str]]:
    problems = []
    for key in ("placement_points", "tiebreaks"):
        if key in fields and fields[key] is None:
            problems.append(problem(key, "null", "give a value; leave the field out to keep it"))
    points = fields.get("placement_points")
    if points is not None and (
        not isinstance(points, list)
        or len(points) != 4
        or any(type(p) is not int for p in points)
        or any(a < b for a, b in zip(points, points[1:], strict=False))
    ):
        message = "four whole numbers for 1st to 4th, none above the one before"
        problems.append(problem("placement_points", "invalid_points", message))
    tiebreaks = fields.get("tiebreaks")
    if tiebreaks is not None:
        if not isinstance(tiebreaks, list) or len(set(tiebreaks)) != len(tiebreaks):
            problems.append(problem("tiebreaks", "invalid", "a list of distinct tiebreak codes"))
        else:
            for i, code in enumerate(tiebreaks):
                if code not in TIEBREAKS:
                    message = f"unknown tiebreak {code!r}; known: {', '.join(DEFAULT_TIEBREAKS)}"
                    problems.append(problem(f"tiebreaks[{i}]", "unknown_tiebreak", message))
    return problems


#: how many players a final may have
FINALS_SIZES = (0, 4, 8, 16)
#: settings of the finals: fixed once the first final round is seated
FINALS_FIELDS = frozenset({"finals_players", "finals_rounds", "finals_carry", "consolation"})


def _check_finals(rounds: int, players: int, final_rounds: int) -> list[dict[str, str]]:
    problems = []
    if players not in FINALS_SIZES:
        message = "the top 4, 8 or 16 play the finals (0: no finals)"
        problems.append(problem("finals_players", "invalid_finals_players", message))
    elif players and (type(final_rounds) is not int or not 1 <= final_rounds < rounds):
        message = "at least one final round, and at least one round before the finals"
        problems.append(problem("finals_rounds", "invalid_finals_rounds", message))
    return problems


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    user,
    rounds: int,
    club: Club | None = None,
    ruleset: Any = None,
    base: int = 1,
    mode: str = TableSession.Mode.XUEZHAN,
    hands_per_table: int = 8,
    placement_points: list[int] | None = None,
    tiebreaks: list[str] | None = None,
    seating: str = Tournament.Seating.BALANCED,
    seed: int = 0,
    bye_points: Decimal | None = None,
    bye_table_score: int = 0,
    is_public: bool = True,
    check_in: bool = False,
    round_minutes: int | None = None,
    hide_last_rounds: int = 0,
    approve_gate: bool = False,
    substitute_counts: str = SubstituteCounts.REGISTERED,
    finals_players: int = 0,
    finals_rounds: int = 1,
    finals_carry: bool = True,
    consolation: bool = True,
    confirmation_rule: str = "",
) -> Tournament:
    """A new tournament in registration. Without a host club it gets a club of its own
    (owned by its creator), so its tables are table sessions like any club's."""
    clean_line(name, "name")
    given = {"placement_points": placement_points, "tiebreaks": tiebreaks}
    problems = _check_rules({k: v for k, v in given.items() if v is not None})
    if type(hide_last_rounds) is not int or not 0 <= hide_last_rounds < rounds:
        message = "fewer rounds than the tournament has (0: none hidden)"
        problems.append(problem("hide_last_rounds", "invalid_hidden_rounds", message))
    problems += _check_finals(rounds, finals_players, finals_rounds)
    problems += _check_confirmation_rule(confirmation_rule)
    if problems:
        raise Invalid(problems)
    hosted = club is not None
    if club is None:
        visibility = Club.Visibility.PUBLIC if is_public else Club.Visibility.MEMBERS
        club = club_create(
            name=name, slug=slugify(f"t-{slug}")[:60], user=user, visibility=visibility,
            ruleset=ruleset, base=base,
        )  # fmt: skip
    snapshot = club.ruleset if ruleset is None else ruleset_snapshot_get_or_create(spec=ruleset)
    try:
        with transaction.atomic():
            return Tournament.objects.create(
                name=name, slug=slug, club=club, hosted=hosted, ruleset=snapshot, base=base,
                mode=mode, rounds=rounds, hands_per_table=hands_per_table,
                placement_points=placement_points or list(DEFAULT_PLACEMENT_POINTS),
                tiebreaks=tiebreaks or list(DEFAULT_TIEBREAKS), seating=seating, seed=seed,
                bye_points=bye_points, bye_table_score=bye_table_score, is_public=is_public,
                check_in=check_in, round_minutes=round_minutes,
                hide_last_rounds=hide_last_rounds, approve_gate=approve_gate, created_by=user,
                substitute_counts=substitute_counts, finals_players=finals_players,
                finals_rounds=finals_rounds, finals_carry=finals_carry, consolation=consolation,
                confirmation_rule=confirmation_rule,
            )  # fmt: skip
    except IntegrityError as e:
        raise Conflict("slug_taken", f"the slug {slug!r} is taken") from e


def _check_confirmation_rule(rule: Any) -> list:
    """A tournament's confirmation rule: one of the club's choices, or "" (the club's)."""
    if rule in ("", *ConfirmationRule.values):
        return []
    message = "shown, three, two, or empty for the club's rule"
    return [problem("confirmation_rule", "invalid_choice", message)]


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change a tournament. Its rules and schedule are fixed once a round is seated (the
    placement points and tiebreaks may still change: standings are recomputed)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problems = _check_rules(fields)
    started = tournament.round_set.exists()
    for key in sorted(RULE_FIELDS & set(fields)):
        if started and key != "rounds":
            message = "fixed once the first round is seated"
            problems.append(problem(key, "tournament_started", message))
    hidden = fields.get("hide_last_rounds", tournament.hide_last_rounds)
    if {"hide_last_rounds", "rounds"} & set(fields) and not (
        type(hidden) is int and 0 <= hidden < fields.get("rounds", tournament.rounds)
    ):
        message = "fewer rounds than the tournament has (0: none hidden)"
        problems.append(problem("hide_last_rounds", "invalid_hidden_rounds", message))
    seated = tournament.round_set.aggregate(n=Max("number"))["n"] or 0
    finals_fields = FINALS_FIELDS & set(fields)
    if finals_fields or "rounds" in fields:
        after = {k: fields.get(k, getattr(tournament, k)) for k in ("rounds", *FINALS_FIELDS)}
        first_final = (
            after["rounds"] - after["finals_rounds"] + 1 if after["finals_players"] else None
        )
        was = tournament.first_final_round
        if (was and seated >= was) or (first_final and seated >= first_final):
            changed = [k for k in sorted(after) if after[k] != getattr(tournament, k)]
            for key in changed:
                message = "fixed once the first final round is seated"
                problems.append(problem(key, "finals_started", message))
        problems += _check_finals(after["rounds"], after["finals_players"], after["finals_rounds"])
    if "rounds" in fields and fields["rounds"] < seated:
        message = f"{seated} rounds are already seated"
        problems.append(problem("rounds", "below_seated_rounds", message))
    if "confirmation_rule" in fields:
        problems += _check_confirmation_rule(fields["confirmation_rule"])
    if problems:
        raise Invalid(problems)
    rule_changed = fields.get("confirmation_rule", tournament.confirmation_rule) != (
        tournament.confirmation_rule
    )
    if "ruleset" in fields:
        tournament.ruleset = ruleset_snapshot_get_or_create(spec=fields.pop("ruleset"))
    for key, value in fields.items():
        setattr(tournament, key, value)
    if {"rounds", "check_in"} & set(fields):
        tournament.seating_plan = []  # planned for the old number of rounds, or other players
    tournament.save()
    if rule_changed:  # its open tables count their hands again under the new rule
        sessions_rule_set(
            session_ids=Table.objects.filter(round__tournament=tournament).values_list(
                "session_id", flat=True
            ),
            rule=tournament.confirmation_rule,
        )
    if fields.get("status") == Tournament.Status.FINISHED:
        _freeze(tournament)
    if "substitute_counts" in fields:  # the substitutes' tables are rated and counted again
        for session_id in (
            Table.objects.filter(round__tournament=tournament, substitutions__isnull=False)
            .values_list("session_id", flat=True)
            .distinct()
        ):
            follow_session(session_id)
    if {"placement_points", "tiebreaks", "bye_points", "bye_table_score", "hide_last_rounds",
        "standings_revealed", "approve_gate", "substitute_counts", *FINALS_FIELDS} & set(
            fields
        ):  # fmt: skip
        standings_request(tournament_id=tournament.pk)
    return tournament


def _next_round_number(tournament: Tournament) -> int:
    return (tournament.round_set.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    seed_rating: int | None = None,
    pinned_table: int | None = None,
    new_player: bool = False,
    club_name: str = "",
) -> Registration:
    """Enter a player (an existing one, or a new one by name). After the start this is a
    late entry: he is seated from the next round on.

    A name that is already a player of the host club (or of the tournament) is not taken for
    a new person unless ``new_player`` says so: the answer lists who it may be."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    if player is None:
        player = _new_player(tournament, name, new_player=new_player)
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                tournament=tournament,
                player=player,
                seed_rating=seed_rating,
                pinned_table=pinned_table,
                club_name=club_name,
                first_round=_next_round_number(tournament),
            )
    except IntegrityError as e:
        raise Conflict("already_registered", "this player is already registered") from e
    _plan_changed(tournament)
    return registration


@transaction.atomic
def registration_update(*, registration: Registration, **fields: Any) -> Registration:
    """Withdraw (drop-out), return, re-rate or pin a registered player, or say from which round
    a late entry plays (a round not seated yet). Rounds already seated keep him; the rounds to
    come are seated without him (or with him again)."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if "first_round" in fields:
        first, next_round = fields["first_round"], _next_round_number(tournament)
        if type(first) is not int or not next_round <= first <= tournament.rounds:
            message = f"a round not seated yet: {next_round} to {tournament.rounds}"
            if next_round > tournament.rounds:
                message = "every round is seated"
            raise Invalid.single("first_round", "invalid_first_round", message)
    status = fields.get("status")
    if status is not None and status != registration.status:
        seated = _next_round_number(tournament) - 1
        if status == Registration.Status.WITHDRAWN:
            registration.withdrawn_after = seated
        else:
            registration.withdrawn_after = None
            registration.first_round = max(registration.first_round, seated + 1)
    for key, value in fields.items():
        setattr(registration, key, value)
    registration.save()
    if {"status", "pinned_table", "checked_in", "first_round"} & set(fields):
        _plan_changed(tournament)
    if "status" in fields:
        standings_request(tournament_id=tournament.pk)
    return registration


@transaction.atomic
def registration_delete(*, registration: Registration) -> None:
    """Remove an entry made by mistake, as long as he was never seated or given a bye."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if selectors.has_played(tournament, registration.player_id):
        message = "this player has played (or sat out) a round: withdraw him instead"
        raise Conflict("registration_has_played", message)
    registration.delete()
    _plan_changed(tournament)
    standings_request(tournament_id=tournament.pk)


def _new_player(tournament: Tournament, name: str, *, new_player: bool) -> Player:
    """A new player by name; a name that is already a player of the host club (or of the
    tournament) is not taken for a new person unless ``new_player`` says so: the answer
    lists who it may be."""
    name = clean_line(name.strip(), "name") if isinstance(name, str) else ""
    if not name:
        raise Invalid.single("name", "required", "an existing player or a new player's name")
    candidates = selectors.players_named(tournament, name)
    if candidates and not new_player:
        who = ", ".join(f"{p.name} (player {p.pk})" for p in candidates)
        message = (
            f"{name!r} may be {who}: name the player by id, or send new_player: true "
            "for someone else of that name"
        )
        raise Conflict("name_matches_player", message, path="name")
    return Player.objects.create(name=name)


def _plan_changed(tournament: Tournament) -> None:
    """Players or pins changed: the rounds still to come are planned again when seated."""
    if tournament.seating_plan:
        Tournament.objects.filter(pk=tournament.pk).update(seating_plan=[])


#: the lock a round's tables get when the next round is seated, and every table when the
#: tournament is finished (``TableSession.lock_code``); an organiser lifts it with a reason
ROUND_LOCKED = "round_locked"
TOURNAMENT_FINISHED = "tournament_finished"
_LOCK_MESSAGES = {
    ROUND_LOCKED: "this table's round is over ({why}); an organiser may unlock the round, "
    "with a reason, to correct it",
    TOURNAMENT_FINISHED: "the tournament is finished; an organiser may unlock a round, with a "
    "reason, to correct it",
}


def _tell_tables(session_ids) -> None:
    """The tables' own pages show what changed (the round's clock, a lock): told after the
    commit (an update saves no row a receiver would see)."""
    for session_id in session_ids:
        live.announce(live.table_channel(session_id), kind="round", table=session_id)


def _lock(sessions, code: str, why: str = "") -> None:
    """Lock these table sessions; their table cards' links stop working for good."""
    ids = list(sessions.values_list("pk", flat=True))  # (before: the filter may be on the lock)
    TableSession.objects.filter(pk__in=ids).update(
        lock_code=code, lock_message=_LOCK_MESSAGES[code].format(why=why)
    )
    Table.objects.filter(session_id__in=ids).exclude(scorer_key=None).update(scorer_key=None)
    _tell_tables(ids)


def _freeze(tournament: Tournament) -> None:
    """A finished tournament: every table locked."""
    _lock(
        TableSession.objects.filter(tournament_table__round__tournament=tournament),
        TOURNAMENT_FINISHED,
    )


@transaction.atomic
def round_unlock(*, round_: Round, reason: str, user) -> RoundUnlock:
    """Unlock a round's tables so an organiser can correct them; the reason is kept. The
    standings follow any correction as usual; :func:`round_lock` locks the round again."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the round is unlocked")
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    TableSession.objects.filter(tournament_table__round=round_).update(
        lock_code="", lock_message=""
    )
    _tell_tables(round_.tables.values_list("session_id", flat=True))
    return RoundUnlock.objects.create(round=round_, reason=reason.strip(), unlocked_by=user)


@transaction.atomic
def round_lock(*, round_: Round) -> Round:
    """Lock a round's tables again after a correction (a finished tournament's as finished,
    an earlier round's as over); the latest round of a running tournament stays open."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    sessions = TableSession.objects.filter(tournament_table__round=round_)
    if tournament.status == Tournament.Status.FINISHED:
        _lock(sessions, TOURNAMENT_FINISHED)
    elif tournament.round_set.filter(number__gt=round_.number).exists():
        _lock(sessions, ROUND_LOCKED, f"round {round_.number + 1} is seated")
    else:
        message = "the latest round of a running tournament is being played: it stays open"
        raise Conflict("round_in_play", message)
    return round_


#: the Celery tasks (``tournaments.tasks``), queued by name
#: how many lagging tournaments one periodic check recomputes at most
RECONCILE_BATCH = 50
SEATING_TASK = "tournaments.generate_seating"
STANDINGS_TASK = "tournaments.compute_standings"
RECONCILE_TASK = "tournaments.reconcile_standings"


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


def standings_request(*, tournament_id: int, force: bool = False) -> TaskRecord | None:
    """Queue a standings recompute on commit, unless one is already queued: a burst of
    results (ten tables reporting at once) becomes one recompute, at most two. ``force`` (an
    organiser asking) always queues one: the one waiting may have been lost."""
    with transaction.atomic():
        now = timezone.now()
        waiting = Q(standings_requested_at__gt=now - STANDINGS_REQUEST_TTL)
        tournaments = Tournament.objects.filter(pk=tournament_id)
        queued = (tournaments if force else tournaments.exclude(waiting)).update(
            standings_requested_at=now
        )
        if not queued:
            return None
        record = job_create(STANDINGS_TASK, Tournament(pk=tournament_id))
        job_queue(record, tournament_id, countdown=COALESCE_SECONDS)
        return record


# --- private links -------------------------------------------------------------------------------


def private_keys(*, tournament: Tournament) -> None:
    """Give every entry without one its private link's key (256 bits, as an invitation's)."""
    for entry in tournament.registrations.filter(private_key=None):
        Registration.objects.filter(pk=entry.pk, private_key=None).update(
            private_key=secrets.token_urlsafe(32)
        )


def private_key_renew(*, registration: Registration) -> Registration:
    """A new private link for an entry; the old one stops working (a slip lost)."""
    registration.private_key = secrets.token_urlsafe(32)
    registration.save(update_fields=["private_key"])
    return registration


# --- table cards ---------------------------------------------------------------------------------


def table_cards(*, round_: Round) -> list[Table]:
    """The round's tables, each with its table card's key (made for a table that has none, 256
    bits): the card's QR opens the table for whoever holds it, no login, until the round
    locks. A round already locked has no card."""
    for table in round_.tables.filter(scorer_key=None, session__lock_code=""):
        Table.objects.filter(pk=table.pk, scorer_key=None).update(
            scorer_key=secrets.token_urlsafe(32)
        )
    return list(round_.tables.select_related("session").order_by("number"))


# --- disputes -------------------------------------------------------------------------------------


@transaction.atomic
def table_dispute(*, table: Table, words: str) -> Table:
    """Mark a table disputed for the referee (a scorer at the desk): what is disputed, in
    words. A disputed table is not approved until the referee resolves it."""
    if not isinstance(words, str) or not words.strip():
        raise Invalid.single("words", "reason_required", "say what is disputed")
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.disputed_at = timezone.now()
    table.dispute = clean_text(words.strip(), "words")[:200]
    table.dispute_resolution = ""
    table.save(update_fields=["disputed_at", "dispute", "dispute_resolution"])
    return table


@transaction.atomic
def table_dispute_resolve(*, table: Table, words: str) -> Table:
    """The referee resolves a dispute, saying how (a correction is made on the table as
    usual); the dispute and its resolution stay in the record."""
    if not isinstance(words, str) or not words.strip():
        raise Invalid.single("words", "reason_required", "say how it was resolved")
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.disputed_at is None:
        raise Conflict("not_disputed", f"table {table.number} is not disputed")
    table.disputed_at = None
    table.dispute_resolution = clean_text(words.strip(), "words")[:200]
    table.save(update_fields=["disputed_at", "dispute_resolution"])
    return table


# --- the approve gate -----------------------------------------------------------------------------


@transaction.atomic
def table_approve(*, table: Table, user) -> Table:
    """The scorekeeper approves a done table as it is now: where the tournament has an
    approve gate, it counts from now on (a later change to it needs approving again)."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    if not selectors.table_has_result(table):
        raise Conflict("table_not_done", f"table {table.number} has no result yet")
    if table.disputed_at is not None:
        message = f"table {table.number} is disputed: the referee resolves it first"
        raise Conflict("table_disputed", message)
    table.approved_version = TableSession.objects.get(pk=table.session_id).data_version
    table.approved_by = user
    table.approved_at = timezone.now()
    table.save(update_fields=["approved_version", "approved_by", "approved_at"])
    standings_request(tournament_id=tournament.pk, force=True)
    return table


# --- substitutes (替补) -----------------------------------------------------------------------


@transaction.atomic
def substitute_seat(
    *,
    table: Table,
    absent_id: int,
    user,
    substitute: Player | None = None,
    name: str = "",
    new_player: bool = False,
    reason: str = "",
) -> Substitution:
    """A reserve plays ``table`` for the registered player ``absent_id`` seated there: the
    seat, and whatever was already recorded for it, is the substitute's from now. Whose
    result the table is, the tournament's ``substitute_counts`` decides. A player at another
    table of the round, or on a bye, cannot substitute: he would count twice."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    round_ = table.round
    tournament = round_.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    seats = Seat.objects.filter(session_id=table.session_id)
    seated = set(seats.values_list("player_id", flat=True))
    standing_in = set(table.substitutions.values_list("substitute_id", flat=True))
    if absent_id not in seated or absent_id in standing_in:
        message = f"not a registered player seated at table {table.number}"
        raise Invalid.single("absent", "not_seated_here", message)
    if substitute is None:
        substitute = _new_player(tournament, name, new_player=new_player)
    plays = Seat.objects.filter(player=substitute, session__tournament_table__round=round_).exists()
    if plays or substitute.pk in round_.byes:
        message = f"{substitute.name} plays round {round_.number} already (a table or a bye)"
        raise Conflict("substitute_plays_this_round", message, path="substitute")
    seat_player_replace(session=table.session, player_id=absent_id, by_player_id=substitute.pk)
    made = Substitution.objects.create(
        table=table, absent_id=absent_id, substitute=substitute, made_by=user,
        reason=clean_text(reason.strip(), "reason")[:200] if reason else "",
    )  # fmt: skip
    standings_request(tournament_id=tournament.pk, force=True)
    return made


@transaction.atomic
def substitute_remove(*, substitution: Substitution) -> None:
    """The registered player takes his seat back (he came after all, or the wrong one was
    replaced): what was recorded for the seat is his again."""
    substitution = Substitution.objects.select_related("table__round__tournament").get(
        pk=substitution.pk
    )
    table = substitution.table
    if table.round.tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    seat_player_replace(
        session=table.session, player_id=substitution.substitute_id,
        by_player_id=substitution.absent_id,
    )  # fmt: skip
    substitution.delete()
    standings_request(tournament_id=table.round.tournament_id, force=True)


# --- the round clock -----------------------------------------------------------------------------

#: the longest round and the most time one extension adds, in minutes
CLOCK_MAX_MINUTES = 600
EXTEND_MAX_MINUTES = 120


@transaction.atomic
def round_clock_start(*, round_: Round, minutes: int | None = None) -> Round:
    """Start a seated round's clock: ``minutes`` (default: the tournament's round time) from
    now. At time, the tables finish the hand in play and start no other."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.SEATED:
        raise Conflict("round_not_seated", f"round {round_.number} is not seated")
    if round_.clock_started_at is not None:
        raise Conflict("clock_running", "the round's clock is running: add time instead")
    minutes = minutes or round_.tournament.round_minutes
    if type(minutes) is not int or not 1 <= minutes <= CLOCK_MAX_MINUTES:
        message = f"how long the round lasts, 1 to {CLOCK_MAX_MINUTES} minutes"
        raise Invalid.single("minutes", "invalid_minutes", message)
    round_.clock_started_at = timezone.now()
    round_.clock_minutes = minutes
    round_.save(update_fields=["clock_started_at", "clock_minutes"])
    _tell_tables(round_.tables.values_list("session_id", flat=True))
    return round_


@transaction.atomic
def round_clock_extend(*, round_: Round, minutes: int, table_number: int | None = None) -> Round:
    """Add ``minutes`` to a running clock: for every table, or for one table alone (a table
    that started late, a dispute that stopped it)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.clock_started_at is None:
        raise Conflict("clock_not_started", "the round's clock is not running")
    if type(minutes) is not int or not 1 <= minutes <= EXTEND_MAX_MINUTES:
        message = f"1 to {EXTEND_MAX_MINUTES} minutes"
        raise Invalid.single("minutes", "invalid_minutes", message)
    if table_number is None:
        round_.clock_extra_minutes += minutes
        round_.save(update_fields=["clock_extra_minutes"])
        _tell_tables(round_.tables.values_list("session_id", flat=True))
        return round_
    extended = round_.tables.filter(number=table_number).update(
        clock_extra_minutes=F("clock_extra_minutes") + minutes
    )
    if not extended:
        raise Invalid.single("table", "no_such_table", f"round {round_.number} has no such table")
    # an update saves no row: the round's pages and the table's own are told here
    live.announce(live.tournament_channel(round_.tournament_id), kind="clock")
    for session_id in round_.tables.filter(number=table_number).values_list(
        "session_id", flat=True
    ):
        live.announce(live.table_channel(session_id), kind="clock", table=session_id)
    return round_


# --- penalties (罚分) ---------------------------------------------------------------------------

#: the most placement points one penalty takes off
PENALTY_MAX = 1000


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    player_id: int,
    points: int,
    reason: str,
    user,
    words: str = "",
    round_number: int | None = None,
) -> Penalty:
    """A referee takes ``points`` placement points off an entered player (for a round, or
    for the tournament); the standings follow."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    problems = []
    if not tournament.registrations.filter(player_id=player_id).exists():
        problems.append(problem("player", "not_registered", "this player is not entered"))
    if type(points) is not int or not 1 <= points <= PENALTY_MAX:
        message = f"a whole number of placement points from 1 to {PENALTY_MAX}"
        problems.append(problem("points", "invalid_penalty", message))
    if reason not in Penalty.Reason.values:
        known = ", ".join(Penalty.Reason.values)
        problems.append(problem("reason", "invalid_choice", f"one of {known}"))
    seated = _next_round_number(tournament) - 1
    if round_number is not None and not 1 <= round_number <= seated:
        message = f"a round seated so far (1 to {seated})" if seated else "no round is seated"
        problems.append(problem("round", "no_such_round", message))
    if problems:
        raise Invalid(problems)
    penalty = Penalty.objects.create(
        tournament=tournament, player_id=player_id, points=points, reason=reason,
        words=clean_text(words.strip(), "words"), round=round_number, given_by=user,
    )  # fmt: skip
    standings_request(tournament_id=tournament.pk, force=True)
    return penalty


@transaction.atomic
def penalty_revoke(*, penalty: Penalty, reason: str, user) -> Penalty:
    """Revoke a penalty, saying why: it stays in the record, struck through, and no longer
    counts; the standings follow."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the penalty is revoked")
    tournament = Tournament.objects.select_for_update().get(pk=penalty.tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.revoked_at is not None:
        raise Conflict("penalty_revoked", "this penalty is already revoked")
    penalty.revoked_at = timezone.now()
    penalty.revoked_by = user
    penalty.revoke_reason = clean_text(reason.strip(), "reason")
    penalty.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    standings_request(tournament_id=tournament.pk, force=True)
    return penalty


@transaction.atomic
def standings_reveal(*, tournament: Tournament) -> TaskRecord | None:
    """The scorekeeper reveals the standings of the hidden last rounds (at the prize-giving):
    from the next snapshot, asked for now (its job is returned), everyone sees them whole."""
    Tournament.objects.filter(pk=tournament.pk).update(standings_revealed=True)
    tournament.standings_revealed = True
    return standings_request(tournament_id=tournament.pk, force=True)


def standings_reconcile(*, limit: int = RECONCILE_BATCH) -> list[int]:
    """The body of ``tournaments.reconcile_standings`` (Celery beat, every
    ``RECONCILE_SECONDS``): a running tournament whose newest snapshot was computed from
    older table data than there is, and whose tables have not changed for
    ``RECONCILE_AFTER_SECONDS``, is recomputed (its recompute was lost or keeps failing)."""
    tournaments = selectors.standings_behind(
        older_than=timedelta(seconds=settings.RECONCILE_AFTER_SECONDS), limit=limit
    )
    if tournaments:
        logger.warning("standings behind for %d tournaments, recomputed", len(tournaments))
    for tournament_id in tournaments:
        standings_request(tournament_id=tournament_id, force=True)
    return tournaments


#: A snapshot's row, numbered the tournament's next version, in one prepared statement: its
#: rows (megabytes of JSON at 10,000 players) sent as a parameter of their own, compact, not
#: escaped into the statement's text, and kept as that text (``json``: never parsed into
#: ``jsonb``, issue 25)
#: (its text starts with INSERT, as the ORM's did: what the database's own view of its sessions
#: shows, and a fault test looks for)
_SNAPSHOT_INSERT = """INSERT INTO {table} (tournament_id, version, computed_at, rounds_complete,
                     tables_counted, rows, points_scale, tiebreaks, seconds, visible,
                     sessions_version)
SELECT %(tournament)s, COALESCE(MAX(version), 0) + 1, %(computed_at)s, %(rounds_complete)s,
       %(tables_counted)s, %(rows)s::json, %(points_scale)s, %(tiebreaks)s::jsonb,
       %(seconds)s, %(visible)s::json, %(sessions_version)s
FROM {table} WHERE tournament_id = %(tournament)s
RETURNING id, version
"""


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _snapshot_store(snapshot: StandingsSnapshot) -> StandingsSnapshot:
    """Store a new snapshot as its tournament's next version (the tournament's row locked by
    the caller) and tell what follows a saved snapshot (``post_save``: its live pages)."""
    if connection.vendor != "postgresql":
        last = snapshot.tournament.standings_snapshots.aggregate(v=Max("version"))["v"] or 0
        snapshot.version = last + 1
        snapshot.save(force_insert=True)
        return snapshot
    snapshot.computed_at = timezone.now()
    sql = _SNAPSHOT_INSERT.format(table=connection.ops.quote_name(StandingsSnapshot._meta.db_table))
    visible = snapshot.visible
    snapshot.pk, snapshot.version = prepared_row(
        sql,
        {
            "tournament": snapshot.tournament_id, "computed_at": snapshot.computed_at,
            "rounds_complete": snapshot.rounds_complete, "tables_counted": snapshot.tables_counted,
            "rows": _compact_json(snapshot.rows), "points_scale": snapshot.points_scale,
            "tiebreaks": _compact_json(snapshot.tiebreaks), "seconds": snapshot.seconds,
            "visible": None if visible is None else _compact_json(visible),
            "sessions_version": snapshot.sessions_version,
        },
    )  # fmt: skip
    snapshot._state.adding, snapshot._state.db = False, connection.alias
    post_save.send(
        StandingsSnapshot, instance=snapshot, created=True, update_fields=None, raw=False,
        using=connection.alias,
    )  # fmt: skip
    return snapshot


def standings_compute(*, tournament_id: int) -> dict[str, Any]:
    """The body of ``tournaments.compute_standings``: a new snapshot, written in one row."""
    # cleared first: a result committed while this runs queues the next recompute
    Tournament.objects.filter(pk=tournament_id).update(standings_requested_at=None)
    tournament = Tournament.objects.get(pk=tournament_id)
    started = time.perf_counter()
    tables = selectors.tournament_tables(tournament)  # read once for all that follows
    # their data version, read with them: the results are read after, as new or newer
    version = tables.data_version
    standings, complete, counted = selectors.standings_now(tournament, tables=tables)
    names = selectors.entry_names(tournament, [s.player for s in standings])
    scale, rows = standings_json(standings, names)
    visible = None
    if (through := selectors.hidden_after(tournament)) is not None:
        # what the players see meanwhile: the standings through the last round shown
        shown, shown_complete, shown_counted = selectors.standings_now(
            tournament, before_round=through + 1, tables=tables
        )
        shown_scale, shown_rows = standings_json(shown, names)
        visible = {
            "through": through, "rounds_complete": shown_complete,
            "tables_counted": shown_counted, "points_scale": shown_scale, "rows": shown_rows,
        }  # fmt: skip
    seconds = time.perf_counter() - started
    with transaction.atomic():
        # one computation at a time numbers the tournament's next snapshot
        Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk").get()
        snapshot = _snapshot_store(
            StandingsSnapshot(
                tournament=tournament, rounds_complete=complete, tables_counted=counted,
                rows=rows, points_scale=scale,
                tiebreaks=list(selectors.rules_of(tournament).tiebreaks), seconds=seconds,
                sessions_version=version, visible=visible,
            )
        )  # fmt: skip
        if complete >= tournament.rounds and tournament.status == Tournament.Status.RUNNING:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            _freeze(tournament)
    return {"version": snapshot.version, "players": len(rows), "seconds": round(seconds, 4)}
