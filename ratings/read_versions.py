"""The versions the club ranking and a player's page are cached under (``core.readcache``).

**A club's read version** (:class:`ratings.models.ClubReadVersion`) counts what those pages
show of a club that is not a table's own data:

* the derived data — statistics' lines, ratings, award holders — moved by the follow-ups when
  they finish (``ratings.services``: a session's refresh, a pool or club recomputed, a
  season's awards rewritten). The bump comes after (or with) the data's commit, and a reader
  reads the version before the data: a read model is never kept under a version older than
  what it read, so it is never stale. A hand's own request writes nothing here: its follow-up
  does, on the workers.
* the names and rights the pages show: a membership (its display name, who is a member, and
  so who may read a members-only club), a player's name, the club's row (its name, its
  visibility), a tournament's row (its name, whether it is public). These move it through the
  models' signals, as they are saved.

**A player's page** also lists his last tables with their totals, open ones included, which
change with every hand before any follow-up: its version is, in one query
(:func:`player_page_version`), the read versions of the clubs he has tables, entries or
memberships in, together with his tables' ``data_version`` (each of them: a hand recorded,
corrected, deleted, a table closed, reopened, deleted or a new one he sits at all move it) and
his tournament entries (who may see him: a player entered in a public tournament is public;
entries are also written in bulk, without signals, so they are read rather than heard).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django.db import connection

from core.db import prepared_row
from ratings.models import ClubReadVersion

_BUMP = (
    f"INSERT INTO {ClubReadVersion._meta.db_table} (club_id, version) "
    "SELECT unnest(%s::bigint[]), 1 ON CONFLICT (club_id) DO UPDATE "
    f"SET version = {ClubReadVersion._meta.db_table}.version + 1"
)


def club_read_bump(club_ids: Iterable[int]) -> None:
    """These clubs' ranking and players' pages are read afresh from now on (one query)."""
    ids = sorted({int(pk) for pk in club_ids if pk is not None})
    if not ids:
        return
    if connection.vendor != "postgresql":  # SQLite (a bench's fallback): one club at a time
        for pk in ids:
            row, _ = ClubReadVersion.objects.get_or_create(club_id=pk)
            ClubReadVersion.objects.filter(pk=pk).update(version=row.version + 1)
        return
    with connection.cursor() as cursor:
        cursor.execute(_BUMP, [ids])


def club_with_read_version(user, slug: str):
    """The club with this slug if ``user`` may read it (``clubs.selectors.club_visible``), with
    its read version as ``read_version``, in one query (written out: a page's only query,
    read on every request); None otherwise."""
    from clubs.models import Club
    from clubs.selectors import can_read

    table, versions = Club._meta.db_table, ClubReadVersion._meta.db_table
    found = list(
        Club.objects.raw(
            f"SELECT c.*, coalesce(v.version, 0) AS read_version FROM {table} c "  # noqa: S608 - our own table names
            f"LEFT JOIN {versions} v ON v.club_id = c.id WHERE c.slug = %s LIMIT 1",
            [slug],
        )
    )
    club = found[0] if found else None
    if club is None or not can_read(user, club):
        return None
    return club


def club_read_version(club_id: int) -> int:
    """The club's read version now (0: never moved). One query."""
    found = ClubReadVersion.objects.filter(pk=club_id).values_list("version", flat=True).first()
    return found or 0


#: :func:`player_page_version`'s statement. His tables are looked up one by one from his seats
#: and bettors (the LATERAL … LIMIT 1 keeps the planner from hashing every table of the
#: database, which it chose for a regular of 143 tables among 6,000: a read that grew with
#: the whole service, not with him). Prepared once per connection (``core.db.prepared_row``):
#: planning it cost PostgreSQL more than running it. Issue 25.
_PLAYER_PAGE = f"""
WITH tables AS (
    SELECT ids.session_id AS id, s.club_id, s.data_version
    FROM (SELECT session_id FROM clubs_seat WHERE player_id = %(p)s
          UNION SELECT session_id FROM clubs_bettor WHERE player_id = %(p)s) ids
    CROSS JOIN LATERAL (SELECT club_id, data_version FROM clubs_tablesession
                        WHERE id = ids.session_id LIMIT 1) s
), entries AS (
    SELECT r.id, r.tournament_id, t.club_id FROM tournaments_registration r
    JOIN tournaments_tournament t ON t.id = r.tournament_id WHERE r.player_id = %(p)s
), clubs AS (
    SELECT club_id FROM tables UNION SELECT club_id FROM entries
    UNION SELECT club_id FROM clubs_membership WHERE player_id = %(p)s
)
SELECT
    (SELECT string_agg(c.club_id || ':' || coalesce(v.version, 0), ',' ORDER BY c.club_id)
     FROM clubs c LEFT JOIN {ClubReadVersion._meta.db_table} v ON v.club_id = c.club_id),
    (SELECT string_agg(t.id || ':' || t.data_version, ',' ORDER BY t.id) FROM tables t),
    (SELECT string_agg(e.id || ':' || e.tournament_id, ',' ORDER BY e.id) FROM entries e)
"""


