"""The scorekeeper's tournament pages: a new tournament from the club page, its entries and
check-in, the round desk (seat the next round, the round clock, each table's totals, the approve
gate) and the referee's penalties.

Each page runs on the services the API calls (``tournaments.services``), with the API's roles:
the club's organisers set up, seat and run the clock, its referees give penalties and approve
tables, its scorers check players in and enter results. A service's refusal is shown in the
page's language (``pages.base.ERROR_TEXT``), under the field it names where it names one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.enums import Role
from core.errors import Conflict, Invalid
from core.live import tournament_channel
from pages.base import club_for, error_messages, require_role, whole_number
from pages.clubs.forms import search_keys, slug_from_name
from pages.clubs.options import club_mode, snapshot_options
from pages.clubs.rulesets import snapshot_choice
from pages.clubs.views import apply_problems
from pages.live import follow
from pages.tournaments.clock import clock_shown
from pages.tournaments.forms import (
    REASON_TEXT,
    SUBSTITUTE_COUNTS_TEXT,
    EntryForm,
    PenaltyForm,
    RevokeForm,
    SubstituteForm,
    TableTotalsForm,
    TournamentForm,
)
from pages.tournaments.views import ROUND_STATUS_TEXT, _context, tournament_for
from tournaments import selectors, services
from tournaments.enums import RegistrationStatus, RoundStatus, SubstituteCounts, TournamentStatus
from tournaments.readmodels import TableSeats

if TYPE_CHECKING:
    from tournaments.models import Registration, Round, Substitution, Table, Tournament

#: seconds between two looks of the desk while a round is being seated
SEATING_REFRESH_SECONDS = 2
#: the clock's first offer when the tournament sets no round time
DEFAULT_ROUND_MINUTES = 90


class DeskTable(NamedTuple):
    """A table as the round desk shows it."""

    table: TableSeats
    form: TableTotalsForm
    ends: datetime | None  # its own end, when it was given time of its own
    to_approve: bool  # done, waiting for an approval
    substitutes: Sequence[Substitution]
    final: bool  # a table of the finals
    dispute: Table | None  # disputed, or a dispute resolved
    hands: int  # recorded hand by hand: its totals come from them


def _directed(request: HttpRequest, slug: str, role: str = Role.ORGANISER) -> Tournament:
    """The tournament, for a visitor with ``role`` in its club (else sign in / 403 / 404)."""
    tournament = tournament_for(request, slug)
    require_role(request.user, tournament.club, role)
    return tournament


def _on_field(*names: str):
    return lambda path: next((n for n in names if path == n or path.startswith(f"{n}[")), None)


@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new tournament of the club (an organiser): it opens for entries."""
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.ORGANISER)
    form = TournamentForm(
        request.POST or None,
        initial={"base": club.base, "ruleset": "", "mode": club_mode(club)},
        club_rules=snapshot_choice(club.ruleset), club_options=snapshot_options(club.ruleset),
    )  # fmt: skip
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        wanted = data["slug"] or selectors.free_tournament_slug(slug_from_name(data["name"]))
        try:
            tournament = services.tournament_create(
                name=data["name"], slug=wanted, user=request.user, club=club,
                ruleset=form.ruleset_spec, base=data["base"], mode=data["mode"],
                rounds=data["rounds"], hands_per_table=data["hands_per_table"],
                placement_points=data["placement_points"], seating=data["seating"],
                tiebreaks=form.tiebreaks(),
                seed=data["seed"], is_public=data["is_public"], check_in=data["check_in"],
                round_minutes=data["round_minutes"], hide_last_rounds=data["hide_last_rounds"] or 0,
                approve_gate=data["approve_gate"], bye_points=data["bye_points"],
                substitute_counts=data["substitute_counts"] or SubstituteCounts.REGISTERED,
                confirmation_rule=data["confirmation_rule"] or "",
                finals_players=data["finals_players"] or 0,
                finals_rounds=data["finals_rounds"] or 1,
                finals_carry=data["finals_carry"] != "zero", consolation=data["consolation"],
            )  # fmt: skip
        except (Conflict, Invalid) as e:
            fields = ("slug", "name", "placement_points", "hide_last_rounds", "finals_players",
                      "finals_rounds")  # fmt: skip
            apply_problems(form, e, _on_field(*fields))
        else:
            messages.success(request, _("The tournament is open for entries."))
            return redirect("page-tournament-entries", slug=tournament.slug)
    context = {"club": club, "form": form, "rules": form.club_rules}
    return render(request, "pages/tournaments/new.html", context)


