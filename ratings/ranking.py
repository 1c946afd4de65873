"""The club ranking (排行榜): every player of a period with his rating and his figures.

:func:`club_ranking` answers a :class:`ClubRanking`, the one read model JSON, CSV and the page
render. It costs four queries whatever the number of players or hands: the club's lines added
up per player (``ratings.club_lines``), the club pool's ratings, the rating changes of the
period added up per player, and the club's display names.

Decisions where the issue was silent:

* The rating is the player's club rating now (the club pool's ``Rating``), whatever the
  period; Δ is what the period's rated sessions did to it.
* A figure without a denominator (a rate of a player without hands, his average win without a
  win) is None, and sorts last in either direction; an unrated player's rating likewise.
* ``sort=name`` orders by the name's pinyin (as the club's player list does), then the name;
  ties of any other key are broken by the name as written, then the player id.
* Ranks are shared on ties of the sort key (1, 1, 3).

**Cached under the club's read version.** :func:`club_ranking_read` is what the page and the
API answer: :func:`club_ranking` kept in the shared cache (``core.readcache``) under the club's
read version (``ratings.read_versions``: moved by the follow-ups that rewrite the club's lines
and ratings, and by a change of a name it shows) and the query (the period's days and zone,
fewest sessions, sort, order). Never stale: a new version is a new key. A request then costs
the club's version (one query) and the cache's answer, whatever the club's size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, NamedTuple

from django.db.models import F, Func, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from clubs.pinyin import pinyin_keys
from core.columns import Column, Sort, Table
from core.errors import Invalid, problem
from core.readcache import versioned
from ratings.club_lines import LineTotals, club_line_totals, display_names
from ratings.models import PROVISIONAL_SESSIONS, Rating, RatingChange
from ratings.periods import Period, period_from
from ratings.read_versions import club_read_version

#: ``min_sessions`` above this is refused (inputs have limits)
MAX_MIN_SESSIONS = 100_000


@dataclass(frozen=True)
class RankingRow:
    """One player's line of the ranking. Rates are exact floats (rounded when rendered)."""

    rank: int
    player_id: int
    name: str
    rating: float | None  # the club rating now; None: not rated yet
    provisional: bool  # fewer rated sessions than PROVISIONAL_SESSIONS, or not rated
    rated_sessions: int
    delta: float  # what the period's rated sessions did to the rating
    sessions: int
    hands: int
    total: int
    places: tuple[int, int, int, int]
    wins: int
    self_draws: int
    deal_ins: int
    win_total: int
    biggest_hand: int

    @property
    def average(self) -> float | None:
        """Average score per session."""
        return self.total / self.sessions if self.sessions else None

    @property
    def win_rate(self) -> float | None:
        """胡牌率: wins per hand."""
        return self.wins / self.hands if self.hands else None

    @property
    def self_draw_rate(self) -> float | None:
        """自摸率: self-draws per win."""
        return self.self_draws / self.wins if self.wins else None

    @property
    def deal_in_rate(self) -> float | None:
        """点炮率: deal-ins per hand."""
        return self.deal_ins / self.hands if self.hands else None

    @property
    def average_win(self) -> float | None:
        """The average value of a win."""
        return self.win_total / self.wins if self.wins else None

    @property
    def first_places(self) -> int:
        return self.places[0]


#: a rate's description in the API
RATE = "a float rounded to 4 places (null: no denominator); the counts beside it are exact"


def _pinyin_order(row: RankingRow) -> tuple[str, str]:
    return (pinyin_keys(row.name)[0][0], row.name)


def _place(k: int) -> Callable[[RankingRow], int]:
    return lambda r: r.places[k]


