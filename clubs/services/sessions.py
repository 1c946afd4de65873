"""Table sessions (一桌): open one, change it, close and reopen it, enter its final results.

One transaction each; a change to a session's results, and closing or reopening it, asks for
``clubs.session_changed`` through the outbox, which the apps built on sessions follow
(tournament standings, ratings and statistics).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import Case, IntegerField, Value, When
from django.utils import timezone

from clubs.limits import SCORE
from clubs.models import (
    Bettor,
    Club,
    Payment,
    Player,
    Seat,
    SeatRepair,
    SessionResult,
    TableSession,
)
from clubs.tasks import follow_session
from core import live
from core.errors import Conflict, Invalid, problem
from core.text import clean_text
from scoring.services import ruleset_snapshot_get_or_create


def _check_players(club: Club, players: list[Player]) -> None:
    members = set(club.memberships.values_list("player_id", flat=True))
    problems = []
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        problems.append(problem("players", "four_players", "a table seats four different players"))
    for i, p in enumerate(players):
        if p.pk not in members:
            message = f"{p.name} is not a member of {club.name}"
            problems.append(problem(f"players[{i}]", "not_a_member", message))
    if problems:
        raise Invalid(problems)


def _seat(session: TableSession, players: list[Player]) -> None:
    """Seats 0–3 in play order."""
    Seat.objects.bulk_create(
        Seat(session=session, number=n, player=p) for n, p in enumerate(players)
    )


def _stand_bettors(session: TableSession, bettors: list[dict[str, Any]], seated: set[int]):
    """叫马 bettors behind the table: players of the service or guests, each named once."""
    names = set()
    for i, b in enumerate(bettors):
        bettor = Bettor(session=session, player=b.get("player"), guest_name=b.get("guest_name", ""))
        if bettor.name in names or not bettor.name:
            message = "each bettor needs a distinct name"
            raise Invalid.single(f"bettors[{i}]", "duplicate_bettor", message)
        if bettor.player_id in seated:
            # 叫马 is for those beyond the four: a seated player already wins what his seat wins
            message = "a seated player cannot also bet on this table"
            raise Invalid.single(f"bettors[{i}].player", "bettor_is_seated", message)
        names.add(bettor.name)
        bettor.save()


@transaction.atomic
def session_create(
    *,
    club: Club,
    players: list[Player],
    user,
    started_at: datetime | None = None,
    bettors: list[dict[str, Any]] | None = None,
    ruleset: Any = None,
    base: int | None = None,
    mode: str = TableSession.Mode.XUEZHAN,
    notes: str = "",
) -> TableSession:
    """Seat four players of the club at a new open table (seats 0–3 in play order)."""
    _check_players(club, players)
    snapshot = club.ruleset if ruleset is None else ruleset_snapshot_get_or_create(spec=ruleset)
    session = TableSession.objects.create(
        club=club,
        started_at=started_at or timezone.now(),
        ruleset=snapshot,
        base=base or club.base,
        mode=mode,
        notes=notes,
        created_by=user,
    )
    _seat(session, players)
    _stand_bettors(session, bettors or [], {p.pk for p in players})
    live.announce(live.club_channel(club.pk), kind="opened", table=session.pk)
    return session


#: what makes the table: fixed once it has a hand or a result (they name its seats and bettors
#: and were settled at its base and mode)
TABLE_FIELDS = ("players", "bettors", "base", "mode")


def _require_no_play(session: TableSession, what: str) -> None:
    if session.kind == TableSession.Kind.TOURNAMENT:
        message = f"this is a tournament table: its tournament decides its {what}"
        raise Conflict("tournament_table", message)
    if session.hands.exists() or session.results.exists():
        message = f"this session has hands or results: its {what} cannot change any more"
        raise Conflict("session_has_hands", message)


@transaction.atomic
def session_update(*, session: TableSession, **fields: Any) -> TableSession:
    """Change a session's start time or notes; correct its seats, 叫马 bettors, base or mode
    while nothing was played there."""
    session = TableSession.objects.select_for_update().select_related("club").get(pk=session.pk)
    if session.lock_code:
        raise Conflict(session.lock_code, session.lock_message or "this table is locked")
    if not session.is_open:
        message = "this session is closed; an organiser must reopen it before it changes"
        raise Conflict("session_closed", message)
    table = [key for key in TABLE_FIELDS if key in fields]
    if table:
        _require_no_play(session, " and ".join(table))
    players = fields.pop("players", None)
    bettors = fields.pop("bettors", None)
    if players is not None:
        _check_players(session.club, players)
        session.seats.all().delete()
        _seat(session, players)
    if players is not None or bettors is not None:
        seated = set(session.seats.values_list("player_id", flat=True))
        if bettors is None:  # the bettors stay: none of them may now be seated
            bettors = [{"player": b.player, "guest_name": b.guest_name}
                       for b in session.bettors.select_related("player")]  # fmt: skip
        session.bettors.all().delete()
        _stand_bettors(session, bettors, seated)
    for key, value in fields.items():
        setattr(session, key, value)
    if fields:
        session.save(update_fields=list(fields))
    if players is not None or bettors is not None:
        # its row changes with its parties: a hand recorded meanwhile reads them afresh
        # (clubs.fastpath.LOCK_STATE_SQL), and the pages showing them follow
        follow_session(session.pk)
    return session


@transaction.atomic
def session_delete(*, session: TableSession) -> None:
    """Delete a session nothing was played at (a table opened by mistake)."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    _require_no_play(session, "existence")
    pk = session.pk
    session.delete()
    live.announce(live.club_channel(session.club_id), kind="deleted", table=pk)
    live.announce(live.table_channel(pk), kind="deleted", table=pk)


