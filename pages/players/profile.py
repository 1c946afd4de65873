"""A player's page (战绩): what the view gathers from the selectors, and its charts.

Every figure is a selector's: ``ratings.stats.player_stats`` (figures, bases, rating history,
head-to-head, tournaments), ``clubs.selectors.player_recent`` (his clubs, his last sessions
with links), ``ratings.ranking.player_ranks`` (his rank in each club's all-time ranking) and
``ratings.awards_selectors.held_awards`` (the awards he holds, read from their read model).
This module only picks, orders and draws them: the charts come from ``pages.charts``.

Bounds: the awards are read for at most :data:`AWARD_CLUBS` clubs (those he played most in;
``?club=`` reads the one asked for), each for this year and all time, in one query; the
sessions listed are his last :data:`LAST_SESSIONS`, read alone.

**Kept under its version** (``core.readcache``; :func:`page_key`). The page's body is rendered
once per version of what it shows and kept. Its version, read with the player in one query
(``ratings.read_versions.player_with_page_version``), is

* the read version of each club he has tables or a membership in: moved when a follow-up has
  rewritten the club's lines, ratings or awards (his figures, ratings, ranks, awards,
  head-to-head), and when a name or a right it shows changes (a membership, a player's name,
  the club's or a tournament's row);
* the ``data_version`` of each of his tables: his last tables are listed with their totals,
  an open table's moving with every hand before any follow-up — so a hand shows at once.
* his tournament entries (a player entered in a public tournament may be seen by anyone).

Whether the visitor may see him at all is kept with the body (None: 404). Beside the
version, the key holds what else the body depends on: the player, his name and his user, the
visitor (his id and whether he is staff: what he may read; a change of his memberships moves
the club's version), the club asked for, the x axis, the language, and the quarter hour
(an award's "this year" turns at each club's New Year). Choosing the clubs' counters rather
than every table's ``derived_version`` keeps the version one short query however long his
history, and keeps it off a hand's request: the follow-ups move it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from clubs.selectors import club_today
from core.names import Name
from pages import charts
from pages.words import chinese, name_text, roots_text
from ratings.awards import Award
from ratings.awards_selectors import HeldAward, held_awards
from ratings.enums import ALL_TIME
from ratings.ranking import ClubRank
from ratings.stats import PlayerStats, RatingHistory

if TYPE_CHECKING:
    from clubs.models import Club, Player

#: the clubs whose awards the page reads, at most (he played most in them)
AWARD_CLUBS = 3
#: the last sessions and tournament tables the page lists
LAST_SESSIONS = 10
X_AXES = ("sessions", "dates")


def page_key(who: Player, user, club: Club | None, x: str) -> tuple:
    """The parts of the page's key beside its version (see above)."""
    authenticated = bool(user and user.is_authenticated)
    viewer = (user.pk, int(user.is_superuser)) if authenticated else (0, 0)
    name = hashlib.blake2b(who.name.encode(), digest_size=8).hexdigest()
    now = timezone.now()
    quarter = f"{now:%Y%m%d%H}{now.minute // 15}"
    parts = (who.pk, name, who.user_id or 0, *viewer, club.pk if club else 0, x, get_language(),
             quarter)  # fmt: skip
    return parts


@dataclass(frozen=True)
class ClubStanding:
    """His place in one club: its rating now and his rank in its ranking of all time."""

    club: Club
    rating: RatingHistory | None
    rank: ClubRank | None


@dataclass(frozen=True)
class AwardLine:
    award: Award
    name: str  # the award's name in the page's language
    about: str  # what it is given for
    value: str  # his figure, with its unit, in words
    hand: tuple[int, int] | None  # (session id, hand number) of a one-hand award


@dataclass(frozen=True)
class ClubAwards:
    club: Club
    year: int
    this_year: tuple[AwardLine, ...]
    all_time: tuple[AwardLine, ...]


def standings(
    clubs: list[Club], stats: PlayerStats, ranks: dict[int, ClubRank]
) -> list[ClubStanding]:
    """One line per club of the page: the club pool's rating (tournaments apart) and his
    rank, the clubs he played most first."""
    pools = {r.club.slug: r for r in stats.ratings if r.tournament is None}
    lines = [ClubStanding(c, pools.get(c.slug), ranks.get(c.pk)) for c in clubs]
    return sorted(lines, key=lambda s: (-(s.rating.sessions if s.rating else 0), s.club.name))


