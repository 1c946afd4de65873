"""The club's members page: who is in the club with which role; organisers manage them there.

Who sees what:

- a members-only club does not exist for anyone outside it (404);
- on a public club anyone, signed in or not, sees the names and roles (as the public players
  list of the API shows them), read-only;
- members also see whether each member has a login;
- organisers (and owners) change roles, remove members, create invitations (a link and its QR
  code), see and revoke the open links, and issue password-reset links. Only an owner makes,
  changes or removes an owner, and the last owner stays (``clubs.services.clubs``).

Every write is a POST form (CSRF-checked) answered by a redirect back to this page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors
from clubs.enums import ROLE_RANK, InvitationKind, Role
from clubs.services import clubs as club_services
from clubs.services import invitations as services
from core.errors import ServiceError
from pages.accounts.forms import InvitationForm, RoleForm
from pages.accounts.qr import qr_svg
from pages.base import ROLE_TEXT, club_for, error_messages, require_role

if TYPE_CHECKING:
    from clubs.models import Club, Invitation, Membership

INVITED = [(r, ROLE_TEXT[r]) for r in services.INVITED_ROLES]


def _roles_for(user, club: Club) -> list[tuple[str, str]]:
    """The roles this organiser may give: an owner only by an owner."""
    roles = [Role.MEMBER, Role.SCORER, Role.REFEREE, Role.ORGANISER]
    if selectors.has_role(user, club, Role.OWNER):
        roles.append(Role.OWNER)
    return [(r, ROLE_TEXT[r]) for r in roles]


def link_url(request: HttpRequest, inv: Invitation) -> str:
    return request.build_absolute_uri(reverse("page-invitation", args=[inv.token]))


def _members_url(club: Club, anchor: str = "") -> str:
    url = reverse("page-club-members", args=[club.slug])
    return f"{url}#{anchor}" if anchor else url


@require_GET
def members(request: HttpRequest, slug: str) -> HttpResponse:
    user = request.user
    club = club_for(user, slug)
    mine = selectors.membership_of(user, club)
    is_member = selectors.has_role(user, club, Role.MEMBER)
    organiser = selectors.has_role(user, club, Role.ORGANISER)
    owner = selectors.has_role(user, club, Role.OWNER)
    my_rank = (
        99 if user.is_authenticated and user.is_superuser else (ROLE_RANK[mine.role] if mine else 0)
    )
    rows = []
    for m in selectors.members_of(club):
        may_edit = organiser and (m.role != Role.OWNER or owner)
        rows.append(
            {
                "m": m,
                "role_text": ROLE_TEXT[m.role],
                "has_login": m.player.user_id is not None,
                "is_me": mine is not None and m.pk == mine.pk,
                "may_edit": may_edit,
                # the service checks the whole rule (every club he is in) when it is asked
                "may_reset": may_edit
                and m.player.user_id is not None
                and m.player.user_id != user.pk
                and ROLE_RANK[m.role] < my_rank,
            }
        )
    context = {
        "club": club,
        "rows": rows,
        "me": mine,
        "my_role": ROLE_TEXT[mine.role] if mine else None,
        "is_member": is_member,
        "organiser": organiser,
        "roles": _roles_for(user, club) if organiser else [],
    }
    if organiser:
        without_login = [r["m"] for r in rows if not r["has_login"]]
        context["invite_form"] = InvitationForm(
            players=without_login, roles=INVITED, initial={"role": Role.SCORER}
        )
        links = []
        for inv in selectors.open_invitations(club, user):
            url = link_url(request, inv)
            links.append(
                {
                    "inv": inv,
                    "url": url,
                    "qr": qr_svg(url),
                    "role_text": ROLE_TEXT.get(inv.role, ""),
                    "is_reset": inv.kind == InvitationKind.RESET,
                }
            )
        context["links"] = links
    return render(request, "pages/accounts/members.html", context)


def _organiser_club(request: HttpRequest, slug: str) -> Club:
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.ORGANISER)
    return club


def _membership(club: Club, pk: int) -> Membership:
    m = selectors.member_of(club, pk)
    if m is None:
        raise Http404
    return m


def _owner_guard(request: HttpRequest, club: Club, *roles: str) -> None:
    """Only an owner makes, changes or removes an owner (as the API: ``clubs.api.clubs``)."""
    if Role.OWNER in roles:
        require_role(request.user, club, Role.OWNER)


def _refused(request: HttpRequest, exc: ServiceError) -> None:
    for line in error_messages(exc):
        messages.error(request, line)


@require_POST
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _organiser_club(request, slug)
    m = _membership(club, pk)
    form = RoleForm(request.POST, roles=_roles_for(request.user, club))
    if not form.is_valid():
        _owner_guard(request, club, m.role, request.POST.get("role", ""))
        messages.error(request, _("Choose a role."))
        return redirect(_members_url(club))
    role = form.cleaned_data["role"]
    _owner_guard(request, club, m.role, role)
    try:
        club_services.membership_update(membership=m, role=role)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request, _("%(name)s is now %(role)s.") % {"name": m.name, "role": ROLE_TEXT[role]}
        )
    return redirect(_members_url(club, f"member-{m.pk}"))


@require_POST
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _organiser_club(request, slug)
    m = _membership(club, pk)
    _owner_guard(request, club, m.role)
    try:
        club_services.membership_delete(membership=m)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(name)s is no longer a member.") % {"name": m.name})
    return redirect(_members_url(club))


@require_POST
def member_reset(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _organiser_club(request, slug)
    m = _membership(club, pk)
    try:
        inv = services.reset_link_create(membership=m, by=request.user)
    except ServiceError as exc:
        _refused(request, exc)
        return redirect(_members_url(club))
    messages.success(
        request,
        _(
            "A password-reset link for %(name)s is ready below: show him the QR code or send "
            "him the link."
        )
        % {"name": m.name},
    )
    return redirect(_members_url(club, f"link-{inv.pk}"))


@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organiser_club(request, slug)
    without_login = list(selectors.players_without_login(club))
    form = InvitationForm(request.POST, players=without_login, roles=INVITED)
    if not form.is_valid():
        messages.error(request, _("Choose a role and, if you like, one of the players listed."))
        return redirect(_members_url(club))
    player_id = form.cleaned_data["player"]
    player = next((m.player for m in without_login if str(m.player_id) == player_id), None)
    try:
        inv = services.invitation_create(
            club=club, by=request.user, role=form.cleaned_data["role"], player=player
        )
    except ServiceError as exc:
        _refused(request, exc)
        return redirect(_members_url(club))
    messages.success(
        request,
        _("The invitation is ready below: show the QR code or send the link. It works once."),
    )
    return redirect(_members_url(club, f"link-{inv.pk}"))


@require_POST
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _organiser_club(request, slug)
    inv = selectors.invitation_of(club, pk)
    if inv is None:
        raise Http404
    try:
        services.invitation_revoke(invitation=inv)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("The link was revoked: it no longer opens."))
    return redirect(_members_url(club))
