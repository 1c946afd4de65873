"""Keeping ratings and the statistics' lines in step with the sessions they come from.

:func:`session_refresh` is what runs after every change to a session (a hand recorded,
corrected or deleted, totals entered, the session closed or reopened; the
``ratings.refresh_session`` task, queued through the outbox by ``clubs.session_changed``): it
rewrites the session's :class:`SessionLine` and :class:`WinLine` rows from its hands, and when
the session's places changed (it was finished, reopened, corrected), re-rates its pool from
that session onward: the ratings before it stand, everything after it is rated again in order.
:func:`pool_recompute` rates a pool from scratch; both run the same replay, so they give the
same numbers (``tests/ratings/test_incremental.py``).

Everything about one pool happens under a lock on its row: two workers never rate one pool at
once.

The awards of whole seasons are a read model too (:class:`AwardHolder`): when a refresh wrote
or deleted the lines of a club table (it was finished, reopened, corrected — never a hand of a
table still being played), it queues ``ratings.refresh_awards`` for the club and the table's
season, and :func:`club_awards_refresh` rewrites that season's holders and all time's from
``club_awards``, outside the refresh (adding up the whole club is not a hand's cost).

A refresh records the session's ``data_version`` it read as its ``derived_version``; a table
still being played needs no refresh and is marked so by :func:`session_follow`, on the
tables' queue. :func:`reconcile` (every few minutes) refreshes again whatever has stayed
behind its data: the second net under the outbox.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Greatest, Now

from clubs.models import Club, TableSession
from clubs.outcomes import (
    SessionOutcome,
    session_hand_records,
    session_ids_of,
    session_outcome,
    session_outcomes,
    sessions_hand_records,
)
from core.outbox import enqueue
from ratings import system
from ratings.awards_selectors import club_awards, club_seasons, season_period
from ratings.facts import session_facts
from ratings.fastpath import (
    CHANGE_COLUMNS,
    FACT_COLUMNS,
    LINE_COLUMNS,
    WIN_COLUMNS,
    ChangeRow,
    batch_transaction,
    changes_insert,
    changes_update,
    lines_replace,
)
from ratings.models import (
    ALL_TIME,
    AwardHolder,
    Rating,
    RatingChange,
    RatingPool,
    RatingSystem,
    SessionLine,
    WinLine,
)
from ratings.read_versions import club_read_bump
from ratings.receivers import AWARDS_TASK, REFRESH_TASK
from scoring.engine.settle import Settlement
from tournaments.selectors import (
    session_credits,
    sessions_credits,
    tournament_ids_of,
    tournament_of_session,
    tournaments_of_sessions,
)

BATCH = 2000
#: how many sessions a full recompute rewrites the lines of at a time (a few queries each,
#: their ids sent as one array: a larger chunk is fewer round trips, its lines one COPY block)
LINES_CHUNK = 2500
#: how many lagging sessions one periodic check follows up at most
RECONCILE_BATCH = 500

logger = logging.getLogger(__name__)


def current_system() -> RatingSystem:
    rating_system, _ = RatingSystem.objects.get_or_create(
        key=system.system_key(),
        defaults={
            "model": system.MODEL_NAME,
            "parameters": system.PARAMETERS,
            "library_version": system.LIBRARY_VERSION,
        },
    )
    return rating_system


def _pool_locked(club_id: int, tournament_id: int | None) -> RatingPool:
    """The pool's row, locked until the transaction ends (created when first needed)."""
    pools = RatingPool.objects.select_for_update()
    pool = pools.filter(club_id=club_id, tournament_id=tournament_id).first()
    if pool is None:
        RatingPool.objects.get_or_create(
            club_id=club_id, tournament_id=tournament_id, defaults={"system": current_system()}
        )
        pool = pools.get(club_id=club_id, tournament_id=tournament_id)
    return pool


def _pool_lines(pool: RatingPool):
    """The statistics' lines of the sessions a pool rates."""
    if pool.tournament_id is not None:
        return SessionLine.objects.filter(tournament_id=pool.tournament_id)
    return SessionLine.objects.filter(club_id=pool.club_id, kind=TableSession.Kind.CLUB)


