"""A player's statistics (战绩): his figures, his rating history and his head-to-head, over the
sessions a caller may see.

Read from the statistics' lines (:class:`SessionLine`, :class:`WinLine`), never from the hands:
a constant number of queries however many sessions he played, each reading his own rows (his
session lines once: the sums and the head-to-head both come from them).

**Scope.** The rows are the player's lines that the caller may read: a club table counts when
the caller may read its club (``clubs.selectors.can_read``: a members-only club's tables are
invisible to outsiders), a tournament table when he may read its tournament
(``tournaments.selectors.can_read_tournament``: a public tournament of a members-only club is
readable). Then, by what is asked:

* nothing: the club tables of every readable club;
* ``club``: that club's own tables (kind ``club``);
* ``tournament``: that tournament's tables.

Tournament tables are points of a ranking, not money: they never add up with club tables. They
are counted in the figures only under ``tournament``; otherwise they are listed apart, one line
per tournament (``PlayerStats.tournaments``: his tables there, their points and places).

A period (``from``/``to``) is read in each club's own time zone: an evening in Chengdu belongs
to its Chengdu date, whatever the zone of another club in the same answer.

**Bases.** Every group of figures says what it rests on (``Basis``): scores (score, places) on
every session, totals entered ones included; hand figures (rates, kongs, 呼叫转移, 查叫, 花猪,
order of wins) on the sessions played hand by hand, whose hands are counted, shown and declared;
win figures (values, patterns, roots) on the wins, shown and declared. A declared hand counts
like a shown one (its wins carry the pattern and roots the scorer declared, ``ratings.facts``);
the shown counts say how much of it the tiles prove.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.db.models import Count, Exists, OuterRef, Q, Sum

from clubs.models import Club, Player, TableSession
from clubs.selectors import can_read
from core.names import Name
from ratings.models import PROVISIONAL_SESSIONS, Rating, RatingChange, SessionLine, WinLine
from ratings.periods import Period
from scoring.engine import PATTERN_NAMES, PRESETS
from tournaments.models import Tournament
from tournaments.selectors import can_read_tournament, players_visible_to

#: head-to-head lists the opponents he sat with most, at most this many
HEAD_TO_HEAD_LIMIT = 20
#: rates are answered as floats rounded to this many places
RATE_PLACES = 4

CLUB = TableSession.Kind.CLUB


def rate(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator`` rounded to ``RATE_PLACES``; None when there is nothing to
    divide by (no hands, no wins)."""
    return round(numerator / denominator, RATE_PLACES) if denominator else None


# --- the read model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A club or a tournament as an answer names it."""

    slug: str
    name: str


@dataclass(frozen=True)
class Scope:
    """What the figures cover: club tables (of one club, or of every readable club) or one
    tournament's tables, in a period."""

    kind: str  # "club" or "tournament"
    club: Ref | None
    tournament: Ref | None
    first_day: date | None
    last_day: date | None
    clubs: tuple[Ref, ...]  # the readable clubs whose tables are counted


@dataclass(frozen=True)
class Basis:
    sessions: int  # every session in scope
    entered_sessions: int  # of them, totals entered without hands
    sessions_with_hands: int
    hands: int
    shown_hands: int  # hands shown by tiles
    declared_hands: int  # hands where something was declared (RULES §6)
    wins: int
    shown_wins: int
    declared_wins: int


@dataclass(frozen=True)
class Scores:
    """Rests on every session."""

    sessions: int
    total_score: int
    average_score: float | None
    places: tuple[int, int, int, int]  # how often 1st … 4th (ties share the better place)
    place_rates: tuple[float | None, ...]


@dataclass(frozen=True)
class HandFigures:
    """Rests on the sessions played hand by hand (``Basis.hands``)."""

    wins: int
    win_rate: float | None  # 胡牌率: wins per hand
    self_draws: int
    self_draw_rate: float | None  # 自摸率: self-draws per win
    deal_ins: int
    deal_in_rate: float | None  # 点炮率: discards won on, per hand
    self_drawn_against: int  # 被自摸
    self_drawn_against_rate: float | None  # per hand
    first_wins: int  # 血战: 1st, 2nd, 3rd to win a hand
    second_wins: int
    third_wins: int
    kongs_concealed: int
    kongs_direct: int
    kongs_added: int
    kong_net: int  # 杠钱: kong payments and 退税, net
    transfer_paid: int  # 呼叫转移
    transfer_received: int
    chajiao_paid: int  # 查叫
    chajiao_received: int
    huazhu: int  # 花猪

    @property
    def kongs(self) -> int:
        return self.kongs_concealed + self.kongs_direct + self.kongs_added


