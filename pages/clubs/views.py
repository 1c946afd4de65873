"""Home, a new club, the club page, its players, opening a table and the evening's 结算.

Reads go through ``clubs.selectors``, writes through ``clubs.services``; a service's refusal
becomes a message on the form, under the field it names where there is one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs import selectors
from clubs.enums import Role, SessionStatus
from clubs.services import clubs as club_services
from clubs.services import sessions as session_services
from core.errors import Conflict, Invalid
from core.http import service_error_items
from core.live import club_channel
from pages.base import ERROR_TEXT, club_for, day_or_404, require_role
from pages.clubs.forms import ClubForm, ClubRulesForm, PlayerForm, TableForm, slug_from_name
from pages.clubs.options import club_mode, snapshot_options
from pages.clubs.rulesets import snapshot_choice
from pages.live import follow
from scoring.services import same_rules
from tournaments import selectors as tournament_selectors

#: sessions the club page lists under "recent"
RECENT_SESSIONS = 10


def apply_problems(form: forms.Form, exc: Exception, field_for: Callable[[str], str | None]):
    """A service's refusal onto a form: each problem under the field its path names, else on
    the form as a whole; the text is ``ERROR_TEXT``'s for its code, else the service's."""
    for item in service_error_items(exc):
        text = str(ERROR_TEXT.get(item["code"], item["message"]))
        name = field_for(item["path"])
        form.add_error(name if name in form.fields else None, text)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The clubs you belong to (with your role), then the public clubs; sign in / sign up."""
    context = {
        "clubs": selectors.home_clubs(request.user),
        "tournaments": tournament_selectors.tournaments_listed(request.user),
    }
    return render(request, "pages/clubs/home.html", context)


@require_http_methods(["GET", "POST"])
def club_new(request: HttpRequest) -> HttpResponse:
    """Create a club: you become its owner."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        slug = data["slug"] or selectors.free_club_slug(slug_from_name(data["name"]))
        try:
            club = club_services.club_create(
                name=data["name"],
                slug=slug,
                user=request.user,
                visibility=data["visibility"],
                ruleset=form.ruleset_spec,
                base=data["base"],
                time_zone=data["time_zone"],
                unit_label=data["unit_label"],
            )
        except (Conflict, Invalid) as e:
            apply_problems(form, e, lambda path: "slug" if path in ("", "slug") else path)
        else:
            messages.success(request, _("The club %(name)s is open.") % {"name": club.name})
            return redirect("page-club", slug=club.slug)
    return render(request, "pages/clubs/club_new.html", {"form": form})


@require_http_methods(["GET", "POST"])
def club_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """Change the club's rules (an organiser): the preset and some of its options. New tables
    play them; a table already open, and every hand recorded, keeps the rules it had."""
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.ORGANISER)
    options = snapshot_options(club.ruleset)
    form = ClubRulesForm(
        request.POST or None, initial={"ruleset": club.ruleset.preset}, club_options=options
    )
    if request.method == "POST" and form.is_valid():
        try:
            if same_rules(form.ruleset_spec, club.ruleset):
                messages.info(request, _("The club's rules are unchanged."))
            else:
                club_services.club_update(club=club, ruleset=form.ruleset_spec)
                messages.success(request, _(
                    "The club's rules are changed: new tables play them; tables already open "
                    "keep theirs."
                ))  # fmt: skip
        except (Conflict, Invalid) as e:
            apply_problems(form, e, lambda path: None)
        else:
            return redirect("page-club", slug=club.slug)
    context = {"club": club, "form": form, "rules": snapshot_choice(club.ruleset)}
    return render(request, "pages/clubs/club_rules.html", context)


def _role(request: HttpRequest, club) -> str | None:
    if request.user.is_authenticated and request.user.is_superuser:
        return Role.OWNER
    m = selectors.membership_of(request.user, club)
    return m.role if m else None


@require_safe
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Today's open tables, recent sessions, members, links to the players and the 结算."""
    club = club_for(request.user, slug)
    today = selectors.club_today(club)
    open_today = selectors.club_tables(club, day=today, status=SessionStatus.OPEN)
    recent = selectors.club_tables(
        club, exclude=[t.session.pk for t in open_today], limit=RECENT_SESSIONS
    )
    role = _role(request, club)
    context = {
        "club": club,
        "today": today,
        "open_today": open_today,
        "recent": recent,
        "role": role,
        "members": selectors.members_summary(club) if role else None,
        "rules": snapshot_choice(club.ruleset),
        "can_open": selectors.has_role(request.user, club, Role.SCORER),
        "can_add_players": selectors.has_role(request.user, club, Role.ORGANISER),
        "can_change_rules": selectors.has_role(request.user, club, Role.ORGANISER),
        "tournaments": tournament_selectors.tournaments_listed(request.user, club),
        "live_follow": follow(club_channel(club.pk)),
    }
    return render(request, "pages/clubs/club.html", context)