def _from(key: tuple[datetime, int], moment: str = "played_at") -> Q:
    """Rows at or after a session in play order (start time, then session id)."""
    at, session_id = key
    return Q(**{f"{moment}__gt": at}) | Q(**{moment: at, "session_id__gte": session_id})


# --- the statistics' lines -------------------------------------------------------------------


#: a seat's figures in ``FACT_COLUMNS`` order, read in one call (a recompute reads 40,000)
_facts_of = attrgetter(*FACT_COLUMNS)


def _line_rows(
    outcome: SessionOutcome,
    tournament_id: int | None,
    hands: list[tuple[int, Settlement]],
    credits: dict[int, int | None],
) -> tuple[list[tuple], list[tuple], set[tuple[int, int, int]]]:
    """A finished session's statistics' lines (values in ``LINE_COLUMNS`` order) and win
    lines (``WIN_COLUMNS``), computed from its hands (``session_hand_records``) and, at a
    tournament table where a substitute played, whom the tournament credits
    (``session_credits``); with what they say the table was for its rating: (player, place,
    score) of each seat credited to someone."""
    facts = session_facts(hands)
    # whose each seat's result is: its player's, or whom the tournament credits (None: nobody)
    player_of = [credits.get(s.player_id, s.player_id) for s in outcome.seats]
    session, where = (
        outcome.session_id,
        (outcome.club_id, tournament_id, outcome.kind, outcome.started_at),
    )
    lines = [
        (
            session, player, *where, seat.seat, seat.score, seat.place, seat.tied,
            outcome.entered,
            {str(player_of[o]): net for o, net in f.exchanged.items() if player_of[o] is not None},
            *_facts_of(f),
        )
        for seat, f, player in zip(outcome.seats, facts.seats, player_of, strict=True)
        if player is not None
    ]  # fmt: skip
    wins = [
        (
            session, player_of[w.seat], *where, w.hand_number, w.preset, w.pattern,
            w.roots, w.amount, w.order, w.self_draw, w.verified,
        )
        for w in facts.wins
        if player_of[w.seat] is not None
    ]  # fmt: skip
    rated = {
        (player, seat.place, seat.score)
        for seat, player in zip(outcome.seats, player_of, strict=True)
        if player is not None
    }
    return lines, wins, rated


def _has_lines(outcome: SessionOutcome) -> bool:
    """A finished table of four has lines; a table still being played has none."""
    return outcome.finished and len(outcome.seats) == 4


def _write_lines(outcome: SessionOutcome, tournament_id: int | None) -> set[tuple[int, int, int]]:
    """The session's statistics' lines written again from its hands (a refresh after a
    write); answers what they say the table was for its rating: (player, place, score) of
    each seat credited to someone (none for a table still being played)."""
    SessionLine.objects.filter(session_id=outcome.session_id).delete()
    WinLine.objects.filter(session_id=outcome.session_id).delete()
    if not _has_lines(outcome):
        return set()
    credits = session_credits(outcome.session_id) if tournament_id is not None else {}
    lines, wins, rated = _line_rows(
        outcome, tournament_id, session_hand_records(outcome.session_id), credits
    )
    # a handful of rows: Django's insert, as the rest of a refresh
    SessionLine.objects.bulk_create(
        SessionLine(**dict(zip(LINE_COLUMNS, r, strict=True))) for r in lines
    )
    WinLine.objects.bulk_create(WinLine(**dict(zip(WIN_COLUMNS, r, strict=True))) for r in wins)
    return rated


def _rewrite_lines(session_ids: list[int]) -> int:
    """The statistics' lines of many sessions written again from their hands, in a fixed
    number of queries however many sessions (a full recompute, a chunk at a time): their
    outcomes, hands, tournaments and substitutes read in one query each, then only the
    sessions whose lines (or wins) differ from what is stored rewritten
    (:func:`lines_replace`): a recompute that finds the lines as it left them writes nothing.
    Answers how many lines were written."""
    batch_transaction()
    outcomes = session_outcomes(session_ids)
    tournaments = tournaments_of_sessions(session_ids)
    finished = [sid for sid, outcome in outcomes.items() if _has_lines(outcome)]
    credits = sessions_credits(s for s in finished if s in tournaments) if tournaments else {}
    hands = sessions_hand_records(finished)
    lines: list[tuple] = []
    wins: list[tuple] = []
    for session_id in finished:
        session_lines, session_wins, _ = _line_rows(
            outcomes[session_id],
            tournaments.get(session_id),
            hands.get(session_id, []),
            credits.get(session_id, {}),
        )
        lines += session_lines
        wins += session_wins
    return lines_replace(session_ids, lines, wins)