@dataclass(frozen=True)
class BiggestWin:
    amount: int
    pattern: str
    name: Name
    roots: int
    self_draw: bool
    verified: bool
    session_id: int
    hand_number: int
    started_at: datetime
    day: date  # the club's day it was played on, in the club's own time zone


@dataclass(frozen=True)
class PatternCount:
    code: str
    name: Name  # as the preset of the wins names it (大对子 in chengdu), else the usual name
    wins: int
    shown: int


@dataclass(frozen=True)
class WinFigures:
    """Rests on the wins (``Basis.wins``)."""

    wins: int
    win_total: int
    average_win: float | None  # what each payer paid for the win itself, on average
    biggest: BiggestWin | None
    patterns: tuple[PatternCount, ...]  # most frequent first
    roots: dict[int, int]  # wins by their number of 根: {0: n, 1: n, …}


@dataclass(frozen=True)
class RatingStep:
    session_id: int
    played_at: datetime
    number: int
    score: int
    place: int
    expected_place: int
    expected_probability: float
    rating_before: float
    rating_after: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class RatingHistory:
    """His rating in one pool: where he stands now and the steps of the period."""

    club: Ref
    tournament: Ref | None
    rating: float
    mu: float
    sigma: float
    sessions: int
    provisional: bool
    history: tuple[RatingStep, ...]


@dataclass
class Opponent:
    player_id: int
    name: str
    sessions: int = 0
    net: int = 0  # what he received from this opponent minus what he paid him
    above: int = 0  # sessions he finished above the opponent
    below: int = 0
    level: int = 0


@dataclass(frozen=True)
class TournamentLine:
    """His tables in one tournament (points of its ranking, never added to club totals)."""

    tournament: Ref
    tables: int
    score: int
    places: tuple[int, int, int, int]


@dataclass(frozen=True)
class PlayerStats:
    player_id: int
    name: str
    scope: Scope
    basis: Basis
    scores: Scores
    hands: HandFigures
    win_values: WinFigures
    ratings: tuple[RatingHistory, ...]
    head_to_head: tuple[Opponent, ...]
    tournaments: tuple[TournamentLine, ...] = field(default=())


# --- what the caller may read -----------------------------------------------------------------


@dataclass(frozen=True)
class _Readable:
    clubs: dict[int, Club]  # readable clubs he has club tables in
    tournaments: dict[int, Tournament]  # readable tournaments he has tables in


def _readable(player: Player, user) -> _Readable:
    """The clubs and tournaments of his lines that ``user`` may read (one query, two when he
    played a tournament table; and the user's memberships once)."""
    mine = SessionLine.objects.filter(player=player).order_by()
    here = mine.filter(club_id=OuterRef("pk"))
    clubs = list(
        Club.objects.filter(pk__in=mine.values("club_id"))
        .annotate(
            club_tables=Exists(here.filter(kind=CLUB)),
            tournament_tables=Exists(here.filter(tournament__isnull=False)),
        )
        .order_by("name", "pk")
    )
    tournaments: dict[int, Tournament] = {}
    if any(c.tournament_tables for c in clubs):
        played = Tournament.objects.select_related("club").filter(
            pk__in=mine.filter(tournament__isnull=False).values("tournament_id")
        )
        tournaments = {t.pk: t for t in played.order_by("pk") if can_read_tournament(user, t)}
    return _Readable(
        clubs={c.pk: c for c in clubs if c.club_tables and can_read(user, c)},
        tournaments=tournaments,
    )


def _in_period(
    period: Period, zones: dict[str, list[int]], moment: str, club: str = "club_id"
) -> Q:
    """Rows of these clubs (grouped by time zone; ``club`` names the rows' club field) whose
    ``moment`` lies in the period, each club's dates read in its own zone."""
    if period.first_day is None and period.last_day is None:
        return Q(**{f"{club}__in": [pk for ids in zones.values() for pk in ids]})
    where = Q(pk__in=[])
    for zone, ids in zones.items():
        where |= Q(**{f"{club}__in": ids}) & replace(period, zone=zone).q(moment)
    return where