_PLAYER_WITH_PAGE = (
    _PLAYER_PAGE.replace(
        "SELECT\n    (SELECT string_agg(c.club_id",
        "SELECT p.id, p.name, p.user_id, p.created_at,\n    (SELECT string_agg(c.club_id",
        1,
    )
    + "FROM clubs_player p WHERE p.id = %(p)s"
)


def player_with_page_version(player_id: int):
    """The player of this id (``clubs.selectors.player_by_id``) and his page's version
    (:func:`player_page_version`), in one query; None when there is no such player."""
    from clubs.models import Player

    if connection.vendor != "postgresql":
        player = Player.objects.filter(pk=player_id).first()
        return None if player is None else (player, player_page_version(player_id))
    row = prepared_row(_PLAYER_WITH_PAGE, {"p": player_id})
    if row is None:
        return None
    pk, name, user_id, created_at, *versions = row
    player = Player(pk=pk, name=name, user_id=user_id, created_at=created_at)
    player._state.adding, player._state.db = False, "default"  # as the ORM reads a row
    return player, _digest(*versions)


def _digest(clubs: str | None, tables: str | None, entries: str | None) -> str:
    text = f"{clubs or ''}|{tables or ''}|{entries or ''}"
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def player_page_version(player_id: int) -> str:
    """The version of everything a player's page shows (see above), as a short digest: the
    read versions of his clubs and the data versions of each of his tables. One query."""
    if connection.vendor == "postgresql":
        clubs, tables, entries = prepared_row(_PLAYER_PAGE, {"p": player_id})
    else:  # SQLite: the same, read by the ORM
        clubs, tables, entries = _player_page_version_orm(player_id)
    return _digest(clubs, tables, entries)


def _player_page_version_orm(player_id: int) -> tuple[str, str, str]:
    from django.db.models import Q

    from clubs.models import Bettor, Membership, Seat, TableSession
    from tournaments.models import Registration

    tables = sorted(
        TableSession.objects.filter(
            Q(pk__in=Seat.objects.filter(player_id=player_id).values("session_id"))
            | Q(pk__in=Bettor.objects.filter(player_id=player_id).values("session_id"))
        ).values_list("pk", "club_id", "data_version")
    )
    entries = sorted(
        Registration.objects.filter(player_id=player_id).values_list(
            "pk", "tournament_id", "tournament__club_id"
        )
    )
    clubs = {c for _, c, _ in tables} | {c for _, _, c in entries}
    clubs |= set(Membership.objects.filter(player_id=player_id).values_list("club_id", flat=True))
    versions = dict(
        ClubReadVersion.objects.filter(pk__in=clubs).values_list("club_id", "version")
    )  # fmt: skip
    return (
        ",".join(f"{c}:{versions.get(c, 0)}" for c in sorted(clubs)),
        ",".join(f"{pk}:{v}" for pk, _, v in tables),
        ",".join(f"{pk}:{t}" for pk, t, _ in entries),
    )


# --- what the pages name: moved as it is saved ----------------------------------------------


def _membership_saved(*, instance, **_) -> None:
    club_read_bump([instance.club_id])


def _player_saved(*, instance, created: bool = False, **_) -> None:
    """A player's name is shown in the ranking, his page and his opponents' pages: the clubs
    he is a member of or has tables in read afresh (a new player is in none yet)."""
    if created:
        return
    from clubs.models import Membership, Seat

    clubs = set(Membership.objects.filter(player=instance).values_list("club_id", flat=True))
    clubs |= set(
        Seat.objects.filter(player=instance).values_list("session__club_id", flat=True).distinct()
    )
    club_read_bump(clubs)


def _club_saved(*, instance, created: bool = False, **_) -> None:
    if not created:
        club_read_bump([instance.pk])


def _tournament_saved(*, instance, **_) -> None:
    club_read_bump([instance.club_id])


def connect() -> None:
    """Follow the saves of what the pages name (``RatingsConfig.ready``)."""
    from django.db.models.signals import post_delete, post_save

    from clubs.models import Club, Membership, Player
    from tournaments.models import Tournament

    for signal in (post_save, post_delete):
        signal.connect(_membership_saved, sender=Membership, dispatch_uid=f"read-m-{signal}")
        signal.connect(_tournament_saved, sender=Tournament, dispatch_uid=f"read-t-{signal}")
    post_save.connect(_player_saved, sender=Player, dispatch_uid="read-player")
    post_save.connect(_club_saved, sender=Club, dispatch_uid="read-club")