@transaction.atomic
def session_close(*, session: TableSession) -> TableSession:
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.is_open:
        session.status = TableSession.Status.CLOSED
        session.closed_at = timezone.now()
        session.guest_key = None  # the players' link ends with the table
        session.save(update_fields=["status", "closed_at", "guest_key"])
        # a closed session is finished: what is built on finished sessions follows (ratings)
        follow_session(session.pk)
    return session


@transaction.atomic
def session_reopen(*, session: TableSession) -> TableSession:
    """Reopen a closed session; a table its tournament locked is unlocked there only."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.lock_code:
        raise Conflict(session.lock_code, session.lock_message or "this table is locked")
    if not session.is_open:
        session.status = TableSession.Status.OPEN
        session.closed_at = None
        session.save(update_fields=["status", "closed_at"])
        follow_session(session.pk)
    return session


def session_guest_link(*, session: TableSession) -> str:
    """The key of the table's players' link (made when first asked for, 256 bits): each player
    at the table, and a 叫马 bettor behind it, follows the table on his own phone without a
    login. It works while the table is open; closing the table clears it for good."""
    if not session.is_open:
        raise Conflict("session_closed", "the table is closed")
    TableSession.objects.filter(pk=session.pk, guest_key=None).update(
        guest_key=secrets.token_urlsafe(32)
    )
    return TableSession.objects.values_list("guest_key", flat=True).get(pk=session.pk)


def require_open(session: TableSession) -> None:
    """Refuse a change to a session that is locked by the app that owns it (a tournament) or
    closed."""
    if session.lock_code:
        raise Conflict(session.lock_code, session.lock_message or "this table is locked")
    if not session.is_open:
        message = "this session is closed; an organiser must reopen it before hands change"
        raise Conflict("session_closed", message)


class ResultFields(NamedTuple):
    """How a caller names final-result input: the list and the amount field (``totals`` and
    ``total`` for a club session; a tournament table says ``scores`` and ``score``)."""

    items: str = "totals"
    total: str = "total"


SESSION_RESULT_FIELDS = ResultFields()


@transaction.atomic
def session_result_enter(
    *,
    session: TableSession,
    totals: list[dict[str, Any]],
    user,
    fields: ResultFields = SESSION_RESULT_FIELDS,
) -> None:
    """Final-result entry: each seated player's (and bettor's) total; they sum to zero.

    ``totals`` items are ``{"player" or "bettor": id, fields.total: amount}``; problems are
    reported under the caller's names for the input (``fields``).
    """
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    now = timezone.now()
    require_open(session)
    if session.hands.filter(is_deleted=False).exists():
        message = "this session has recorded hands; its totals come from them"
        raise Conflict("session_has_hands", message)
    seated = set(session.seats.values_list("player_id", flat=True))
    bettors = set(session.bettors.values_list("pk", flat=True))
    problems = []
    rows = []
    players_given = set()
    bettors_given = set()
    for i, item in enumerate(totals):
        player, bettor, total = item.get("player"), item.get("bettor"), item.get(fields.total)
        path = f"{fields.items}[{i}]"
        if (player is None) == (bettor is None):
            problems.append(
                problem(path, "player_or_bettor", "a total is for one player or one bettor")
            )
            continue
        if player is not None and player not in seated:
            problems.append(
                problem(f"{path}.player", "not_seated", "this player is not seated here")
            )
        if bettor is not None and bettor not in bettors:
            problems.append(problem(f"{path}.bettor", "unknown_bettor", "no such bettor here"))
        if player in players_given:
            problems.append(problem(f"{path}.player", "duplicate", "a player has one total"))
        if bettor in bettors_given:
            problems.append(problem(f"{path}.bettor", "duplicate", "a bettor has one total"))
        if isinstance(total, bool) or not isinstance(total, int):
            problems.append(problem(f"{path}.{fields.total}", "invalid", "a whole number"))
            continue
        if not SCORE["min_value"] <= total <= SCORE["max_value"]:
            message = (
                f"a total between {SCORE['min_value']:,} and {SCORE['max_value']:,} "
                "(what any export of the club can carry)"
            )
            problems.append(problem(f"{path}.{fields.total}", "total_out_of_range", message))
            continue
        if player is not None:
            players_given.add(player)
        if bettor is not None:
            bettors_given.add(bettor)
        rows.append(SessionResult(
            session=session, player_id=player, bettor_id=bettor, total=total,
            entered_by=user if getattr(user, "is_authenticated", False) else None,
            entered_at=now,
        ))  # fmt: skip
    if not problems and players_given != seated:
        message = "give a total for each of the four seated players"
        problems.append(problem(fields.items, "missing_players", message))
    balance = sum(r.total for r in rows)
    if not problems and balance != 0:
        message = f"the totals sum to {balance}, not 0"
        problems.append(problem(fields.items, "not_zero_sum", message))
    if problems:
        raise Invalid(problems)
    session.results.all().delete()
    SessionResult.objects.bulk_create(rows)
    follow_session(session.pk)


def _players_move(session: TableSession, moved: dict[int, int]) -> None:
    """What was recorded for each player ``old`` of ``moved`` at this table (payments, entered
    totals) is for ``moved[old]`` from now: the recorded hands stay with their seats."""

    def follow(field: str) -> Case:
        return Case(
            *[When(**{field: old}, then=Value(new)) for old, new in moved.items()],
            default=field, output_field=IntegerField(),
        )  # fmt: skip

    payments = Payment.objects.filter(hand__session=session)
    payments.filter(payer_player__in=moved).update(payer_player=follow("payer_player"))
    payments.filter(payee_player__in=moved).update(payee_player=follow("payee_player"))
    session.results.filter(player__in=moved).update(player=follow("player"))


@transaction.atomic
def seat_player_replace(*, session: TableSession, player_id: int, by_player_id: int) -> None:
    """The player in a seat is replaced by another (a tournament's 替补 substitute, or the
    registered player back): the seat, its recorded payments and entered total go to
    ``by_player_id``. The caller checks who may sit there; the table must not be locked."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.lock_code:
        raise Conflict(session.lock_code, session.lock_message or "this table is locked")
    if session.seats.filter(player_id=by_player_id).exists():
        raise Conflict("already_seated", "this player already sits at the table")
    if session.bettors.filter(player_id=by_player_id).exists():
        raise Conflict("already_bettor", "this player bets at the table (叫马)")
    if not session.seats.filter(player_id=player_id).update(player_id=by_player_id):
        raise Conflict("not_seated", "this player does not sit at the table")
    _players_move(session, {player_id: by_player_id})
    follow_session(session.pk)