#: the ranking's columns, declared once (``core.columns``): the page's headings and cells
#: (``pages.players.ranking``), the API's rows and their schema, the CSV and the sort keys
#: (``?sort=``; None sorts last) all read them. A figure is exact here, rounded when written.
RANKING: Table[RankingRow] = Table("RankingRow", (
    Column("rank", _("#"), about=_("Rank (shared on ties)"), help="shared on ties of the sort key"),
    Column("player", value=attrgetter("player_id")),
    Column("name", _("Player"), kind="str", format="player", sort=Sort(value=_pinyin_order,
           ascending=True), help="the club's name for him, else his own"),
    Column("rating", _("Rating"), kind="float", places=2, null=True, format="rating", sort=True,
           about=_("Club rating now (openskill; a new player 1500)"),
           help="club rating now, 2 places; null: unrated"),
    Column("provisional", kind="bool", help="under 10 rated sessions, or unrated"),
    Column("rated_sessions"),
    Column("delta", _("Δ"), kind="float", places=2, format="signed", sort=True,
           about=_("What the period did to the rating"),
           help="change over the period's rated sessions, 2 places"),
    Column("sessions", _("Sessions"), sort=True),
    Column("hands", _("Hands"), sort=True),
    Column("total", _("Total"), format="signed", sort=True, help="sum of session scores"),
    Column("average", _("Average"), kind="float", places=2, null=True, format="one_place",
           sort=True, about=_("Score per session"), help="score per session, 2 places"),
    Column("places", kind="ints", value=lambda r: list(r.places), csv=False,
           help="how often 1st, 2nd, 3rd, 4th (ties share)"),
    Column("place_1", _("1st"), value=_place(0), api=False,
           sort=Sort("first_places"), about=_("Sessions finished 1st (ties share the place)")),
    Column("place_2", _("2nd"), value=_place(1), api=False),
    Column("place_3", _("3rd"), value=_place(2), api=False),
    Column("place_4", _("4th"), value=_place(3), api=False),
    Column("wins"),
    Column("self_draws"),
    Column("deal_ins", help="点炮: discards won on (一炮多响 counts once)"),
    Column("win_rate", _("Win rate (胡牌率)"), kind="float", places=4, null=True,
           format="percent", sort=True, about=_("Wins per hand"),
           help=f"胡牌率 wins/hands: {RATE}"),
    Column("self_draw_rate", _("Self-draw rate (自摸率)"), kind="float", places=4, null=True,
           format="percent", sort=True, about=_("Self-drawn wins per win"),
           help=f"自摸率 self_draws/wins: {RATE}"),
    Column("deal_in_rate", _("Deal-in rate (点炮率)"), kind="float", places=4, null=True,
           format="percent", sort=True, about=_("Discards won on, per hand"),
           help=f"点炮率 deal_ins/hands: {RATE}"),
    Column("average_win", _("Average win"), kind="float", places=2, null=True,
           format="one_place", sort=True, about=_("What each payer paid for a win, on average"),
           help="value of a win, 2 places"),
    Column("biggest_hand", _("Biggest win"), sort=True, about=_("The largest value of one win"),
           help="the largest value of one win (0: none)"),
))  # fmt: skip