def _value_words(held: HeldAward) -> str:
    """16分 / 16 points, 0.05点炮/局 / 0.05 deal-ins per hand."""
    unit, value = held.unit_name, held.value
    number = f"{value:g}" if isinstance(value, float) else str(value)
    return f"{number}{unit.zh}" if chinese() else f"{number} {unit.en}"


def _words(name: Name) -> str:
    """A description in the page's language alone (a sentence, not a term to gloss)."""
    return name.zh if chinese() else name.en


def _line(h: HeldAward) -> AwardLine:
    a = h.award
    hand = (h.hand.session_id, h.hand.hand_number) if h.hand else None
    return AwardLine(a, name_text(a.name), _words(a.description), _value_words(h), hand)


def awards(lines: list[ClubStanding], player_id: int) -> list[ClubAwards]:
    """The awards he holds this year and of all time in the clubs he played most in."""
    clubs = [line.club for line in lines[:AWARD_CLUBS]]
    years = {club.pk: club_today(club).year for club in clubs}
    held = held_awards(player_id, years)
    out = []
    for club in clubs:
        mine = [h for h in held if h.club_id == club.pk]
        out.append(
            ClubAwards(
                club,
                years[club.pk],
                tuple(_line(h) for h in mine if h.season == years[club.pk]),
                tuple(_line(h) for h in mine if h.season == ALL_TIME),
            )
        )
    return out


def his_clubs(clubs: list[Club], club: Club | None) -> list[Club]:
    """The clubs the page may be narrowed to: those of his memberships and of his club tables
    that the visitor may read (``player_recent`` read them), by name; and the one asked for."""
    found = {c.pk: c for c in [club] if c is not None}
    found |= {c.pk: c for c in clubs}
    return sorted(found.values(), key=lambda c: (c.name, c.pk))


def biggest_words(stats: PlayerStats) -> str:
    """His biggest win in words: 清一色 + 1根, 自摸 (empty without a win)."""
    top = stats.win_values.biggest
    if top is None:
        return ""
    what = name_text(top.name)
    if top.roots:
        what = _("%(pattern)s + %(roots)s") % {"pattern": what, "roots": roots_text(top.roots)}
    if top.self_draw:
        what += ("，" if chinese() else ", ") + _("Self-drawn")
    return what


# --- the charts -------------------------------------------------------------------------------


def _day(zone: str, fmt: str):
    def label(v: float) -> str:
        return datetime.fromtimestamp(v * 86400, ZoneInfo(zone)).strftime(fmt)

    return label


def _days(moment: datetime) -> float:
    return moment.timestamp() / 86400


def _x_axis(pools: list[RatingHistory], x: str, zone: str):
    """The x axis' ticks and label: sessions 0 … n, or dates in the club's zone (month-day
    within one year, the year in the axis' label; else year-month)."""
    if x != "dates":
        return None, _("Sessions played")
    moments = [s.played_at for p in pools for s in p.history]
    if not moments:
        return None, _("Date")
    lo, hi = _days(min(moments)), _days(max(moments))
    tz = ZoneInfo(zone)
    first, last = min(moments).astimezone(tz), max(moments).astimezone(tz)
    if first.year == last.year:
        label = _("Date (%(year)s)") % {"year": first.year}
        return charts.spread_ticks(lo, hi, _day(zone, "%m-%d"), 4 if hi - lo >= 3 else 2), label
    return charts.spread_ticks(lo, hi, _day(zone, "%Y-%m"), 3), _("Date")


def _points(pool: RatingHistory, x: str, value, start: float | None):
    """A pool's points: (session n, value after it), from (0, start); or (date, value)."""
    steps = pool.history
    if x == "dates":
        return [(_days(s.played_at), v) for s, v in zip(steps, value(steps), strict=True)]
    head = [] if start is None else [(0.0, start)]
    return head + [(float(i), v) for i, v in enumerate(value(steps), 1)]


