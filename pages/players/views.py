"""The club ranking (排行榜) and a player's page (战绩).

Both read through selectors only: the ranking is ``ratings.ranking.club_ranking`` (the API's
ranking, so the page, its JSON and its CSV agree), the player's page
``ratings.stats.player_stats`` and the selectors ``pages.players.profile`` names. A club the
visitor may not read is 404, and so is a player he may see nothing of.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from clubs import selectors
from core.readcache import versioned
from pages import frame
from pages.base import club_for
from pages.players import profile, widgets
from pages.players.ranking import (
    PAGE_SIZE,
    PERIODS,
    headings,
    page_problem,
    page_query,
    pages_of,
    ranking_rows,
)
from ratings.enums import PROVISIONAL_SESSIONS
from ratings.ranking import RANKING, club_ranking_read, player_ranks
from ratings.read_versions import club_with_read_version, player_with_page_version
from ratings.stats import player_stats


def _ranking_main(club, page) -> tuple[int, str]:
    """The ranking page's body (all but its frame) as HTML, with its status: 400 for a bad
    query, said in words (a page past the last one too)."""
    context = {
        "club": club,
        "page": page,
        "periods": [
            (key, label, page.link(period=key)) for key, label in PERIODS.items() if key != "custom"
        ],  # fmt: skip
        "period_choices": list(PERIODS.items()),
        "headings": headings(page),
        "columns": len(RANKING.page_columns),
        "provisional_sessions": PROVISIONAL_SESSIONS,
        "ranking": None,
        "page_size": PAGE_SIZE,
        "csv_url": reverse("club-ranking", args=[club.slug]) + "?" + page.api_params(),
    }
    status = 200
    if page.query is None:
        status = 400
    else:
        ranking = club_ranking_read(club, page.query)  # kept under the club's read version
        pages = pages_of(page, len(ranking.rows))
        if pages is None:  # past the last page: said in words, as any bad query
            last = pages_of(replace(page, number=1), len(ranking.rows)).last
            context["page"] = replace(page, problems=(page_problem(last),))
            status = 400
        else:
            context |= {
                "ranking": ranking,
                "pages": pages,
                "rows": ranking_rows(ranking, pages.first_row, pages.rows),
            }
    return status, render_to_string("pages/players/ranking_main.html", context)


@require_safe
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's ranking of a period as a table, a page of it at a time (``?page=N``,
    ``?page=all``): sortable by its headings' links, filtered by period and fewest sessions;
    a bad query says what is wrong in words (400).

    The body is kept under the club's read version (``ratings.read_versions``: moved by the
    follow-ups that rewrite its lines and ratings, and by a change of a name or a right it
    shows) and the query (with the club's today, which places this month and this year, and
    the language): a request reads the club with its version (one query) and the cache (this
    process's copy first)."""
    club = club_with_read_version(request.user, slug)  # read before the data it versions
    if club is None:
        raise Http404
    today = selectors.club_today(club)
    page = page_query(request.GET, club.time_zone, today)
    if page.query is None:  # a bad query: nothing read, nothing kept
        status, main = _ranking_main(club, page)
    else:
        asked = repr((sorted(page.values.items()), page.number))
        parts = (club.pk, today, get_language(), hashlib.blake2b(asked.encode()).hexdigest()[:24])
        status, main = versioned(
            "ranking-page", club.read_version, lambda: _ranking_main(club, page), parts=parts,
            local=True,
        )  # fmt: skip
    return frame.page(
        request, "pages/players/ranking.html", {"club": club}, main, seen=(club.name,),
        status=status,
    )  # fmt: skip


def _player_main(who, user, club, x: str) -> str | None:
    """The page's body (all but its frame) as HTML: what is kept under the page's version;
    None when the visitor may see nothing of him (kept too: who may see him is in the key)."""
    stats = player_stats(who, user, club=club)
    if stats is None:
        return None
    recent = selectors.player_recent(player=who, user=user, club=club, limit=profile.LAST_SESSIONS)
    # the clubs of his club tables' lines that the visitor may read, by name: among his clubs
    played = {c.slug for c in stats.scope.clubs}
    clubs = [c for c in recent.clubs if c.slug in played]
    ranks = player_ranks(who.pk, [c.pk for c in clubs])
    lines = profile.standings(clubs, stats, ranks)
    zone = clubs[0].time_zone if clubs else "Asia/Shanghai"
    context = {
        "who": who,
        "stats": stats,
        "club": club,
        "x": x,
        "switch": profile.his_clubs(recent.clubs, club),
        "standings": lines,
        "score_chart": profile.score_chart(stats, x, zone),
        "rating_chart": profile.rating_chart(stats, x, zone),
        "pattern_chart": profile.pattern_chart(stats),
        "roots_chart": profile.roots_chart(stats),
        "biggest_name": profile.biggest_words(stats),
        "h2h_rows": widgets.h2h_rows(stats.head_to_head),
        "sessions": recent.sessions,
        "session_items": widgets.session_items(recent.sessions),
        "tables": recent.tournament_tables,
        "table_items": widgets.session_items(recent.tournament_tables, tournament=True),
        "awards": profile.awards(lines, who.pk),
        "award_clubs": profile.AWARD_CLUBS,
        "provisional_sessions": PROVISIONAL_SESSIONS,
    }
    return render_to_string("pages/players/player_main.html", context)


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's figures over the clubs the visitor may read (``?club=`` one of them), his
    charts drawn on the server (``?x=dates`` puts the dates along them), his sessions, his
    head-to-head and his awards.

    The body is kept under the page's version (``profile.page_key``: his clubs' read versions
    and his tables' data versions, so a hand at an open table shows at once, a finished one's
    figures as soon as its follow-up wrote them); a request then reads the player, whether
    the version (one query), and the cache, this process's copy first (whether the visitor may
    see him is kept with the rest)."""
    found = player_with_page_version(pk)  # the version read before the data it versions
    if found is None:
        raise Http404
    who, version = found
    club = club_for(request.user, request.GET["club"]) if request.GET.get("club") else None
    x = request.GET.get("x") if request.GET.get("x") in profile.X_AXES else "sessions"
    main = versioned(
        "player-page", version, lambda: _player_main(who, request.user, club, x),
        parts=profile.page_key(who, request.user, club, x), local=True,
    )  # fmt: skip
    if main is None:
        raise Http404
    return frame.page(request, "pages/players/player.html", {"who": who}, main, seen=(who.name,))