def _club_line_moment(session_id: int) -> datetime | None:
    """When the session's club-table lines say it was played (None: it has none)."""
    lines = SessionLine.objects.filter(session_id=session_id, kind=TableSession.Kind.CLUB)
    return lines.values_list("started_at", flat=True).first()


def _awards_follow(outcome: SessionOutcome, was: datetime | None) -> None:
    """The club table's lines were written or deleted: queue its club's awards of the season
    it was played in (and of the season its old lines said, if that differs), in this
    transaction. A table still being played, or a tournament's, has no club lines: nothing."""
    moments = [was] if was is not None else []
    if outcome.kind == TableSession.Kind.CLUB and outcome.finished and len(outcome.seats) == 4:
        moments.append(outcome.started_at)
    if not moments:
        return
    zone = ZoneInfo(Club.objects.values_list("time_zone", flat=True).get(pk=outcome.club_id))
    for year in sorted({m.astimezone(zone).year for m in moments}):
        # a club's evening closes many tables at once: one rewrite of its season serves them
        enqueue(AWARDS_TASK, outcome.club_id, year, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)


# --- rating a pool ---------------------------------------------------------------------------


def _replay(pool: RatingPool, key: tuple[datetime, int] | None) -> int:
    """Rate the pool's sessions from ``key`` on (None: all of them) again; answers how many
    sessions were rated. The ratings before ``key`` stand: each player's skill before it is
    the skill his first rated session from there on started from.

    Skills are plain floats rated by :func:`system.rate_seats` (openskill's arithmetic without
    its objects). The history and the ratings are compared with what is stored, and only the
    rows that differ are written: a recompute that finds what the last one left (a check,
    the lines rewritten the same) writes nothing, one after a change rewrites from where the
    numbers move."""
    system_id = pool.system_id
    stored = {
        pid: (sid, mu, sigma, rating, n)
        for pid, sid, mu, sigma, rating, n in pool.ratings.values_list(
            "player_id", "system_id", "mu", "sigma", "rating", "sessions"
        )
    }
    # each player's (μ, σ, rated sessions) as the replay goes; from nothing when it is all
    state: dict[int, tuple[float, float, int]] = (
        {} if key is None else {pid: (mu, sigma, n) for pid, (_, mu, sigma, _, n) in stored.items()}
    )
    later = pool.changes.all() if key is None else pool.changes.filter(_from(key))
    old: dict[tuple[int, int], tuple[int, ChangeRow]] = {}  # (session, player) → (id, row)
    seen: set[int] = set()
    for row_id, *values in later.order_by("played_at", "session_id").values_list(
        "id", *CHANGE_COLUMNS
    ):
        row = ChangeRow(*values)
        old[(row.session_id, row.player_id)] = (row_id, row)
        if row.player_id not in seen:
            seen.add(row.player_id)
            if key is not None:
                state[row.player_id] = (row.mu_before, row.sigma_before, row.number - 1)

    lines = _pool_lines(pool)
    if key is not None:
        lines = lines.filter(_from(key, "started_at"))
    tables: dict[int, list[tuple[datetime, int, int, int]]] = defaultdict(list)
    for session_id, started_at, player_id, place, score in lines.order_by(
        "started_at", "session_id", "seat"
    ).values_list("session_id", "started_at", "player_id", "place", "score"):
        tables[session_id].append((started_at, player_id, place, score))

    new = (system.MU, system.SIGMA, 0)
    fresh: list[ChangeRow] = []  # rows of a (session, player) not stored
    updated: list[tuple[int, ChangeRow]] = []  # stored rows (their ids) whose numbers differ
    kept: set[int] = set()  # ids of stored rows that stand, as they are or updated
    rated_players: set[int] = set()
    for session_id, seats in tables.items():  # in play order: dicts keep insertion order
        # (three at a tournament table whose substitute's seat counts for nobody)
        if len(seats) < 2:
            continue
        before = [state.get(p, new) for _, p, _, _ in seats]
        rated = system.rate_seats(
            [(mu, sigma) for mu, sigma, _ in before], [pl for _, _, pl, _ in seats]
        )
        for (played_at, player_id, place, score), (mu, sigma, n), r in zip(
            seats, before, rated, strict=True
        ):
            state[player_id] = (r.mu, r.sigma, n + 1)
            rated_players.add(player_id)
            row = ChangeRow(
                pool.pk, player_id, session_id, system_id, played_at, n + 1, score, place,
                r.expected_place, r.expected_probability, mu, sigma, r.mu, r.sigma,
                system.display(mu, sigma), system.display(r.mu, r.sigma),
            )  # fmt: skip
            was = old.get((session_id, player_id))
            if was is None:
                fresh.append(row)
                continue
            kept.add(was[0])
            if was[1] != row:
                updated.append((was[0], row))
    stale = [row_id for row_id, _ in old.values() if row_id not in kept]
    if stale and len(stale) == len(old):
        later.delete()
    else:
        for at in range(0, len(stale), BATCH):
            RatingChange.objects.filter(pk__in=stale[at : at + BATCH]).delete()
    # a row of the same session and player is updated in place, not deleted and inserted:
    # its pool, player and session stay, so their foreign keys are not checked again
    changes_update(updated)
    changes_insert(fresh)

    touched = seen | rated_players | (set(stored) if key is None else set())
    rows = {pid: state.get(pid, new) for pid in touched}
    gone = [pid for pid, (_, _, n) in rows.items() if n == 0 and pid in stored]
    if gone:
        pool.ratings.filter(player_id__in=gone).delete()
    moved = [
        (pid, mu, sigma, n)
        for pid, (mu, sigma, n) in rows.items()
        if n > 0 and stored.get(pid) != (system_id, mu, sigma, system.display(mu, sigma), n)
    ]
    if moved:
        Rating.objects.bulk_create(
            [
                Rating(
                    pool=pool, player_id=pid, system_id=system_id, mu=mu, sigma=sigma,
                    rating=system.display(mu, sigma), sessions=n,
                )
                for pid, mu, sigma, n in moved
            ],
            batch_size=BATCH,
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["system", "mu", "sigma", "rating", "sessions"],
        )  # fmt: skip
    return len(tables)


