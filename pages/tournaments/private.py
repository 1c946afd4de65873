"""A registered player's private page (Tabbycat's private URLs): ``/me/<key>/``, no login, the
key is the capability — his table and seat wind this round, the round clock, his results so
far, check-in; and the scorekeeper's printable slips that carry each player's link and QR code.
A lost slip is revoked by a new link.

Table cards: each table of a round gets a printed card whose QR code (``/t/<key>/``) opens that
table for its scorer — whoever holds the card records the table's hands, no login — until the
round locks, when the key is cleared for good."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.enums import Role
from core.live import tournament_channel
from pages.accounts.qr import qr_svg
from pages.base import require_role
from pages.live import follow
from pages.tables.views import CARDS
from pages.templatetags.tournament_words import wind_name
from pages.tournaments.clock import clock_shown
from pages.tournaments.views import STATUS_TEXT, tournament_for
from tournaments import selectors, services
from tournaments.enums import RegistrationStatus, TournamentStatus


@require_http_methods(["GET", "POST"])
def my_page(request: HttpRequest, key: str) -> HttpResponse:
    entry = selectors.entry_by_key(key)
    if entry is None:
        raise Http404
    tournament = entry.tournament
    may_check_in = (
        tournament.check_in
        and tournament.status != TournamentStatus.FINISHED
        and entry.status == RegistrationStatus.ACTIVE
    )
    if request.method == "POST":
        if may_check_in and not entry.checked_in:
            services.registration_update(registration=entry, checked_in=True)
            messages.success(request, _("You are checked in."))
        return redirect("page-me", key=key)
    round_, row, mates = selectors.my_seat(entry) or (None, None, [])
    clock = None
    if mates:
        clock = clock_shown(selectors.round_clock(round_), timezone.now(), row.table)
    standings = selectors.latest_standings(tournament)
    mine = next((r for r in standings.rows if r.player == entry.player_id), None)
    context = {
        "entry": entry, "tournament": tournament, "status_text": STATUS_TEXT.get(
            tournament.status, tournament.status), "round": round_, "row": row, "mates": mates,
        "clock": clock, "mine": mine, "standings": standings, "may_check_in": may_check_in,
        "zone": tournament.club.time_zone,
        "live_follow": follow(tournament_channel(tournament.pk), key=key, main=True),
    }  # fmt: skip
    return render(request, "pages/tournaments/me.html", context)


@require_safe
def table_card(request: HttpRequest, key: str) -> HttpResponse:
    """A table card's link: this browser may score that table (while the card works) and is
    sent to it."""
    table = selectors.table_by_key(key)
    if table is None:
        raise Http404
    cards = dict(request.session.get(CARDS, {}))
    cards[str(table.session_id)] = key
    request.session[CARDS] = cards
    return redirect("page-session", pk=table.session_id)


@require_safe
def table_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's table cards to print (an organiser): table, seats and winds, and the QR
    code that opens the table for its scorer until the round locks."""
    tournament = tournament_for(request, slug)
    require_role(request.user, tournament.club, Role.ORGANISER)
    round_ = selectors.seated_round(tournament, number)
    if round_ is None:
        raise Http404
    round_.tournament = tournament
    tables = services.table_cards(round_=round_)
    seats = selectors.seat_rows(round_)
    cards = []
    for table in tables:
        if not table.scorer_key:  # the round is locked: no card works any more
            continue
        url = request.build_absolute_uri(reverse("page-table-card", args=[table.scorer_key]))
        mine = [s for s in seats if s.table == table.number]
        cards.append((table, [(wind_name(s.seat), s.name) for s in mine], url, qr_svg(url)))
    context = {"tournament": tournament, "round": round_, "cards": cards, "club": tournament.club}
    return render(request, "pages/tournaments/table_cards.html", context)


@require_safe
def slips(request: HttpRequest, slug: str) -> HttpResponse:
    """Every active entry's slip to print (an organiser): name, the private link and its QR."""
    tournament = tournament_for(request, slug)
    require_role(request.user, tournament.club, Role.ORGANISER)
    services.private_keys(tournament=tournament)
    entries = selectors.check_in_list(tournament)
    rows = []
    for entry in entries:
        url = request.build_absolute_uri(reverse("page-me", args=[entry.private_key]))
        rows.append((entry, url, qr_svg(url)))
    context = {"tournament": tournament, "rows": rows, "club": tournament.club}
    return render(request, "pages/tournaments/slips.html", context)