@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    """The entries (an organiser): add a player of the club or a guest, withdraw, remove."""
    tournament = _directed(request, slug)
    members = club_selectors.club_players(
        tournament.club, limit=club_selectors.PLAYERS_SHOWN
    ).members
    form = EntryForm(request.POST or None, players=members)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.registration_create(tournament=tournament, **form.entry())
        except (Conflict, Invalid) as e:
            apply_problems(form, e, _on_field("name"))
        else:
            messages.success(request, _("%(name)s is entered.") % {"name": entry.player.name})
            return redirect("page-tournament-entries", slug=tournament.slug)
    context = _context(
        request, tournament, form=form, entries=selectors.entries_listed(tournament),
        finished=tournament.status == TournamentStatus.FINISHED,
    )  # fmt: skip
    return render(request, "pages/tournaments/entries.html", context)


@require_POST
def entry_change(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    """Withdraw an entry, bring it back, or remove it (never seated): one button each."""
    tournament = _directed(request, slug)
    entry = selectors.entry_of(tournament, player)
    if entry is None:
        raise Http404
    action = request.POST.get("action")
    try:
        if action == "withdraw":
            services.registration_update(registration=entry, status=RegistrationStatus.WITHDRAWN)
            messages.success(request, _("%(name)s is withdrawn.") % {"name": entry.player.name})
        elif action == "return":
            services.registration_update(registration=entry, status=RegistrationStatus.ACTIVE)
            messages.success(request, _("%(name)s plays again.") % {"name": entry.player.name})
        elif action == "new_link":
            services.private_key_renew(registration=entry)
            messages.success(request, _("%(name)s has a new private link; the old one no longer "
                                        "works.") % {"name": entry.player.name})  # fmt: skip
        elif action == "remove":
            services.registration_delete(registration=entry)
            messages.success(request, _("%(name)s is removed.") % {"name": entry.player.name})
        elif action == "edit":
            services.registration_update(registration=entry, **_entry_fields(request.POST, entry))
            messages.success(request, _("%(name)s is changed.") % {"name": entry.player.name})
        else:
            raise Http404
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    return redirect("page-tournament-entries", slug=tournament.slug)


def _entry_fields(post, entry: Registration) -> dict:
    """An entry's seed rating, pinned table and first round as the edit form sent them (empty:
    none; the first round only when it changed). A number that is not one is refused in
    words."""
    fields = {}
    for key in ("seed_rating", "pinned_table", "first_round"):
        text = post.get(key, "").strip()
        value = whole_number(text.removeprefix("-")) if text else None
        if text and value is None:
            raise Invalid.single(key, "invalid", "a whole number")
        if value is not None and text.startswith("-"):
            value = -value
        if key == "first_round":
            if value is not None and value != entry.first_round:
                fields[key] = value
        else:
            fields[key] = value
    if fields.get("pinned_table") is not None and fields["pinned_table"] < 1:
        raise Invalid.single("pinned_table", "invalid", "a table number from 1")
    return fields


def _error_text(exc: Exception) -> str:
    """A service's refusal in the page's language, as one line."""
    return " ".join(error_messages(exc))


@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Check-in on the day (签到; a scorer or organiser): tick who is here, found by 汉字 or
    pinyin. Where the tournament checks in, a round seats only them."""
    tournament = _directed(request, slug, Role.SCORER)
    if request.method == "POST":
        player = request.POST.get("player", "")
        number = int(player) if player.isascii() and player.isdigit() else 0
        entry = selectors.entry_of(tournament, number)
        if entry is None:
            raise Http404
        here = request.POST.get("here") == "1"
        try:
            services.registration_update(registration=entry, checked_in=here)
        except (Conflict, Invalid) as e:
            messages.error(request, _error_text(e))
        else:
            text = _("%(name)s is checked in.") if here else _("%(name)s is not checked in.")
            messages.success(request, text % {"name": entry.player.name})
        return redirect(f"{request.path}#entry-{entry.player_id}")
    listed = [(e, search_keys(e.player.name)) for e in selectors.check_in_list(tournament)]
    context = _context(
        request, tournament, listed=listed, checked=sum(e.checked_in for e, _keys in listed),
        finished=tournament.status == TournamentStatus.FINISHED,
    )  # fmt: skip
    return render(request, "pages/tournaments/check_in.html", context)


@require_http_methods(["GET", "POST"])
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    """The round desk (a scorer or organiser): the latest round's tables, a totals form for
    each, and the button that seats the next round (an organiser)."""
    tournament = _directed(request, slug, Role.SCORER)
    latest = selectors.latest_round(tournament)
    seated = latest is not None and latest.status == RoundStatus.SEATED
    # the totals of a table that waits for its approval are shown: they are what is approved
    detail = selectors.round_detail(latest, gate=False) if seated else None
    sent = request.POST.get("table") if request.method == "POST" else None
    forms = [
        (table, TableTotalsForm(
            request.POST if sent == str(table.number) else None, seats=table.seats,
            prefix=f"t{table.number}",
        ))
        for table in (detail.table_rows if detail else ())
    ]  # fmt: skip
    for table, form in forms:
        if form.is_bound and form.is_valid() and _totals_saved(request, latest, table, form):
            return redirect("page-tournament-desk", slug=tournament.slug)
    clock = selectors.round_clock(latest) if seated else None
    # each table with its form, its own end when it was given time of its own, and whether it
    # waits for an approval
    live = {t.number: t for t in selectors.live_tables(latest).tables} if seated else {}
    subs: dict[int, list[Substitution]] = {}
    for sub in selectors.substitutes_listed(tournament) if seated else ():
        if sub.table.round_id == latest.pk:
            subs.setdefault(sub.table.number, []).append(sub)
    first_final = tournament.first_final_round
    in_finals = seated and first_final is not None and latest.number >= first_final
    final_tables = selectors.finals_tables(tournament) if in_finals else 0
    disputes = selectors.disputes_of(latest) if seated else {}
    tables = [
        DeskTable(
            table, form, clock.ends_at(table.number) if clock and table.number in clock.table_extra
            else None, live[table.number].to_approve, subs.get(table.number, ()),
            table.number <= final_tables, disputes.get(table.number), live[table.number].hands,
        )
        for table, form in forms
    ]  # fmt: skip
    may_seat = club_selectors.has_role(request.user, tournament.club, Role.ORGANISER)
    context = _context(
        request, tournament, latest=latest, detail=detail, tables=tables,
        clock=clock_shown(clock, timezone.now()),
        round_minutes=tournament.round_minutes or DEFAULT_ROUND_MINUTES,
        may_seat=may_seat,
        may_reseat=may_seat and seated and tournament.status != TournamentStatus.FINISHED
        and not detail.tables_with_result and not selectors.round_has_results(latest),
        final_round=bool(final_tables),
        latest_status=ROUND_STATUS_TEXT.get(latest.status, latest.status) if latest else "",
        seating=latest is not None and latest.status == RoundStatus.SEATING,
        refresh=SEATING_REFRESH_SECONDS,
        next_number=(latest.number + 1) if latest else 1,
        more_rounds=(latest.number if latest else 0) < tournament.rounds,
        finished=tournament.status == TournamentStatus.FINISHED,
        checked_in=selectors.checked_in_count(tournament) if tournament.check_in else None,
        earlier=selectors.rounds_locked(tournament, before=latest.number if latest else 0),
        # the round's state and progress follow the tables; the tables' forms stay as typed
        live_follow=follow(tournament_channel(tournament.pk)),
    )  # fmt: skip
    return render(request, "pages/tournaments/desk.html", context)


def _totals_saved(request: HttpRequest, round_: Round, table, form: TableTotalsForm) -> bool:
    """Enter one table's totals; a refusal goes on its form."""
    found = selectors.round_table(round_, table.number)
    if found is None:
        raise Http404
    try:
        services.table_result_enter(table=found, scores=form.scores(), user=request.user)
    except (Conflict, Invalid) as e:
        form.add_error(None, _error_text(e))
        return False
    messages.success(request, _("Table %(n)s: the totals are saved.") % {"n": table.number})
    return True


@require_POST
def clock_change(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest round's clock (an organiser): start it, or add minutes for every table or
    one (``table``)."""
    tournament = _directed(request, slug)
    latest = selectors.latest_round(tournament)
    if latest is None:
        raise Http404
    minutes = whole_number(request.POST.get("minutes", ""))
    table = whole_number(request.POST.get("table", ""))
    try:
        if request.POST.get("action") == "start":
            services.round_clock_start(round_=latest, minutes=minutes)
            messages.success(
                request, _("The clock of round %(n)s is running.") % {"n": latest.number}
            )
        else:
            services.round_clock_extend(round_=latest, minutes=minutes or 0, table_number=table)
            text = (_("%(m)s minutes more for table %(t)s.") if table else
                    _("%(m)s minutes more for every table."))  # fmt: skip
            messages.success(request, text % {"m": minutes, "t": table})
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_POST
def table_approve(request: HttpRequest, slug: str) -> HttpResponse:
    """Approve a done table of the latest round as it is (a referee or an organiser)."""
    tournament = _directed(request, slug, Role.REFEREE)
    latest = selectors.latest_round(tournament)
    number = whole_number(request.POST.get("table", ""))
    table = selectors.round_table(latest, number or 0) if latest else None
    if table is None:
        raise Http404
    try:
        services.table_approve(table=table, user=request.user)
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("Table %(n)s is approved: it counts.") % {"n": table.number})
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_POST
def table_dispute(request: HttpRequest, slug: str) -> HttpResponse:
    """Mark a table of the latest round disputed for the referee (a scorer), or resolve the
    dispute (a referee), in words."""
    action = request.POST.get("action")
    role = Role.REFEREE if action == "resolve" else Role.SCORER
    tournament = _directed(request, slug, role)
    latest = selectors.latest_round(tournament)
    number = whole_number(request.POST.get("table", ""))
    table = selectors.round_table(latest, number or 0) if latest else None
    if table is None:
        raise Http404
    words = request.POST.get("words", "")
    try:
        if action == "resolve":
            services.table_dispute_resolve(table=table, words=words)
            messages.success(request, _("Table %(n)s: the dispute is resolved.") % {"n": number})
        else:
            services.table_dispute(table=table, words=words)
            messages.info(request, _("Table %(n)s is marked for the referee.") % {"n": number})
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_POST
def round_lock_change(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Unlock an earlier round to correct it (with a reason, kept), or lock it again (an
    organiser)."""
    tournament = _directed(request, slug)
    round_ = selectors.round_of(tournament, number)
    if round_ is None:
        raise Http404
    try:
        if request.POST.get("action") == "unlock":
            reason = request.POST.get("reason", "")
            services.round_unlock(round_=round_, reason=reason, user=request.user)
            messages.success(request, _("Round %(n)s is unlocked: correct it, then lock it again.")
                             % {"n": number})  # fmt: skip
        else:
            services.round_lock(round_=round_)
            messages.success(request, _("Round %(n)s is locked again.") % {"n": number})
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_POST
def round_seat(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat the next round (or the failed one again): the seating runs on a worker."""
    tournament = _directed(request, slug)
    try:
        round_ = services.round_start(tournament=tournament)
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    else:
        messages.info(request, _("Round %(n)s is being seated.") % {"n": round_.number})
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_POST
def round_reseat(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat the latest round again, with a reason (kept), while nothing was played at it."""
    tournament = _directed(request, slug)
    latest = selectors.latest_round(tournament)
    if latest is None:
        raise Http404
    try:
        services.round_reseat(round_=latest, reason=request.POST.get("reason", ""),
                              user=request.user)  # fmt: skip
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    else:
        messages.info(request, _("Round %(n)s is being seated again.") % {"n": latest.number})
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_http_methods(["GET", "POST"])
def table_substitute(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """替补 (an organiser): who plays a table of the round for an absent registered player,
    and the substitutes already at it (each can be undone)."""
    tournament = _directed(request, slug)
    round_ = selectors.seated_round(tournament, number)
    found = selectors.round_table(round_, table) if round_ is not None else None
    if found is None:
        raise Http404
    round_.tournament = tournament
    here = selectors.substitutes_listed(tournament, table=found)
    standing_in = {s.substitute_id for s in here}
    seats = [s for s in selectors.seat_rows(round_) if s.table == table]
    members = club_selectors.club_players(
        tournament.club, limit=club_selectors.PLAYERS_SHOWN
    ).members
    form = SubstituteForm(
        request.POST or None, seats=[s for s in seats if s.player not in standing_in],
        players=members,
    )  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            made = services.substitute_seat(
                table=found, absent_id=int(form.cleaned_data["absent"]), user=request.user,
                reason=form.cleaned_data["reason"], **form.substitute(),
            )  # fmt: skip
        except (Conflict, Invalid) as e:
            apply_problems(form, e, _on_field("absent", "name", "reason"))
        else:
            text = _("%(sub)s plays table %(t)s for %(absent)s.")
            messages.success(request, text % {
                "sub": made.substitute.name, "t": table, "absent": made.absent.name})  # fmt: skip
            return redirect("page-tournament-desk", slug=tournament.slug)
    context = _context(
        request, tournament, round=round_, table=found, form=form, here=here,
        counts=SUBSTITUTE_COUNTS_TEXT.get(tournament.substitute_counts, ""),
    )  # fmt: skip
    return render(request, "pages/tournaments/substitute.html", context)


@require_POST
def substitute_undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The registered player takes his seat back (an organiser)."""
    tournament = _directed(request, slug)
    found = selectors.substitution_of(tournament, pk)
    if found is None:
        raise Http404
    try:
        services.substitute_remove(substitution=found)
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    else:
        text = _("%(name)s has his seat back.")
        messages.success(request, text % {"name": found.absent.name})
    return redirect("page-tournament-desk", slug=tournament.slug)


@require_http_methods(["GET", "POST"])
def penalties(request: HttpRequest, slug: str) -> HttpResponse:
    """The referee's penalties (罚分): give one, see every one given and revoked."""
    tournament = _directed(request, slug, Role.REFEREE)
    seated = selectors.seated_round_count(tournament)
    entries = selectors.check_in_list(tournament)
    form = PenaltyForm(request.POST or None, entries=entries, rounds=seated)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.penalty_give(
                tournament=tournament, player_id=int(data["player"]), points=data["points"],
                reason=data["reason"], words=data["words"], round_number=data["round"],
                user=request.user,
            )  # fmt: skip
        except (Conflict, Invalid) as e:
            apply_problems(form, e, _on_field("player", "points", "reason", "round", "words"))
        else:
            text = _("%(name)s: %(points)s placement points off.")
            messages.success(
                request, text % {"name": penalty.player.name, "points": penalty.points}
            )
            return redirect("page-tournament-penalties", slug=tournament.slug)
    context = _context(
        request, tournament, form=form,
        penalties=[(p, REASON_TEXT.get(p.reason, p.reason))
                   for p in selectors.penalties_listed(tournament)],  # fmt: skip
        finished=tournament.status == TournamentStatus.FINISHED,
    )  # fmt: skip
    return render(request, "pages/tournaments/penalties.html", context)


@require_POST
def penalty_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke a penalty, with the reason typed beside its button."""
    tournament = _directed(request, slug, Role.REFEREE)
    penalty = selectors.penalty_of(tournament, pk)
    if penalty is None:
        raise Http404
    form = RevokeForm(request.POST)
    try:
        if not form.is_valid():
            raise Invalid.single("reason", "reason_required", "say why the penalty is revoked")
        services.penalty_revoke(penalty=penalty, reason=form.cleaned_data["reason"],
                                user=request.user)  # fmt: skip
    except (Conflict, Invalid) as e:
        messages.error(request, _error_text(e))
    else:
        text = _("The penalty of %(name)s is revoked.")
        messages.success(request, text % {"name": penalty.player.name})
    return redirect("page-tournament-penalties", slug=tournament.slug)
