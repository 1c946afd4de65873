"""Confirming and disputing a hand on one's own phone (issue 24 §2), and the organiser's or
referee's list of the hands that wait or are disputed, with the ruling on them.

Who confirms: a player seated at the table, signed in with the login his player is linked to
(his seat), or whoever follows the table by its players' link (he says which seat he is: a
club trusts the four at its table). The table page and the hand page show each hand's
payments in words and where it stands; the forms post here. Reads through
``clubs.selectors``, writes through ``clubs.services``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors
from clubs.confirming import HandStanding
from clubs.enums import ConfirmationRule, ConfirmationVerdict, Role
from clubs.services import clubs as club_services
from clubs.services import confirmations as confirmation_services
from clubs.services import hands as hand_services
from core.errors import ServiceError
from pages.base import club_for, error_messages, require_role
from pages.words import words_of_view

if TYPE_CHECKING:
    from clubs.models import Hand, TableSession

WINDS = (gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"), gettext_lazy("North"))
RULES = {
    ConfirmationRule.SHOWN: gettext_lazy(
        "Confirmations are shown only: every hand counts as soon as it is saved."
    ),
    ConfirmationRule.THREE: gettext_lazy(
        "A hand counts once the three other players confirmed it (Bridgemate's rule)."
    ),
    ConfirmationRule.TWO: gettext_lazy("A hand counts once two of the other players confirmed it."),
}
VERDICTS = {
    ConfirmationVerdict.CONFIRM: gettext_lazy("confirmed"),
    ConfirmationVerdict.DISPUTE: gettext_lazy("disputed"),
    ConfirmationVerdict.RULING: gettext_lazy("ruled by the organiser"),
}
ACTIONS = {
    "created": gettext_lazy("recorded"),
    "corrected": gettext_lazy("corrected"),
    "deleted": gettext_lazy("deleted"),
}
#: where a browser that follows a table by its link keeps the seat its holder said he is
SEATS = "table_seats"


def state_words(found: HandStanding) -> str:
    """Where a hand stands, in a few words (the table page's sheet and lists)."""
    if found.is_disputed:
        return _("Disputed: not in the totals") if found.held else _("Disputed")
    if found.held:
        return ngettext(
            "Waiting for %(n)s confirmation",
            "Waiting for %(n)s confirmations",
            found.waiting,
        ) % {"n": found.waiting}
    return ""


def _who(seats) -> dict[int, str]:
    return {s.number: f"{WINDS[s.number]} {s.player.name}" for s in seats}


def _seat_of(seats, user) -> int | None:
    """The seat of the player linked to the login among ``seats`` (as ``selectors.seat_of``)."""
    if user is None or not user.is_authenticated:
        return None
    return next((s.number for s in seats if s.player.user_id == user.pk), None)


def hand_box(
    request: HttpRequest, session: TableSession, hand: Hand, found: HandStanding | None
) -> dict[str, Any] | None:
    """What a hand's confirmation box shows: where it stands, each seat's word, and the form
    for the visitor when he may give his (None: a deleted hand)."""
    if found is None or hand.is_deleted:
        return None
    seats = list(session.seats.all())
    box = _box_shown(session, hand, found, seats)
    box["form"] = box_form(request, session, found, seats)
    return box


class BoxHand(NamedTuple):
    """The hand a box on the table page is about, as the page names it (kept in the cache:
    no model instance)."""

    pk: int
    number: int


def _box_shown(
    session: TableSession, hand: Hand | BoxHand, found: HandStanding, seated
) -> dict[str, Any]:
    """A confirmation box as every visitor sees it: all but the visitor's own form
    (``seated``: the table's seats)."""
    said = dict(found.disputed)
    seats = []
    for number, name in _who(seated).items():
        if number == found.entry_seat:
            word = _("entered it")
        elif number in found.confirmed:
            word = _("confirmed")
        elif number in said:
            word = _("disputed: %(words)s") % {"words": said[number]}
        else:
            word = _("not yet")
        css = "confirmed" if number in found.confirmed or number == found.entry_seat else ""
        seats.append({"name": name, "word": word, "css": "disputed" if number in said else css})
    return {
        "hand": hand,
        "standing": found,
        "state": state_words(found),
        "rule": rule_words(session),
        "seats": seats,
        "form": None,
        "action": reverse("page-hand-confirm", args=[session.pk, hand.number]),
        "ruling": found.ruling if found.ruled else "",
    }


def box_form(
    request: HttpRequest, session: TableSession, found: HandStanding, seats
) -> dict | None:
    """The visitor's form in a hand's box: his seat's, or the seat chosen by whoever follows
    the table by its players' link (None: he has nothing to say on it); ``seats``: the
    table's."""
    if not session.is_open or session.lock_code:
        return None
    names = _who(seats)
    mine = _seat_of(seats, request.user)
    if mine is not None and found.asks(mine):
        return {"seat": mine, "name": names[mine], "choose": False}
    if mine is None and _follows(request, session):
        chosen = request.session.get(SEATS, {}).get(str(session.pk))
        choices = [(n, name) for n, name in names.items() if found.asks(n)]
        return {"choose": True, "choices": choices, "chosen": chosen}
    return None


def rule_words(session: TableSession) -> str:
    return str(RULES.get(selectors.confirmation_rule_of(session), ""))


#: the browser session's key of the tables it follows by their players' links (the table page's
#: own, ``pages.tables.views.FOLLOWED``: this module is imported by that one)
FOLLOWED = "followed_tables"


def _follows(request: HttpRequest, session: TableSession) -> bool:
    """The visitor opened this table with its players' link, and the table is still open (as
    ``pages.tables.views.follows_table``)."""
    key = request.session.get(FOLLOWED, {}).get(str(session.pk))
    return key is not None and key == session.guest_key and session.is_open


def table_confirmations(session: TableSession, sheet: selectors.TableSheet) -> dict[str, Any]:
    """The table page's part as every visitor sees it (kept with the sheet: the visitor's own
    forms are :func:`with_forms`'): each live hand's state for the 流水 sheet (by hand id), the
    hands held out of the totals, and the boxes of the latest hand and of every hand still
    waiting or disputed (newest first, at most six), with their payments in words. Its queries
    do not grow with the hands: the standings (two), the boxes' hands and their payments."""
    standings = selectors.session_standings(session)
    states = {pk: state_words(found) for pk, found in standings.items()}
    live = [r for r in sheet.rows if not r.hand.is_deleted]
    shown = [r for r in live if (f := standings.get(r.hand.pk)) and (f.held or f.is_disputed)]
    if live and live[-1] not in shown:
        shown.append(live[-1])
    names = {s.number: s.player.name for s in sheet.seats}
    boxed = [r.hand.pk for r in sorted(shown, key=lambda r: -r.hand.number)[:BOXES]]
    # their payments in one read, whatever the number of boxes
    hands = selectors.hands_by_id(session, boxed)
    boxes = []
    for pk in boxed:
        hand = hands[pk]
        box = _box_shown(session, BoxHand(hand.pk, hand.number), standings[hand.pk], sheet.seats)
        box["words"] = words_of_view(selectors.hand_view(hand), seats=names)
        # drawn once with the rest of the parts (the same for every visitor)
        box["payments"] = render_to_string(
            "pages/includes/hand_payments.html", {"words": box["words"]}
        )
        boxes.append(box)
    held = [
        {"number": r.hand.number, "state": states[r.hand.pk]}
        for r in live
        if standings.get(r.hand.pk) and standings[r.hand.pk].held
    ]
    return {
        "hand_states": states,
        "confirm_boxes": boxes,
        "held_hands": held,
        "confirm_rule": selectors.confirmation_rule_of(session),
        "confirm_rule_words": rule_words(session),
    }


#: the table page's confirmation boxes, newest first
BOXES = 6


def with_forms(request: HttpRequest, session: TableSession, boxes: list[dict], seats) -> list[dict]:
    """The boxes of :func:`table_confirmations` with the visitor's own form in each."""
    return [{**box, "form": box_form(request, session, box["standing"], seats)} for box in boxes]


# --- the writes --------------------------------------------------------------------------------


def _session_and_hand(pk: int, number: int) -> tuple[TableSession, Hand]:
    session = selectors.session_page(pk)
    if session is None:
        raise Http404
    hand = selectors.hand_in_session(session, number)
    if hand is None:
        raise Http404
    return session, hand


@require_POST
def hand_confirm(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A seated player's (or the players' link's) confirm or dispute of a hand."""
    session, hand = _session_and_hand(pk, number)
    by_link = _follows(request, session) and selectors.seat_of(session, request.user) is None
    if not by_link:
        if not selectors.can_read(request.user, session.club):
            raise Http404
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("page-hand", args=[pk, number]))
    verdict = request.POST.get("verdict", "")
    seat: Any = None
    if by_link:
        raw = request.POST.get("seat", "")
        seat = int(raw) if raw in ("0", "1", "2", "3") else None
    back = request.POST.get("next", "")
    url = reverse("page-session", args=[pk]) if back == "table" else None
    url = url or reverse("page-hand", args=[pk, number])
    try:
        confirmation_services.hand_confirm(
            hand=hand, verdict=verdict, words=request.POST.get("words", ""),
            user=request.user if request.user.is_authenticated else None,
            seat=seat, by_link=by_link,
        )  # fmt: skip
    except ServiceError as e:
        if e.code == "permission_denied":
            raise DjangoPermissionDenied from e
        for line in error_messages(e):
            messages.error(request, line)
        return redirect(f"{url}#confirm-{number}")
    if by_link:  # the seat he said he is, chosen for him next time
        seats = dict(request.session.get(SEATS, {}))
        seats[str(pk)] = seat
        request.session[SEATS] = seats
    if verdict == ConfirmationVerdict.DISPUTE:
        text = _("Hand %(n)s disputed: the organiser will see it.")
        messages.warning(request, text % {"n": number})
    else:
        messages.success(request, _("Hand %(n)s confirmed.") % {"n": number})
    return redirect(f"{url}#confirm-{number}")


@require_POST
def hand_resolve(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The organiser's or referee's ruling: the hand stands as recorded, with a reason. (A
    correction that resolves it is the hand's correction form, with its reason.)"""
    session, hand = _session_and_hand(pk, number)
    require_role(request.user, session.club, Role.REFEREE)
    try:
        hand_services.hand_resolve(hand=hand, reason=request.POST.get("reason", ""),
                                   user=request.user)  # fmt: skip
    except ServiceError as e:
        for line in error_messages(e):
            messages.error(request, line)
    else:
        messages.success(request, _("Hand %(n)s stands as recorded: it counts.") % {"n": number})
    if request.POST.get("next") == "club":
        return redirect("page-club-confirmations", slug=session.club.slug)
    return redirect("page-hand", pk=pk, number=number)


# --- the organiser's page ----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def club_confirmations(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's confirmation rule (organisers change it) and the hands of its open tables
    that wait for confirmations or are disputed (organisers and referees rule on them)."""
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.REFEREE)
    can_change = selectors.has_role(request.user, club, Role.ORGANISER)
    if request.method == "POST":
        if not can_change:
            raise DjangoPermissionDenied
        rule = request.POST.get("confirmation_rule", "")
        try:
            club_services.club_update(club=club, confirmation_rule=rule)
        except ServiceError as e:
            for line in error_messages(e):
                messages.error(request, line)
        else:
            messages.success(request, _("The confirmation rule is saved; open tables follow it."))
        return redirect("page-club-confirmations", slug=club.slug)
    held = []
    for item in selectors.club_held_hands(club):
        hand = selectors.hand_in_session(item.session, item.hand.number)
        names = {s.number: s.player.name for s in item.session.seats.all()}
        box = hand_box(request, item.session, hand, item.standing)
        box["words"] = words_of_view(selectors.hand_view(hand), seats=names)
        box["session"] = item.session
        box["history"] = history_of(
            selectors.hand_revisions(hand), selectors.hand_confirmations(hand), names
        )
        box["disputed"] = item.standing.is_disputed
        held.append(box)
    context = {
        "club": club,
        "can_change": can_change,
        "rule": club.confirmation_rule,
        "rules": [(value, RULES[value]) for value in ConfirmationRule.values],
        "held": held,
    }
    return render(request, "pages/tables/club_confirmations.html", context)


def history_of(revisions, said, names: dict[int, str]) -> list[dict[str, Any]]:
    """A hand's history for the organiser: its revisions (``selectors.hand_revisions``: why)
    and every word said about each (``selectors.hand_confirmations``), oldest first."""
    lines: list[dict[str, Any]] = []
    for r in revisions:
        by = r.changed_by.username if r.changed_by else ""
        what = ACTIONS.get(r.action, r.action)
        lines.append({"at": r.changed_at, "revision": r.revision, "what": what, "by": by,
                      "words": r.reason})  # fmt: skip
    for c in said:
        who = names.get(c.seat, "") if c.seat is not None else (c.by.username if c.by else "")
        what = VERDICTS.get(c.verdict, c.verdict)
        lines.append({"at": c.at, "revision": c.revision, "what": what, "by": who,
                      "words": c.words, "link": c.by_link})  # fmt: skip
    lines.sort(key=lambda x: (x["at"], x["revision"]))
    return lines
