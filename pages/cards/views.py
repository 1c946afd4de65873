"""Share cards (战绩图): an evening's 结算, a hand, a player's season and a tournament's standings,
each as an SVG and as a PNG image (``card.svg`` / ``card.png``).

``/clubs/<slug>/evenings/<yyyy-mm-dd>/card.*`` reads ``clubs.selectors.evening`` (what the
evening page shows); ``/sessions/<id>/hands/<n>/card.*`` the hand as its page says it;
``/players/<id>/card.*`` reads ``ratings.stats.player_stats`` over the visitor's view
(``?year=`` the season, this year by default, or ``all``; ``?club=`` one club's tables);
``/tournaments/<slug>/card.*`` the standings the visitor may see (hidden rounds stay hidden).
Who may not read the club, the tournament or the player gets a 404, as for the pages. Each
card carries a QR code of its page. The layout is ``pages.cards.layout``, the PNG
``pages.cards.png``.
"""

from __future__ import annotations

from datetime import date

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import selectors
from pages.accounts.qr import qr_svg_sized
from pages.base import club_for, day_or_404, whole_number
from pages.cards.layout import Card, evening_card, hand_card, player_card, standings_card
from pages.cards.png import png_of
from pages.tables.views import _hand_or_404, _names, _win_words, table_view
from pages.tournaments.views import standings_of, tournament_for
from pages.words import words_of_view
from ratings.periods import Period
from ratings.stats import player_stats
from tournaments.serializers import fraction_text

#: the seasons a card may be asked for
YEARS = (1900, 9998)
#: the QR code's side in the card's title band
QR_SIZE = 180


def card_response(card: Card, url: str, filename: str, fmt: str) -> HttpResponse:
    """The card as ``fmt`` (svg or png), with a QR code of ``url``."""
    card.qr = qr_svg_sized(url, QR_SIZE)
    body = render_to_string("pages/cards/card.svg", {"card": card, "language": get_language()})
    if fmt == "png":
        response = HttpResponse(png_of(body), content_type="image/png")
    else:
        response = HttpResponse(body, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}.{fmt}"'
    # an image, opened on its own too: nothing in it may run or load
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def evening_card_view(request: HttpRequest, slug: str, day: str, fmt: str) -> HttpResponse:
    club = club_for(request.user, slug)
    when = day_or_404(day)
    evening = selectors.evening(club, when)
    url = request.build_absolute_uri(reverse("page-club-evening", args=[club.slug, day]))
    return card_response(evening_card(club, evening, url), url,
                         f"xuezhan-{club.slug}-{day}", fmt)  # fmt: skip


@require_safe
def player_card_view(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
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
    url = request.build_absolute_uri(reverse("page-player", args=[player.pk]))
    card = player_card(stats, year, club, url)
    return card_response(card, url, f"xuezhan-player-{player.pk}-{year or 'all'}", fmt)


@table_view(read=None, methods=("GET",))
def hand_card_view(request: HttpRequest, session, number: int, fmt: str) -> HttpResponse:
    hand = _hand_or_404(session, number)
    if hand.is_deleted:
        raise Http404
    sheet = selectors.table_sheet(session)
    row = next(r for r in sheet.rows if r.hand.pk == hand.pk)
    names = {s.number: s.player.name for s in sheet.seats}
    said = words_of_view(selectors.hand_view(hand), seats=names)
    nets = [(s.player.name, net) for s, net in zip(sheet.seats, row.nets, strict=True)]
    title = _("Hand %(n)s") % {"n": hand.number}
    subtitle = f"{timezone.localdate(session.started_at).isoformat()} · {session.club.name}"
    url = request.build_absolute_uri(reverse("page-hand", args=[session.pk, hand.number]))
    card = hand_card(title, subtitle, _win_words(sheet, row, *_names(sheet)), nets,
                     [s.text for s in said.sentences], not row.verified, url)  # fmt: skip
    return card_response(card, url, f"xuezhan-hand-{session.pk}-{hand.number}", fmt)


@require_safe
def tournament_card_view(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    table = standings_of(tournament, rounds=False).table
    if tournament.status == tournament.Status.FINISHED and table.hidden_after is None:
        subtitle = _("Final standings")
    else:
        done = table.hidden_after if table.hidden_after is not None else table.rounds_complete
        subtitle = _("Standings after round %(n)s") % {"n": done}
    rows = [(r.rank, r.name, fraction_text(r.placement_points), r.final_points is not None)
            for r in table.rows]  # fmt: skip
    url = request.build_absolute_uri(reverse("page-tournament-standings", args=[slug]))
    card = standings_card(tournament.name, subtitle, rows, url)
    return card_response(card, url, f"xuezhan-{slug}-standings", fmt)
