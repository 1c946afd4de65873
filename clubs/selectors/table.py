"""The table page's reads (its head in one prepared statement, its seats, the 流水 sheet) and
the hands' confirmations (Bridgemate's rule)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from django.db import connection
from django.db.models import (
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    prefetch_related_objects,
)

from clubs.confirming import HandStanding, Word, standing
from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandConfirmation,
    Membership,
    Player,
    Seat,
    SeatRepair,
    TableSession,
)
from core.db import model_from_row, prepared_row
from scoring import services as scoring_services
from scoring.models import RulesetSnapshot

from .access import UNREAD

# --- the table page ----------------------------------------------------------------------------


def session_with_club(pk: int) -> TableSession | None:
    """A session and its club: who may read it, nothing more."""
    return TableSession.objects.select_related("club").filter(pk=pk).first()


def club_by_pk(pk: int) -> Club | None:
    return Club.objects.filter(pk=pk).first()


def session_head(pk: int) -> TableSession | None:
    """A session with its club and ruleset alone (the table page's read: its seats and
    bettors are kept with what the page computed from them)."""
    return TableSession.objects.select_related("club", "ruleset").filter(pk=pk).first()


class HeadRead(NamedTuple):
    """What :func:`session_head_read` read with the session: its :class:`SessionReadVersion`
    and the viewer's role in its club (None: not a member; ``UNREAD``: not asked)."""

    read_version: SessionReadVersion | None
    viewer_role: str | None | object


_HEAD_SESSION = list(TableSession._meta.concrete_fields)
_HEAD_CLUB = list(Club._meta.concrete_fields)
_HEAD_RULESET = list(RulesetSnapshot._meta.concrete_fields)


def _head_sql() -> str:
    words, hands, seats, players, bettors, members = (
        m._meta.db_table for m in (HandConfirmation, Hand, Seat, Player, Bettor, Membership)
    )
    columns = [f"s.{f.column}" for f in _HEAD_SESSION]
    columns += [f"c.{f.column}" for f in _HEAD_CLUB]
    columns += [f"r.{f.column}" for f in _HEAD_RULESET]
    return (
        f"SELECT {', '.join(columns)},"
        f" (SELECT COALESCE(MAX(w.id), 0) FROM {words} w JOIN {hands} h ON h.id = w.hand_id"
        "   WHERE h.session_id = s.id),"
        " (SELECT COALESCE(string_agg(st.number || ':' || p.id || ':' || p.name, '|'"
        f"   ORDER BY st.number), '') FROM {seats} st JOIN {players} p ON p.id = st.player_id"
        "   WHERE st.session_id = s.id),"
        " (SELECT COALESCE(string_agg(b.id || ':' || COALESCE(p.name, b.guest_name), '|'"
        f"   ORDER BY b.id), '') FROM {bettors} b LEFT JOIN {players} p ON p.id = b.player_id"
        "   WHERE b.session_id = s.id),"
        f" (SELECT m.role FROM {members} m WHERE m.club_id = s.club_id"
        f"   AND m.player_id = (SELECT p.id FROM {players} p WHERE p.user_id = %(viewer)s))"
        f" FROM {TableSession._meta.db_table} s"
        f" JOIN {Club._meta.db_table} c ON c.id = s.club_id"
        f" JOIN {RulesetSnapshot._meta.db_table} r ON r.id = s.ruleset_id"
        " WHERE s.id = %(session)s"
    )


_HEAD_SQL: list[str] = []