def _rated_as(pool: RatingPool, session_id: int) -> tuple[datetime | None, set[tuple[int, ...]]]:
    """When the session was rated as played, and its (player, place, score) then."""
    rows = list(
        pool.changes.filter(session_id=session_id).values_list(
            "played_at", "player_id", "place", "score"
        )
    )
    return (rows[0][0] if rows else None), {row[1:] for row in rows}


def session_follow(*, session_id: int) -> None:
    """What a change to a session asks of ratings (``clubs.session_changed`` calls it, on the
    tables' queue). A table still being played with no lines nor rating — most hands of an
    evening — needs nothing but the mark that its derived data are current, made here; the
    others' refresh is queued for the ratings' queue, which a busy evening keeps for real
    work."""
    row = _versioned(session_id)
    if row is None:
        return
    version = row[1]
    if _nothing_to_refresh(session_id):
        _mark_derived({session_id: version})
        return
    with transaction.atomic():
        enqueue(REFRESH_TASK, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)


def _versioned(session_id: int) -> tuple[int, int] | None:
    """The session's club and data version (None: no such session), read before what is
    computed from its data: what is read afterwards is as new or newer."""
    return TableSession.objects.filter(pk=session_id).values_list("club_id", "data_version").first()


def session_refresh(*, session_id: int) -> dict[str, Any]:
    """After a change to a session: its lines follow its hands, its pool's ratings its places;
    then the session records the version of its data they were computed from."""
    row = _versioned(session_id)
    if row is None:  # deleted since (a table opened by mistake): nothing was rated
        return {"session": session_id, "rated": 0}
    club_id, version = row
    done = _refresh(session_id, club_id)
    # after the commit, not in it: the session's row is the one a hand's write locks, and
    # a refresh holds its pool's lock for a while. Should this process die in between,
    # the periodic check only refreshes the session once more.
    _mark_derived({session_id: version})
    club_read_bump([club_id])  # the club's ranking and players' pages read afresh
    return done