@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players, searched by 汉字 or pinyin; organisers add a player."""
    club = club_for(request.user, slug)
    can_add = selectors.has_role(request.user, club, Role.ORGANISER)
    form = PlayerForm(request.POST or None)
    if request.method == "POST":
        require_role(request.user, club, Role.ORGANISER)
        if form.is_valid():
            try:
                m = club_services.player_create(club=club, **form.cleaned_data)
            except (Conflict, Invalid) as e:
                apply_problems(form, e, lambda path: path)
            else:
                messages.success(request, _("%(name)s joined the club.") % {"name": m.name})
                return redirect("page-club-players", slug=club.slug)
    query = request.GET.get("q", "").strip()[: selectors.QUERY_MAX]
    found = selectors.club_players(club, query)
    context = {"club": club, "form": form, "can_add": can_add, "q": query, "found": found}
    return render(request, "pages/clubs/players.html", context)


_PLAYER_PATH = re.compile(r"^players\[(\d)\]")
_BETTOR_PATH = re.compile(r"^bettors\[(\d+)\](\.player)?")


@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Open a table: four players in seat order, base, mode, rules and 叫马 bettors."""
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.SCORER)
    members = selectors.club_players(club, limit=selectors.PLAYERS_SHOWN).members
    rules = snapshot_choice(club.ruleset)
    initial = {
        "base": club.base,
        "mode": club_mode(club),
        "ruleset": "",
    }
    form = TableForm(
        request.POST or None, initial=initial, players=members, club_rules=rules,
        club_options=snapshot_options(club.ruleset),
    )  # fmt: skip
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        bettors, rows = form.bettors()

        def field_for(path: str) -> str | None:
            if m := _PLAYER_PATH.match(path):
                return f"seat_{m[1]}"
            if m := _BETTOR_PATH.match(path):
                i = int(m[1])
                if i < len(rows):
                    b = bettors[i]
                    return f"bettor_{'player' if 'player' in b else 'guest'}_{rows[i]}"
            return None

        try:
            session = session_services.session_create(
                club=club,
                players=form.players(),
                user=request.user,
                bettors=bettors,
                ruleset=form.ruleset_spec,
                base=data["base"],
                mode=data["mode"],
            )
        except (Conflict, Invalid) as e:
            apply_problems(form, e, field_for)
        else:
            messages.success(request, _("The table is open."))
            return redirect("page-session", pk=session.pk)
    context = {"club": club, "form": form, "rules": rules, "members": members}
    return render(request, "pages/clubs/table_new.html", context)


@require_safe
def evening(request: HttpRequest, slug: str, day: str) -> HttpResponse:
    """The evening's 结算: each person's net over the day's club tables, and who pays whom."""
    club = club_for(request.user, slug)
    when = day_or_404(day)
    context = {
        "club": club,
        "evening": selectors.evening(club, when),
        "previous": when - timedelta(days=1),
        "next": when + timedelta(days=1),
        "today": selectors.club_today(club),
        "card_label": _("Settling up (结算), %(day)s") % {"day": when.isoformat()}
        + f" · {club.name}",
    }
    return render(request, "pages/clubs/evening.html", context)
