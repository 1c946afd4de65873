"""Reads of the clubs app: who may see what, and totals recomputed from payments.

Totals are never stored: a session's total for a player is what he received minus what he
paid in the payments of its live hands, or his final-result entry.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q, QuerySet, Sum

from clubs.models import (
    ROLE_RANK,
    Bettor,
    Club,
    Membership,
    Player,
    Role,
    SessionResult,
    TableSession,
)
from scoring.models import Payment


def membership_of(user, club: Club) -> Membership | None:
    if not user or not user.is_authenticated:
        return None
    cache = getattr(user, "_memberships", None)
    if cache is None:
        cache = user._memberships = {
            m.club_id: m for m in Membership.objects.filter(player__user=user).order_by()
        }
    return cache.get(club.pk)


#: ``held`` when the user's role in the club was not read along with the club: look it up
UNREAD = object()


def has_role(user, club: Club, role: str, *, held: str | None | object = UNREAD) -> bool:
    """At least ``role`` in the club (owner > organiser > scorer > member); staff may all.

    ``held``: the user's role in the club (None: not a member) when the caller read it along
    with the club (see ``scoring.services.session_for_new_hand``), instead of looking it up.
    """
    if user and user.is_authenticated and user.is_superuser:
        return True
    if held is UNREAD:
        m = membership_of(user, club)
        held = None if m is None else m.role
    return held is not None and ROLE_RANK[held] >= ROLE_RANK[role]


def can_read(user, club: Club, *, held: str | None | object = UNREAD) -> bool:
    return club.is_public or has_role(user, club, Role.MEMBER, held=held)


def clubs_visible_to(user) -> QuerySet[Club]:
    qs = Club.objects.select_related("ruleset")
    if user and user.is_authenticated and user.is_superuser:
        return qs
    if user and user.is_authenticated:
        return qs.filter(
            Q(visibility=Club.Visibility.PUBLIC) | Q(memberships__player__user=user)
        ).distinct()
    return qs.filter(visibility=Club.Visibility.PUBLIC)


def sessions_of(club: Club) -> QuerySet[TableSession]:
    return (
        TableSession.objects.filter(club=club)
        .select_related("ruleset", "club")
        .prefetch_related("seats__player", "bettors__player")
    )


def session_totals(*, session_id: int) -> dict[str, dict[int, int]]:
    """Totals of one session by player id and by bettor id."""
    return _totals(Q(hand__session_id=session_id), Q(session_id=session_id))[session_id]


def _totals(payment_filter: Q, result_filter: Q) -> dict[int, dict[str, dict[int, int]]]:
    """{session id: {"players": {id: total}, "bettors": {id: total}}} from payments + results."""
    out: dict[int, dict[str, dict[int, int]]] = defaultdict(
        lambda: {"players": defaultdict(int), "bettors": defaultdict(int)}
    )
    # summed by payer and payee in the database: a few rows a session, however many hands
    parties = ("hand__session_id", "payer_player_id", "payer_bettor_id", "payee_player_id",
               "payee_bettor_id")  # fmt: skip
    payments = (
        Payment.objects.filter(payment_filter, hand__is_deleted=False)
        .order_by()
        .values(*parties)
        .annotate(sum=Sum("amount"))
        .values_list(*parties, "sum")
    )
    for session_id, payer_p, payer_b, payee_p, payee_b, amount in payments:
        book = out[session_id]
        if payer_p:
            book["players"][payer_p] -= amount
        else:
            book["bettors"][payer_b] -= amount
        if payee_p:
            book["players"][payee_p] += amount
        else:
            book["bettors"][payee_b] += amount
    for r in SessionResult.objects.filter(result_filter):
        if r.player_id:
            out[r.session_id]["players"][r.player_id] += r.total
        else:
            out[r.session_id]["bettors"][r.bettor_id] += r.total
    return out


def sessions_totals(session_ids: list[int]) -> dict[int, dict[str, dict[int, int]]]:
    return _totals(Q(hand__session_id__in=session_ids), Q(session_id__in=session_ids))


def player_sessions(*, player: Player, user) -> list[dict]:
    """The sessions a player sat in or bet on (叫马) that the user may see, oldest first, each
    with the player's total there (seat and bets together) and his running total (累计)."""
    sessions = [
        s
        for s in TableSession.objects.filter(Q(seats__player=player) | Q(bettors__player=player))
        .distinct()
        .select_related("club")
        .order_by("started_at", "id")
        if can_read(user, s.club)
    ]
    totals = sessions_totals([s.pk for s in sessions])
    bets: dict[int, list[int]] = defaultdict(list)
    for session_id, bettor_id in Bettor.objects.filter(
        player=player, session__in=sessions
    ).values_list("session_id", "id"):
        bets[session_id].append(bettor_id)
    running = 0
    out = []
    for s in sessions:
        book = totals[s.pk]
        total = book["players"].get(player.pk, 0)
        total += sum(book["bettors"].get(b, 0) for b in bets[s.pk])
        running += total
        out.append({"session": s, "total": total, "running_total": running})
    return out