def _zones(clubs: Iterable[Club]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for c in clubs:
        out[c.time_zone].append(c.pk)
    return out


@dataclass(frozen=True)
class _Where:
    """The rows a request covers."""

    kind: str
    clubs: list[Club]  # whose time zones read the period (the tournament's club under one)
    lines: Q  # of SessionLine and WinLine, besides the period
    pools: Q  # of Rating and RatingChange
    tournaments: dict[int, Tournament]  # the tournaments listed apart


#: matches no row (and costs no query)
NOTHING = Q(pk__in=[])


def _scope(readable: _Readable, club: Club | None, tournament: Tournament | None) -> _Where:
    if tournament is not None:
        if tournament.pk not in readable.tournaments:  # not played, or not to be read
            return _Where(TableSession.Kind.TOURNAMENT, [], NOTHING, NOTHING, {})
        return _Where(
            TableSession.Kind.TOURNAMENT,
            [tournament.club],
            Q(tournament_id=tournament.pk),
            Q(pool__tournament_id=tournament.pk),
            {tournament.pk: tournament},
        )
    clubs = [c for c in readable.clubs.values() if club is None or c.pk == club.pk]
    return _Where(
        CLUB,
        clubs,
        Q(kind=CLUB),  # the clubs themselves come with the period (``_in_period``)
        Q(pool__club_id__in=[c.pk for c in clubs], pool__tournament__isnull=True),
        {pk: t for pk, t in readable.tournaments.items() if club is None or t.club_id == club.pk},
    )


# --- the figures ------------------------------------------------------------------------------

_SUMMED = ("score", "hands", "shown_hands", "wins", "self_draws", "deal_ins",
           "self_drawn_against", "win_total", "first_wins", "second_wins", "third_wins",
           "kongs_concealed", "kongs_direct", "kongs_added", "kong_net", "transfer_paid",
           "transfer_received", "chajiao_paid", "chajiao_received", "huazhu")  # fmt: skip
_HANDS = _SUMMED.index("hands")


class _Line(NamedTuple):
    """One of his lines as the figures read it."""

    session_id: int
    place: int
    entered: bool
    exchanged: dict[str, int] | None
    summed: tuple[int, ...]  # the fields of _SUMMED


def _his_lines(lines) -> list[_Line]:
    """His lines of the scope (one query: the sums and the head-to-head both read them)."""
    rows = lines.values_list("session_id", "place", "entered", "exchanged", *_SUMMED)
    return [_Line(*row[:4], row[4:]) for row in rows]


def _line_sums(lines: list[_Line]) -> dict[str, int]:
    """His lines added up: sessions, entered ones, those with hands, places, every figure."""
    columns = zip(*(ln.summed for ln in lines), strict=True)
    sums = dict(zip(_SUMMED, [sum(c) for c in columns] or [0] * len(_SUMMED), strict=True))
    places = Counter(ln.place for ln in lines)
    return {
        "sessions": len(lines),
        "entered_sessions": sum(1 for ln in lines if ln.entered),
        "sessions_with_hands": sum(1 for ln in lines if ln.summed[_HANDS] > 0),
        **{f"place_{n}": places[n] for n in range(1, 5)},
        **sums,
    }


def _pattern_name(preset: str, code: str) -> Name:
    table = PRESETS.get(preset)
    for entry in table.named_table if table else ():
        if entry.code == code:
            return Name(entry.zh, entry.en)
    return PATTERN_NAMES.get(code) or Name(code, code)


#: the fields of a WinLine a BiggestWin is made of (with its pattern's name and its day)
_BIGGEST_FIELDS = ("amount", "pattern", "preset", "roots", "self_draw", "verified", "session_id",
                   "hand_number", "started_at")  # fmt: skip


def _win_figures(wins, s: dict[str, int]) -> tuple[WinFigures, int]:
    """The win figures, and how many of the wins were shown by tiles (two queries)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    names: dict[str, set[Name]] = defaultdict(set)
    roots: dict[int, int] = defaultdict(int)
    shown_wins = 0
    grouped = wins.values_list("preset", "pattern", "roots", "verified").annotate(n=Count("pk"))
    for preset, code, n_roots, verified, n in grouped.order_by():
        counts[code][0] += n
        counts[code][1] += n if verified else 0
        names[code].add(_pattern_name(preset, code))
        roots[n_roots] += n
        shown_wins += n if verified else 0
    patterns = tuple(
        PatternCount(
            code,
            # the preset's own name when all its wins were scored under presets that agree
            next(iter(names[code])) if len(names[code]) == 1 else _pattern_name("", code),
            n,
            shown,
        )
        for code, (n, shown) in sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))
    )
    top = (
        wins.order_by("-amount", "started_at", "session_id", "hand_number", "order")
        .values_list(*_BIGGEST_FIELDS, "club__time_zone")
        .first()
    )
    biggest = None
    if top is not None:
        *win, zone = top
        fields = dict(zip(_BIGGEST_FIELDS, win, strict=True))
        name = _pattern_name(fields.pop("preset"), fields["pattern"])
        day = fields["started_at"].astimezone(ZoneInfo(zone)).date()  # the club's own day
        biggest = BiggestWin(**fields, name=name, day=day)
    figures = WinFigures(
        wins=s["wins"],
        win_total=s["win_total"],
        average_win=rate(s["win_total"], s["wins"]),
        biggest=biggest,
        patterns=patterns,
        roots=dict(sorted(roots.items())),
    )
    return figures, shown_wins


def _hand_figures(s: dict[str, int]) -> HandFigures:
    hands = s["hands"]
    return HandFigures(
        wins=s["wins"], win_rate=rate(s["wins"], hands),
        self_draws=s["self_draws"], self_draw_rate=rate(s["self_draws"], s["wins"]),
        deal_ins=s["deal_ins"], deal_in_rate=rate(s["deal_ins"], hands),
        self_drawn_against=s["self_drawn_against"],
        self_drawn_against_rate=rate(s["self_drawn_against"], hands),
        first_wins=s["first_wins"], second_wins=s["second_wins"], third_wins=s["third_wins"],
        kongs_concealed=s["kongs_concealed"], kongs_direct=s["kongs_direct"],
        kongs_added=s["kongs_added"], kong_net=s["kong_net"],
        transfer_paid=s["transfer_paid"], transfer_received=s["transfer_received"],
        chajiao_paid=s["chajiao_paid"], chajiao_received=s["chajiao_received"],
        huazhu=s["huazhu"],
    )  # fmt: skip


def _scores(s: dict[str, int]) -> Scores:
    places = tuple(s[f"place_{n}"] for n in range(1, 5))
    return Scores(
        sessions=s["sessions"],
        total_score=s["score"],
        average_score=rate(s["score"], s["sessions"]),
        places=places,  # type: ignore[arg-type]
        place_rates=tuple(rate(n, s["sessions"]) for n in places),
    )


def _head_to_head(player: Player, lines, his: list[_Line]) -> tuple[Opponent, ...]:
    """The opponents he sat with most (one query: theirs at his tables; ``his``: his lines)."""
    mine = {ln.session_id: (ln.place, ln.exchanged) for ln in his}
    others = (
        SessionLine.objects.filter(session_id__in=lines.values("session_id"))
        .exclude(player=player)
        .order_by()
        .values_list("session_id", "player_id", "player__name", "place")
    )
    met: dict[int, Opponent] = {}
    for session_id, pid, name, place in others:
        if session_id not in mine:
            # a session finished between the two queries (a worker wrote its lines): his own
            # line was not read yet, so it counts from the next request on
            continue
        o = met.setdefault(pid, Opponent(pid, name))
        my_place, exchanged = mine[session_id]
        o.sessions += 1
        o.net += (exchanged or {}).get(str(pid), 0)
        if my_place < place:
            o.above += 1
        elif my_place > place:
            o.below += 1
        else:
            o.level += 1
    ranked = sorted(met.values(), key=lambda o: (-o.sessions, o.name, o.player_id))
    return tuple(ranked[:HEAD_TO_HEAD_LIMIT])


#: a RatingChange's fields a RatingStep is made of, in its order
_STEP_FIELDS = ("session_id", "played_at", "number", "score", "place", "expected_place",
                "expected_probability", "rating_before", "rating_after")  # fmt: skip


def _ratings(player: Player, pools: Q, period: Q) -> tuple[RatingHistory, ...]:
    """His rating in each pool of the scope, with the steps of the period (two queries)."""
    ratings = (
        Rating.objects.filter(pools, player=player)
        .order_by("pool__club__name", "pool_id")
        .values_list("pool_id", "pool__club__slug", "pool__club__name", "pool__tournament__slug",
                     "pool__tournament__name", "rating", "mu", "sigma", "sessions")
    )  # fmt: skip
    steps: dict[int, list[RatingStep]] = defaultdict(list)
    changes = (
        RatingChange.objects.filter(pools, period, player=player)
        .order_by("pool_id", "played_at", "session_id")
        .values_list("pool_id", *_STEP_FIELDS)
    )
    for pool_id, *step in changes:  # rows, not model instances: a long history is many
        steps[pool_id].append(RatingStep(*step))
    return tuple(
        RatingHistory(
            club=Ref(club_slug, club_name),
            tournament=Ref(t_slug, t_name) if t_slug is not None else None,
            rating=rating,
            mu=mu,
            sigma=sigma,
            sessions=sessions,
            provisional=sessions < PROVISIONAL_SESSIONS,
            history=tuple(steps[pool_id]),
        )
        for pool_id, club_slug, club_name, t_slug, t_name, rating, mu, sigma, sessions in ratings
    )


def _tournament_lines(player: Player, tournaments: dict[int, Tournament], period: Q):
    """His tables in each of these tournaments, one line each (one query)."""
    if not tournaments:
        return ()
    rows = (
        SessionLine.objects.filter(period, player=player, tournament_id__in=list(tournaments))
        .order_by()
        .values("tournament_id")
        .annotate(
            tables=Count("pk"),
            score=Sum("score"),
            **{f"place_{n}": Count("pk", filter=Q(place=n)) for n in range(1, 5)},
        )
    )
    return tuple(
        TournamentLine(
            Ref(tournaments[row["tournament_id"]].slug, tournaments[row["tournament_id"]].name),
            row["tables"],
            row["score"],
            tuple(row[f"place_{n}"] for n in range(1, 5)),  # type: ignore[arg-type]
        )
        for row in rows.order_by("tournament_id")
    )


# --- the selector -----------------------------------------------------------------------------


def player_visible(player: Player, user) -> bool:
    """Whether ``user`` may see anything of the player (one query)."""
    return players_visible_to(user).filter(pk=player.pk).exists()


def player_stats(
    player: Player,
    user,
    *,
    club: Club | None = None,
    tournament: Tournament | None = None,
    period: Period | None = None,
) -> PlayerStats | None:
    """His statistics over what ``user`` may read, restricted to ``club``'s own tables or to
    ``tournament``'s (the caller resolved them; one the user may not read covers nothing), in
    ``period``. None when the user may see nothing of the player (the API answers 404)."""
    if not player_visible(player, user):
        return None
    period = period or Period()
    scope = _scope(_readable(player, user), club, tournament)
    zones = _zones(scope.clubs)
    in_period = _in_period(period, zones, "started_at")
    lines = SessionLine.objects.filter(scope.lines, in_period, player=player).order_by()
    wins = WinLine.objects.filter(scope.lines, in_period, player=player)
    his = _his_lines(lines)
    sums = _line_sums(his)
    win_figures, shown_wins = _win_figures(wins, sums)
    basis = Basis(
        sessions=sums["sessions"],
        entered_sessions=sums["entered_sessions"],
        sessions_with_hands=sums["sessions_with_hands"],
        hands=sums["hands"],
        shown_hands=sums["shown_hands"],
        declared_hands=sums["hands"] - sums["shown_hands"],
        wins=sums["wins"],
        shown_wins=shown_wins,
        declared_wins=sums["wins"] - shown_wins,
    )
    tournament_zones = _zones({t.club_id: t.club for t in scope.tournaments.values()}.values())
    return PlayerStats(
        player_id=player.pk,
        name=player.name,
        scope=Scope(
            kind=scope.kind,
            club=Ref(club.slug, club.name) if club is not None else None,
            tournament=Ref(tournament.slug, tournament.name) if tournament else None,
            first_day=period.first_day,
            last_day=period.last_day,
            clubs=tuple(Ref(c.slug, c.name) for c in scope.clubs if scope.kind == CLUB),
        ),
        basis=basis,
        scores=_scores(sums),
        hands=_hand_figures(sums),
        win_values=win_figures,
        ratings=_ratings(
            player, scope.pools, _in_period(period, zones, "played_at", "pool__club_id")
        ),
        head_to_head=_head_to_head(player, lines, his),
        tournaments=_tournament_lines(
            player, scope.tournaments, _in_period(period, tournament_zones, "started_at")
        ),
    )