def session_head_read(pk: int, viewer=None) -> tuple[TableSession | None, HeadRead]:
    """:func:`session_head`, with the session's :class:`SessionReadVersion` and the viewer's
    role in its club (a signed-in ``viewer``): one prepared statement on PostgreSQL, where
    building the ORM's queries cost the table page more than running them (issue 25). The
    read version is read with the session's row, before anything it versions. Elsewhere the
    session alone (the rest is read when asked)."""
    if connection.vendor != "postgresql":
        return session_head(pk), HeadRead(None, UNREAD)
    if not _HEAD_SQL:
        _HEAD_SQL.append(_head_sql())
    signed_in = viewer is not None and viewer.is_authenticated
    row = prepared_row(_HEAD_SQL[0], {"session": pk, "viewer": viewer.pk if signed_in else None})
    if row is None:
        return None, HeadRead(None, UNREAD)
    n, m = len(_HEAD_SESSION), len(_HEAD_SESSION) + len(_HEAD_CLUB)
    end = m + len(_HEAD_RULESET)
    names = [[f.attname for f in fields] for fields in (_HEAD_SESSION, _HEAD_CLUB, _HEAD_RULESET)]
    session = model_from_row(TableSession, names[0], row[:n])
    session.club = model_from_row(Club, names[1], row[n:m])
    session.ruleset = model_from_row(RulesetSnapshot, names[2], row[m:end])
    said, seated, betting, role = row[end:]
    read = SessionReadVersion(said, f"{seated}/{betting}")
    return session, HeadRead(read, role if signed_in else UNREAD)


def session_seated(session: TableSession) -> TableSession:
    """The session's seats and bettors (their players) read onto it, as :func:`session_page`
    reads them (two queries; none when they are read already)."""
    prefetch_related_objects(
        [session],
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
    )
    return session


def seat_repairs(session: TableSession) -> list[SeatRepair]:
    """The repairs made to the session's seats (换座), newest first, with who made each (one
    query)."""
    repairs = SeatRepair.objects.filter(session=session).select_related("repaired_by")
    return list(repairs.order_by("-repaired_at", "-pk"))


def session_page(pk: int) -> TableSession | None:
    """A session with its club, ruleset, seats and bettors (their players), for its page."""
    return (
        TableSession.objects.select_related("club", "ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
        )
        .filter(pk=pk)
        .first()
    )


# --- confirmations (issue 24 §2) ---------------------------------------------------------------


def confirmation_rule_of(session: TableSession) -> str:
    """The confirmation rule a table plays under: its own (a tournament's), else its club's."""
    return session.confirmation_rule or session.club.confirmation_rule


def seat_of(session: TableSession, user) -> int | None:
    """The seat at this table of the player linked to the login (None: not seated here)."""
    if user is None or not user.is_authenticated:
        return None
    return next((s.number for s in session.seats.all() if s.player.user_id == user.pk), None)


def session_standings(session: TableSession) -> dict[int, HandStanding]:
    """Where each live hand of a table stands under its confirmation rule, by hand id (one
    query: the words said about the hands' current revisions)."""
    rule = confirmation_rule_of(session)
    said: dict[int, list[Word]] = defaultdict(list)
    for hand_id, seat, verdict, words in (
        HandConfirmation.objects.filter(
            hand__session=session, hand__is_deleted=False, revision=F("hand__revision")
        )
        .order_by("at", "id")
        .values_list("hand_id", "seat", "verdict", "words")
    ):
        said[hand_id].append(Word(seat, verdict, words))
    return {
        pk: standing(rule, entry_seat, said[pk])
        for pk, entry_seat in Hand.objects.filter(session=session, is_deleted=False).values_list(
            "pk", "entry_seat"
        )
    }


def hand_standing(
    session: TableSession, hand: Hand, said: Iterable[HandConfirmation]
) -> HandStanding:
    """Where one hand stands, from the words said about it (``hand_confirmations``, every
    revision's: those about its current one count)."""
    words = [Word(c.seat, c.verdict, c.words) for c in said if c.revision == hand.revision]
    return standing(confirmation_rule_of(session), hand.entry_seat, words)


class SessionReadVersion(NamedTuple):
    """What a table's page shows that its ``data_version`` does not count: the newest word
    said about its hands (its id; 0 before the first — a word that moves no total moves no
    version) and its seats' and bettors' players and names as one text (a rename moves none)."""

    words: int
    names: str