def _mark_derived(versions: dict[int, int]) -> None:
    """Sessions' derived data now reflect (at least) these data versions."""
    for session_id, version in versions.items():
        TableSession.objects.filter(pk=session_id, derived_version__lt=version).update(
            derived_version=version
        )


def _mark_derived_many(versions: dict[int, int]) -> None:
    """:func:`_mark_derived` of many sessions, one statement a chunk (a full recompute marks
    every lagging session of a club)."""
    ids = sorted(versions)
    for at in range(0, len(ids), LINES_CHUNK):
        chunk = ids[at : at + LINES_CHUNK]
        read = Case(*(When(pk=pk, then=Value(versions[pk])) for pk in chunk))
        # never backwards: a refresh that read a newer version may have marked it meanwhile
        TableSession.objects.filter(pk__in=chunk).update(
            derived_version=Greatest(F("derived_version"), read)
        )


def _refresh(session_id: int, club_id: int) -> dict[str, Any]:
    if _nothing_to_refresh(session_id):
        return {"session": session_id, "rated": 0}
    tournament_id = tournament_of_session(session_id)
    with transaction.atomic():
        pool = _pool_locked(club_id, tournament_id)
        # read under the pool's lock: of two refreshes of one session, the one that locks last
        # reads what the last write committed, and its lines stand
        outcome = session_outcome(session_id)
        if outcome is None:
            return {"session": session_id, "rated": 0}
        was = _club_line_moment(session_id)
        now = _write_lines(outcome, tournament_id)
        _awards_follow(outcome, was)
        if outcome.kind != TableSession.Kind.CLUB and tournament_id is None:
            return {"session": session_id, "rated": 0}
        if pool.system.key != system.system_key():  # another model since: all of it again
            pool.system = current_system()
            pool.save(update_fields=["system"])
            return {"session": session_id, "rated": _recompute_locked(pool)}
        rated_at, rated = _rated_as(pool, session_id)
        if now == rated and (not rated or rated_at == outcome.started_at):
            return {"session": session_id, "rated": 0}
        key = outcome.key if rated_at is None else min(outcome.key, (rated_at, session_id))
        return {"session": session_id, "rated": _replay(pool, key)}


def _nothing_to_refresh(session_id: int) -> bool:
    """A table still being played that never had lines nor a rating (most hands of an
    evening): its refresh would write nothing. Told without the pool's lock, which serialises
    a club's refreshes: should the table finish meanwhile, the write that finishes it queues a
    refresh of its own."""
    if (
        SessionLine.objects.filter(session_id=session_id).exists()
        or RatingChange.objects.filter(session_id=session_id).exists()
    ):
        return False
    outcome = session_outcome(session_id)
    return outcome is not None and not outcome.finished


def _recompute_locked(pool: RatingPool) -> int:
    # the stored history and ratings are compared, not deleted first: what stands is kept
    return _replay(pool, None)


def pool_recompute(*, club_id: int, tournament_id: int | None = None) -> int:
    """Rate a pool from scratch (from its lines); answers how many sessions were rated."""
    with transaction.atomic():
        batch_transaction()
        pool = _pool_locked(club_id, tournament_id)
        pool.system = current_system()
        pool.save(update_fields=["system"])
        rated = _recompute_locked(pool)
        club_read_bump([club_id])  # with the ratings, in their transaction
        return rated


