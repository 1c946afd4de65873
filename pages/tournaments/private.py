"""A registered player's private page (Tabbycat's private URLs): ``/me/<key>/``, no login, the
key is the capability — his table and seat wind this round, the round clock, his results so
far, check-in; and the scorekeeper's printable slips that carry each player's link and QR code.
A lost slip is revoked by a new link."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Role
from pages.accounts.qr import qr_svg
from pages.base import require_role
from pages.tournaments.clock import clock_shown
from pages.tournaments.views import STATUS_TEXT, tournament_for
from tournaments import selectors, services
from tournaments.models import Registration, Tournament


@require_http_methods(["GET", "POST"])
def my_page(request: HttpRequest, key: str) -> HttpResponse:
    entry = selectors.entry_by_key(key)
    if entry is None:
        raise Http404
    tournament = entry.tournament
    may_check_in = (
        tournament.check_in
        and tournament.status != Tournament.Status.FINISHED
        and entry.status == Registration.Status.ACTIVE
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
    }  # fmt: skip
    return render(request, "pages/tournaments/me.html", context)


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
