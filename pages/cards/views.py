"""Share cards (战绩图): an evening's 结算 and a player's season as an SVG image.

``/clubs/<slug>/evenings/<yyyy-mm-dd>/card.svg`` reads ``clubs.selectors.evening`` (what the
evening page shows); ``/players/<id>/card.svg`` reads ``ratings.stats.player_stats`` over the
visitor's view (``?year=`` the season, this year by default, or ``all``; ``?club=`` one club's
tables). Who may not read the club, or see the player, gets a 404, as for the pages. The
layout is ``pages.cards.layout``; why SVG and not PNG is written there.
"""

from __future__ import annotations

from datetime import date

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from clubs import selectors
from pages.base import club_for, day_or_404, whole_number
from pages.cards.layout import Card, evening_card, player_card
from ratings.periods import Period
from ratings.stats import player_stats

#: the seasons a card may be asked for
YEARS = (1900, 9998)


def svg_response(card: Card, filename: str) -> HttpResponse:
    body = render_to_string("pages/cards/card.svg", {"card": card, "language": get_language()})
    response = HttpResponse(body, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    # an image, opened on its own too: nothing in it may run or load
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def evening_card_svg(request: HttpRequest, slug: str, day: str) -> HttpResponse:
    club = club_for(request.user, slug)
    when = day_or_404(day)
    evening = selectors.evening(club, when)
    url = request.build_absolute_uri(reverse("page-club-evening", args=[club.slug, day]))
    return svg_response(evening_card(club, evening, url), f"xuezhan-{club.slug}-{day}.svg")


@require_safe
def player_card_svg(request: HttpRequest, pk: int) -> HttpResponse:
    player = selectors.player_by_id(pk)
    if player is None:
        raise Http404
    club = None
    if request.GET.get("club"):
        club = club_for(request.user, request.GET["club"])
    asked = request.GET.get("year", "")
    if asked == "all":
        year, period = None, Period()
    else:
        # digits name a year (too many of them: none); anything else is this year
        year = whole_number(asked) if asked.isdigit() else timezone.localdate().year
        if year is None or not YEARS[0] <= year <= YEARS[1]:
            raise Http404
        period = Period(date(year, 1, 1), date(year, 12, 31))
    stats = player_stats(player, request.user, club=club, period=period)
    if stats is None:
        raise Http404
    card = player_card(stats, year, club, request.build_absolute_uri("/"))
    return svg_response(card, f"xuezhan-player-{player.pk}-{year or 'all'}.svg")