@dataclass(frozen=True)
class ClubRanking:
    club_id: int
    period: Period
    sort: str
    descending: bool
    min_sessions: int
    rows: tuple[RankingRow, ...]

    @property
    def order(self) -> str:
        return "desc" if self.descending else "asc"

    @property
    def count(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class RankingQuery:
    """What ``?from=&to=&min_sessions=&sort=&order=`` ask for."""

    period: Period
    min_sessions: int = 0
    sort: str = "rating"
    descending: bool = True


def _check(min_sessions: Any, sort: Any) -> list:
    problems = []
    if sort not in RANKING.sort_keys:
        keys = ", ".join(RANKING.sort_keys)
        problems.append(problem("sort", "invalid_choice", f"sort is one of: {keys}"))
    valid = isinstance(min_sessions, int) and not isinstance(min_sessions, bool)
    if not valid or not 0 <= min_sessions <= MAX_MIN_SESSIONS:
        message = f"min_sessions is a whole number from 0 to {MAX_MIN_SESSIONS}"
        problems.append(problem("min_sessions", "invalid", message))
    return problems


def ranking_query(params: Mapping[str, Any], zone: str) -> RankingQuery:
    """The ranking a query string asks for; every problem of it at once (400)."""
    problems: list = []
    try:
        period = period_from(params, zone)
    except Invalid as e:
        problems += e.problems
        period = Period(zone=zone)
    raw = params.get("min_sessions")
    min_sessions: Any = 0
    if raw not in (None, ""):
        text = str(raw).strip()
        # a few digits only: int() of thousands of digits is refused by Python itself
        short = text.isascii() and text.isdigit() and len(text) <= len(str(MAX_MIN_SESSIONS))
        min_sessions = int(text) if short else raw
    sort = params.get("sort") or "rating"
    problems += _check(min_sessions, sort)
    order = params.get("order") or ""
    if order not in ("", "asc", "desc"):
        problems.append(problem("order", "invalid_choice", "order is asc or desc"))
    if problems:
        raise Invalid(problems)
    descending = order == "desc" if order else sort not in RANKING.ascending
    return RankingQuery(period, min_sessions, sort, descending)


class _Rated(NamedTuple):
    rating: float
    sessions: int


def _ratings(club: Club) -> dict[int, _Rated]:
    """The club pool's ratings by player (the pool: the club's, no tournament's)."""
    pool = Rating.objects.filter(pool__club=club, pool__tournament__isnull=True).order_by()
    return {pid: _Rated(r, n) for pid, r, n in pool.values_list("player_id", "rating", "sessions")}


def _deltas(club: Club, period: Period) -> dict[int, float]:
    changes = RatingChange.objects.filter(pool__club=club, pool__tournament__isnull=True).filter(
        period.q("played_at")
    )
    return dict(
        changes.values("player_id")
        .annotate(delta=Sum(F("rating_after") - F("rating_before")))
        .order_by()
        .values_list("player_id", "delta")
    )


def _row(line: LineTotals, name: str, rating: _Rated | None, delta: float) -> RankingRow:
    return RankingRow(
        rank=0,
        player_id=line.player_id,
        name=name,
        rating=None if rating is None else rating.rating,
        provisional=rating is None or rating.sessions < PROVISIONAL_SESSIONS,
        rated_sessions=0 if rating is None else rating.sessions,
        delta=delta,
        sessions=line.sessions,
        hands=line.hands,
        total=line.total,
        places=line.places,
        wins=line.wins,
        self_draws=line.self_draws,
        deal_ins=line.deal_ins,
        win_total=line.win_total,
        biggest_hand=line.win_max,
    )


def ranked(rows: list[RankingRow], sort: str, descending: bool) -> list[RankingRow]:
    """The rows in the order of ``sort`` (None last either way; ties by name, then player
    id), each with its rank, shared on ties of the sort key."""
    key = RANKING.sort_keys[sort]
    rows = sorted(rows, key=lambda r: (r.name, r.player_id))
    known = [r for r in rows if key(r) is not None]
    known.sort(key=key, reverse=descending)  # stable: ties keep the name order
    ordered = known + [r for r in rows if key(r) is None]
    keys = [key(r) for r in ordered]
    out: list[RankingRow] = []
    for i, row in enumerate(ordered):
        rank = out[-1].rank if i and keys[i - 1] == keys[i] else i + 1
        out.append(replace(row, rank=rank))
    return out


def club_ranking(
    club: Club,
    period: Period,
    *,
    min_sessions: int = 0,
    sort: str = "rating",
    descending: bool = True,
) -> ClubRanking:
    """Every player with a session of the club's own tables in the period (and at least
    ``min_sessions`` of them), ranked by ``sort``."""
    problems = _check(min_sessions, sort)
    if problems:
        raise Invalid(problems)
    lines = [t for t in club_line_totals(club, period) if t.sessions >= min_sessions]
    ratings, deltas, names = _ratings(club), _deltas(club, period), display_names(club)
    rows = [
        _row(t, names.get(t.player_id) or t.player_name, ratings.get(t.player_id),
             deltas.get(t.player_id) or 0.0)
        for t in lines
    ]  # fmt: skip
    return ClubRanking(
        club_id=club.pk,
        period=period,
        sort=sort,
        descending=descending,
        min_sessions=min_sessions,
        rows=tuple(ranked(rows, sort, descending)),
    )


def club_ranking_read(club: Club, query: RankingQuery) -> ClubRanking:
    """:func:`club_ranking` of ``query`` at the club's read version: from the cache when it
    was computed at this version (see the module's docstring), else computed and kept."""
    p = query.period
    version = club_read_version(club.pk)  # read before the data: a newer write moves it
    return versioned(
        "club-ranking",
        version,
        lambda: club_ranking(
            club, p, min_sessions=query.min_sessions, sort=query.sort,
            descending=query.descending,
        ),
        parts=(club.pk, p.first_day, p.last_day, p.zone, query.min_sessions, query.sort,
               int(query.descending)),
        local=True,  # a ClubRanking is never changed once built: the process may share it
    )  # fmt: skip


# --- a player's place in his clubs' rankings (the profile's header) ---------------------------


@dataclass(frozen=True)
class ClubRank:
    """Where a player stands in a club's ranking of all time, sorted by rating: his rank
    (shared on ties, as :func:`ranked` gives it) among ``of`` rated players."""

    club_id: int
    rank: int
    of: int


def player_ranks(player_id: int, club_ids: list[int]) -> dict[int, ClubRank]:
    """His rank by rating in each of these clubs' all-time rankings, by club id (a club where
    he is not rated yet is left out). One query, however many players and clubs: the club
    pool's ratings above his and in all, counted beside his own row. The all-time ranking
    holds exactly the pool's rated players (a player whose sessions all went is unrated again,
    ``ratings.services``), so this is the rank :func:`club_ranking` gives him by rating."""
    if not club_ids:
        return {}
    pool = Rating.objects.filter(pool=OuterRef("pool")).order_by().values("pool")
    count = Func(F("pk"), function="COUNT")
    above = pool.filter(rating__gt=OuterRef("rating")).annotate(n=count).values("n")
    rows = (
        Rating.objects.filter(
            player_id=player_id, pool__club_id__in=club_ids, pool__tournament__isnull=True
        )
        .annotate(
            above=Coalesce(Subquery(above), 0),
            of=Coalesce(Subquery(pool.annotate(n=count).values("n")), 0),
        )
        .order_by()
        .values_list("pool__club_id", "above", "of")
    )
    return {club: ClubRank(club, above + 1, of) for club, above, of in rows}
