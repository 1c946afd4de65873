"""The club ranking (排行榜) and a player's page (战绩).

Both read through selectors only: the ranking is ``ratings.ranking.club_ranking`` (the API's
ranking, so the page, its JSON and its CSV agree), the player's page
``ratings.stats.player_stats`` and the selectors ``pages.players.profile`` names. A club the
visitor may not read is 404, and so is a player he may see nothing of.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from clubs import selectors
from pages.base import club_for
from pages.players import profile, widgets
from pages.players.ranking import COLUMNS, PERIODS, headings, page_query, ranking_rows
from ratings.models import PROVISIONAL_SESSIONS
from ratings.ranking import club_ranking, player_ranks
from ratings.stats import player_stats


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
        "csv_url": reverse("club-ranking", args=[club.slug]) + "?" + page.api_params(),
    }
    if page.query is None:
        return render(request, "pages/players/ranking.html", context, status=400)
    q = page.query
    context["ranking"] = club_ranking(
        club, q.period, min_sessions=q.min_sessions, sort=q.sort, descending=q.descending
    )
    context["rows"] = ranking_rows(context["ranking"])
    return render(request, "pages/players/ranking.html", context)


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's figures over the clubs the visitor may read (``?club=`` one of them), his
    charts drawn on the server (``?x=dates`` puts the dates along them), his sessions, his
    head-to-head and his awards."""
    who = selectors.player_by_id(pk)
    if who is None:
        raise Http404
    club = club_for(request.user, request.GET["club"]) if request.GET.get("club") else None
    stats = player_stats(who, request.user, club=club)
    if stats is None:
        raise Http404
    x = request.GET.get("x") if request.GET.get("x") in profile.X_AXES else "sessions"
    recent = selectors.player_recent(
        player=who, user=request.user, club=club, limit=profile.LAST_SESSIONS
    )
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
    return render(request, "pages/players/player.html", context)