def _running(steps) -> list[float]:
    out, total = [], 0
    for s in steps:
        total += s.score
        out.append(float(total))
    return out


def score_chart(stats: PlayerStats, x: str, zone: str) -> charts.LineChart:
    """His score added up session after session, a line per club."""
    pools = [p for p in stats.ratings if p.tournament is None and p.history]
    series, words = [], []
    for p in pools:
        running = _running(p.history)
        signed = charts.signed
        series.append(charts.Series(f"{p.club.name} {signed(running[-1])}",
                                    _points(p, x, _running, 0.0)))  # fmt: skip
        words.append(
            ngettext(
                "%(club)s: %(n)s session, %(total)s in all (lowest %(low)s, highest %(high)s)",
                "%(club)s: %(n)s sessions, %(total)s in all (lowest %(low)s, highest %(high)s)",
                len(running),
            )
            % {"club": p.club.name, "n": len(running), "total": signed(running[-1]),
               "low": signed(min(0, *running)), "high": signed(max(0, *running))}
        )  # fmt: skip
    ticks, x_label = _x_axis(pools, x, zone)
    lines = "; ".join(words)
    return charts.line_chart(
        series,
        title=_("Score over time"),
        desc=_("His score added up after each session.") + (" " + lines if lines else ""),
        x_label=x_label,
        y_label=_("Score"),
        zero=0.0,
        x_ticks=ticks,
        y_format=charts.signed,
        empty_text=_("No finished session yet."),
        id="score-chart",
    )


def _ratings_after(steps) -> list[float]:
    return [s.rating_after for s in steps]


def rating_chart(stats: PlayerStats, x: str, zone: str) -> charts.LineChart:
    """His rating after each rated session, a line per club; the line at 1500 is where every
    player starts."""
    pools = [p for p in stats.ratings if p.tournament is None and p.history]
    series = [
        charts.Series(
            f"{p.club.name} {round(p.rating)}",
            _points(p, x, _ratings_after, p.history[0].rating_before),
        )
        for p in pools
    ]
    ticks, x_label = _x_axis(pools, x, zone)
    lines = "; ".join(
        _("%(club)s: %(start)s at first, %(now)s now") % {
            "club": p.club.name, "start": round(p.history[0].rating_before),
            "now": round(p.rating),
        }
        for p in pools
    )  # fmt: skip
    return charts.line_chart(
        series,
        title=_("Rating over time"),
        desc=_("His club rating after each rated session; a new player starts at 1500.")
        + (" " + lines if lines else ""),
        x_label=x_label,
        y_label=_("Rating"),
        zero=1500.0,
        x_ticks=ticks,
        y_format=lambda v: str(round(v)),
        empty_text=_("No rated session yet."),
        id="rating-chart",
    )


def _bar(label: str, n: int) -> charts.Bar:
    """A bar of wins, its title in the page's punctuation (平胡：2 / 平胡 (Basic win): 2)."""
    return charts.Bar(label, n, title=f"{label}{'：' if chinese() else ': '}{n}")


def _listed(bars: list[charts.Bar]) -> str:
    """The bars in words, for the chart's description."""
    return ("；" if chinese() else "; ").join(b.title or b.label for b in bars)


def pattern_chart(stats: PlayerStats) -> charts.BarChart:
    """His wins by pattern, the most frequent first (names as the presets name them)."""
    bars = [_bar(name_text(p.name), p.wins) for p in stats.win_values.patterns]
    return charts.bar_chart(
        bars,
        title=_("Wins by pattern"),
        desc=_listed(bars),
        empty_text=_("No win yet."),
        id="pattern-chart",
    )


def roots_chart(stats: PlayerStats) -> charts.BarChart:
    """His wins by their number of 根 (roots)."""
    roots = stats.win_values.roots
    bars = [_bar(roots_text(n), roots.get(n, 0)) for n in range(0, max(roots, default=-1) + 1)]
    return charts.bar_chart(
        bars,
        title=_("Wins by roots (根)"),
        desc=_listed(bars),
        empty_text=_("No win yet."),
        id="roots-chart",
        colour=charts.COLOURS[2],
    )
