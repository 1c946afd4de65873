"""The club ranking (排行榜) and a player's page (战绩).

Both read through selectors only: the ranking is ``ratings.ranking.club_ranking`` (the API's
ranking, so the page, its JSON and its CSV agree), the player's page
``ratings.stats.player_stats`` and the selectors ``pages.players.profile`` names. A club the
visitor may not read is 404, and so is a player he may see nothing of.
"""

from __future__ import annotations

from dataclasses import replace

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from clubs import selectors
from core.readcache import versioned
from pages.base import club_for
from pages.players import profile, widgets
from pages.players.ranking import (
    COLUMNS,
    PAGE_SIZE,
    PERIODS,
    headings,
    page_problem,
    page_query,
    pages_of,
    ranking_rows,
)
from ratings.models import PROVISIONAL_SESSIONS
from ratings.ranking import club_ranking_read, player_ranks
from ratings.stats import player_stats, player_visible


@require_safe
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's ranking of a period as a table: sortable by its headings' links, filtered by
    period and fewest sessions; a bad query says what is wrong in words (400)."""
    club = club_for(request.user, slug)
    today = selectors.club_today(club)
    page = page_query(request.GET, club.time_zone, today)
    context = {
        "club": club,
        "page": page,
        "periods": [
            (key, label, page.link(period=key)) for key, label in PERIODS.items() if key != "custom"
        ],  # fmt: skip
        "period_choices": list(PERIODS.items()),
        "headings": headings(page),
        "columns": len(COLUMNS),
        "provisional_sessions": PROVISIONAL_SESSIONS,
        "ranking": None,
        "page_size": PAGE_SIZE,
        "csv_url": reverse("club-ranking", args=[club.slug]) + "?" + page.api_params(),
    }
    if page.query is None:
        return render(request, "pages/players/ranking.html", context, status=400)
    ranking = club_ranking_read(club, page.query)  # kept under the club's read version
    pages = pages_of(page, len(ranking.rows))
    if pages is None:  # past the last page: said in words, as any bad query
        last = pages_of(replace(page, number=1), len(ranking.rows)).last
        context["page"] = replace(page, problems=(page_problem(last),))
        return render(request, "pages/players/ranking.html", context, status=400)
    context |= {
        "ranking": ranking,
        "pages": pages,
        "rows": ranking_rows(ranking, pages.first_row, pages.rows),
    }
    return render(request, "pages/players/ranking.html", context)


def _player_main(who, user, club, x: str) -> str | None:
    """The page's body (all but its frame) as HTML: what is kept under the page's version."""
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
    the visitor may see him, that version, and the cache."""
    who = selectors.player_by_id(pk)
    if who is None:
        raise Http404
    club = club_for(request.user, request.GET["club"]) if request.GET.get("club") else None
    if not player_visible(who, request.user):
        raise Http404
    x = request.GET.get("x") if request.GET.get("x") in profile.X_AXES else "sessions"
    version, parts = profile.page_key(who, request.user, club, x)
    main = versioned(
        "player-page", version, lambda: _player_main(who, request.user, club, x), parts=parts
    )
    if main is None:
        raise Http404
    return render(request, "pages/players/player.html", {"who": who, "main": mark_safe(main)})  # noqa: S308 - rendered by our template, its values escaped