def session_read_version(session_id: int) -> SessionReadVersion:
    """:class:`SessionReadVersion` of a session: one query on PostgreSQL (three elsewhere)."""
    if connection.vendor != "postgresql":
        said = HandConfirmation.objects.filter(hand__session_id=session_id)
        seats = Seat.objects.filter(session_id=session_id).order_by("number")
        bettors = Bettor.objects.filter(session_id=session_id).order_by("pk")
        return SessionReadVersion(
            said.order_by("-id").values_list("id", flat=True).first() or 0,
            repr((list(seats.values_list("number", "player_id", "player__name")),
                  list(bettors.values_list("pk", "player__name", "guest_name")))),
        )  # fmt: skip
    words, hands, seats, players, bettors = (
        m._meta.db_table for m in (HandConfirmation, Hand, Seat, Player, Bettor)
    )
    sql = (
        f"SELECT (SELECT COALESCE(MAX(c.id), 0) FROM {words} c JOIN {hands} h ON h.id = c.hand_id"
        "  WHERE h.session_id = %s),"
        " (SELECT COALESCE(string_agg(s.number || ':' || p.id || ':' || p.name, '|'"
        f"   ORDER BY s.number), '') FROM {seats} s JOIN {players} p ON p.id = s.player_id"
        "  WHERE s.session_id = %s),"
        " (SELECT COALESCE(string_agg(b.id || ':' || COALESCE(p.name, b.guest_name), '|'"
        f"   ORDER BY b.id), '') FROM {bettors} b LEFT JOIN {players} p ON p.id = b.player_id"
        "  WHERE b.session_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [session_id] * 3)
        said, seated, betting = cursor.fetchone()
    return SessionReadVersion(said, f"{seated}/{betting}")


def hand_confirmations(hand: Hand) -> QuerySet[HandConfirmation]:
    """Every word said about a hand, each revision's, oldest first (its history)."""
    return hand.confirmations.select_related("by").order_by("at", "id")


class HeldHand(NamedTuple):
    """A hand of an open table that waits for confirmations or is disputed, for the organiser
    or referee: the hand, its table and where it stands."""

    hand: Hand
    session: TableSession
    standing: HandStanding


def club_held_hands(club: Club) -> list[HeldHand]:
    """The live hands of the club's open tables (club and tournament tables alike) that the
    confirmation rule holds or that someone disputes, disputes first, then by table and
    number (three queries and one a table with such a hand)."""
    live = Q(session__club=club, session__status=TableSession.Status.OPEN, is_deleted=False)
    disputed = HandConfirmation.objects.filter(
        hand=OuterRef("pk"), revision=OuterRef("revision"), verdict=HandConfirmation.Verdict.DISPUTE
    )
    hands = list(
        Hand.objects.filter(live)
        .filter(Q(counts=False) | Q(Exists(disputed)))
        .select_related("session__club")
        .prefetch_related(
            Prefetch("session__seats", queryset=Seat.objects.select_related("player"))
        )
        .order_by("session__started_at", "session_id", "number")
    )
    standings: dict[int, dict[int, HandStanding]] = {}
    out = []
    for hand in hands:
        if hand.session_id not in standings:
            standings[hand.session_id] = session_standings(hand.session)
        found = standings[hand.session_id].get(hand.pk)
        if found is not None and (found.held or found.is_disputed):
            out.append(HeldHand(hand, hand.session, found))
    out.sort(key=lambda h: not h.standing.is_disputed)
    return out


def declaration_menu(snapshot):
    """The declared entry's choices under the rules a snapshot pinned (RULES §6): the base
    patterns with their values, the hand-shape extras, the situation flags, the draw's
    declarations (the engine's menu, so a session's menu never changes with today's presets)."""
    return scoring_services.declaration_menu(snapshot)