def club_recompute(*, club_id: int, lines: bool = True) -> dict[str, int]:
    """Everything of one club from scratch (``manage.py ratings_recompute``): the lines of
    every session from its hands, a chunk of sessions at a time, then the club's ratings and
    each of its tournaments' ratings from the lines, and its award holders of every season
    from the lines. ``lines`` False: the lines and the award holders read from them are kept,
    the ratings are rated again from them (``--ratings-only``)."""
    sessions = session_ids_of(club_id)
    lagging = dict(
        TableSession.objects.filter(club_id=club_id, data_version__gt=F("derived_version"))
        .values_list("pk", "data_version")
    )  # fmt: skip
    if lines:
        for at in range(0, len(sessions), LINES_CHUNK):
            with transaction.atomic():
                _rewrite_lines(sessions[at : at + LINES_CHUNK])
    rated = pool_recompute(club_id=club_id)
    for tournament_id in tournament_ids_of(club_id):
        rated += pool_recompute(club_id=club_id, tournament_id=tournament_id)
    if lines:
        # the holders are read from the lines alone: kept lines keep them
        club_awards_refresh(club_id=club_id)
        _mark_derived_many(lagging)
    return {"sessions": len(sessions), "rated": rated}


# --- the second net under the outbox --------------------------------------------------------


def lagging_sessions(*, limit: int = RECONCILE_BATCH) -> list[int]:
    """Sessions whose lines, ratings and awards have stayed behind their data longer than a
    follow-up takes (``RECONCILE_AFTER_SECONDS``), oldest change first. Times are the
    database's, as ``changed_at`` is."""
    behind = TableSession.objects.filter(
        data_version__gt=F("derived_version"),
        changed_at__lte=Now() - timedelta(seconds=settings.RECONCILE_AFTER_SECONDS),
    )
    return list(behind.order_by("changed_at", "pk").values_list("pk", flat=True)[:limit])


def reconcile(*, limit: int = RECONCILE_BATCH) -> dict[str, Any]:
    """The body of ``ratings.reconcile`` (Celery beat, every ``RECONCILE_SECONDS``): the
    lagging sessions' refreshes are asked for again. The outbox already sends a follow-up
    until it is done; this catches what it cannot see — a message that failed
    ``MAX_DELIVERIES`` times, a follow-up lost before the outbox kept them, a derived row
    someone deleted by hand."""
    sessions = lagging_sessions(limit=limit)
    if sessions:
        logger.warning("derived data behind for %d sessions, refreshed again", len(sessions))
        with transaction.atomic():
            for session_id in sessions:
                enqueue(REFRESH_TASK, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)
    return {"sessions": sessions}


# --- the awards' read model ------------------------------------------------------------------


def _holders(club: Club, season: int) -> list[AwardHolder]:
    """The holders of every award of the club's season, as ``club_awards`` gives them."""
    rows = []
    for order, result in enumerate(club_awards(club, season_period(club, season))):
        for w in result.winners:
            rows.append(
                AwardHolder(
                    club=club, season=season, code=result.code, order=order,
                    player_id=w.player_id, value=w.value,
                    session_id=w.hand.session_id if w.hand else None,
                    hand_number=w.hand.hand_number if w.hand else None,
                )
            )  # fmt: skip
    return rows


def club_awards_refresh(*, club_id: int, seasons: Iterable[int] | None = None) -> dict[str, Any]:
    """Rewrite the club's award holders of ``seasons`` (years; :data:`ALL_TIME`) from its
    lines; None: of every season it played in and all time, the holders of any other season
    dropped (``manage.py ratings_recompute``, a change of the club's time zone).

    Under a lock on the club's row (``FOR NO KEY UPDATE``: the club's sessions and lines are
    still written meanwhile), so two refreshes of one club do not interleave; each reads the
    lines as committed when it runs, so the last one queued leaves them right. Safe to repeat.
    """
    with transaction.atomic():
        club = Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
        if club is None:  # deleted since: its holders went with it
            return {"club": club_id, "seasons": [], "holders": 0}
        holders = AwardHolder.objects.filter(club=club)
        if seasons is None:
            wanted = sorted({*club_seasons(club), ALL_TIME})
            holders.exclude(season__in=wanted).delete()
        else:
            wanted = sorted(set(seasons))
        rows = [row for season in wanted for row in _holders(club, season)]
        holders.filter(season__in=wanted).delete()
        AwardHolder.objects.bulk_create(rows, batch_size=BATCH)
        club_read_bump([club_id])  # with the holders, in their transaction
    return {"club": club_id, "seasons": wanted, "holders": len(rows)}