@transaction.atomic
def seats_repair(*, session: TableSession, order: list[int], reason: str, user) -> SeatRepair:
    """Put a table's seats right in one step (换座): ``order[n]`` is the seat whose player
    sits at seat ``n`` from now (``[1, 0, 2, 3]`` swaps the first two, ``[3, 0, 1, 2]`` moves
    everyone on one wind). The recorded hands stay with the seats they were played in; their
    payments and the entered totals follow the players the seats now hold. Allowed after
    hands were recorded, not on a table its tournament locked; the repair is kept with its
    reason, and what is built on the table (totals, standings, ratings) follows."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.lock_code:
        raise Conflict(session.lock_code, session.lock_message or "this table is locked")
    if sorted(order) != [0, 1, 2, 3] or order == [0, 1, 2, 3]:
        message = "the four seats in a new order (each once, not as they are)"
        raise Invalid.single("order", "invalid_order", message)
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the seats are repaired")
    reason = clean_text(reason.strip(), "reason")[:200]
    seats = dict(session.seats.values_list("number", "player_id"))
    before = [seats[n] for n in range(4)]
    after = [before[order[n]] for n in range(4)]
    _players_move(session, {old: new for old, new in zip(before, after, strict=True) if old != new})
    session.seats.all().delete()  # (one player per seat, one seat per player: rewritten)
    Seat.objects.bulk_create(
        Seat(session=session, number=n, player_id=player) for n, player in enumerate(after)
    )
    repair = SeatRepair.objects.create(
        session=session, before=before, after=after, reason=reason, repaired_by=user
    )
    follow_session(session.pk)
    return repair
