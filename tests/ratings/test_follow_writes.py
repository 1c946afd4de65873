"""Every write that changes a session's result moves its statistics' lines and its ratings,
and the club's award holders.

The lines are a read model kept by the ``ratings.refresh_session`` task, which the outbox
queues after every such write; no other cache stands between a write and the ranking. The
award holders (``AwardHolder``, what a player's page reads) are one more, kept by the
``ratings.refresh_awards`` task that a refresh queues when a club table's lines moved, and by
a change of the club's time zone (its seasons are years there). Each write below is made
through the services (or the admin) and committed (the tasks run as on a worker), then the
lines and the ratings are compared with what the session now says, and the holders with the
awards computed live from the lines (:func:`awards_follow`).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.contrib.admin.sites import site
from django.db import transaction

from clubs.models import Club, Hand, TableSession
from clubs.services.clubs import club_update
from clubs.services.hands import hand_correct, hand_delete, hand_record
from clubs.services.sessions import session_close, session_reopen, session_update
from ratings.awards_selectors import club_awards, club_seasons, season_period
from ratings.models import ALL_TIME, AwardHolder, Rating, RatingChange, SessionLine, WinLine
from tests.ratings.test_facts import DOUBLE_HAND, KONG_HAND
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def lines_of(session) -> dict[int, tuple[int, int]]:
    """Seat → (score, wins) of the session's lines."""
    return {ln.seat: (ln.score, ln.wins) for ln in SessionLine.objects.filter(session=session)}


Holder = tuple  # (award, player id, value, session id, hand number)


def awards_follow(club: Club) -> dict[int, set[Holder]]:
    """The club's award holders by season, once checked to be the awards computed live now
    from its lines for every season it played in and all time (seasons nobody won left out)."""
    club.refresh_from_db()
    held: dict[int, set[Holder]] = defaultdict(set)
    for h in AwardHolder.objects.filter(club=club):
        held[h.season].add((h.code, h.player_id, h.value, h.session_id, h.hand_number))
    live = {}
    for season in [*club_seasons(club), ALL_TIME]:
        won = {
            (r.code, w.player_id, w.value, *(w.hand or (None, None)))
            for r in club_awards(club, season_period(club, season))
            for w in r.winners
        }
        if won:
            live[season] = won
    assert dict(held) == live
    return live


def codes(held: set[Holder], player_id: int) -> set[str]:
    return {h[0] for h in held if h[1] == player_id}


def test_club_table_hand_by_hand(club4, django_capture_on_commit_callbacks):
    c = club4()
    s = c.open([0, 1, 2, 3], mode="xuezhan")
    p = [x.pk for x in c.players]
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        hand_record(session=s, data=KONG_HAND, user=c.user)
    assert lines_of(s) == {}  # still being played: no lines, no rating
    assert awards_follow(c.club) == {}  # nor awards
    with commit(execute=True):
        session_close(session=s)
    # KONG_HAND (tests/ratings/test_facts.py): S0 −9, S1 +1, S2 +7, S3 +1
    assert lines_of(s) == {0: (-9, 0), 1: (1, 1), 2: (7, 1), 3: (1, 1)}
    assert WinLine.objects.filter(session=s).count() == 3
    assert RatingChange.objects.filter(session=s).count() == 4
    # S2's 暗杠 the one kong, his +7 the top score; S3's 清一色 (4) the biggest win; S0 fed
    # two of the wins; S1 first to win, by 自摸
    held = awards_follow(c.club)
    assert set(held) == {2026, ALL_TIME} and held[2026] == held[ALL_TIME]
    assert codes(held[2026], p[2]) == {"kong_god", "top_scorer", "most_wins", "regular"}
    assert ("grand_slam", p[3], 4, s.pk, 1) in held[2026]
    assert codes(held[2026], p[0]) == {"big_spender", "regular"}
    assert {"quick_draw", "self_draw_king"} <= codes(held[2026], p[1])

    with commit(execute=True):
        session_reopen(session=s)
    assert lines_of(s) == {} and not RatingChange.objects.filter(session=s).exists()
    assert awards_follow(c.club) == {}  # its only table is open again: no award
    with commit(execute=True):
        hand_record(session=s, data=DOUBLE_HAND, user=c.user)
    assert awards_follow(c.club) == {}
    with commit(execute=True):
        session_close(session=s)
    # + DOUBLE_HAND: S0 pays 1 + 1 + 8 = −10 → −19; S1 +1 → 2; S2 +1 → 8; S3 +8 → 9
    assert lines_of(s) == {0: (-19, 0), 1: (2, 2), 2: (8, 2), 3: (9, 2)}
    # S3 now first: his rating row says so
    assert RatingChange.objects.get(session=s, player=c.players[3]).place == 1
    # S3's 清对 自摸 (8) of hand 2 is now the biggest win, his +9 the top score
    held = awards_follow(c.club)
    assert ("grand_slam", p[3], 8, s.pk, 2) in held[2026]
    assert ("top_scorer", p[3], 9, None, None) in held[2026]


def test_club_table_corrected_and_a_hand_deleted(club4, django_capture_on_commit_callbacks):
    """Reopened, a hand corrected, then one deleted, closed again after each: the holders
    follow every time."""
    c = club4()
    p = [x.pk for x in c.players]
    commit = django_capture_on_commit_callbacks
    s = c.open([0, 1, 2, 3], mode="xuezhan")
    for data in (KONG_HAND, DOUBLE_HAND):
        with commit(execute=True):
            hand_record(session=s, data=data, user=c.user)
    with commit(execute=True):
        session_close(session=s)
    assert ("grand_slam", p[3], 8, s.pk, 2) in awards_follow(c.club)[2026]

    with commit(execute=True):
        session_reopen(session=s)
        hand_correct(hand=Hand.objects.get(session=s, number=2), data=KONG_HAND, user=c.user,
                     reason="wrong hand")  # fmt: skip
        session_close(session=s)
    # two KONG_HANDs: S2 two kongs, +14; S3's two 清一色 of 4, the first played the biggest
    held = awards_follow(c.club)
    assert ("kong_god", p[2], 2, None, None) in held[2026]
    assert ("grand_slam", p[3], 4, s.pk, 1) in held[2026]
    assert ("qingyise_king", p[3], 2, None, None) in held[2026]

    with commit(execute=True):
        session_reopen(session=s)
        hand_delete(hand=Hand.objects.get(session=s, number=1), reason="twice", user=c.user)
        session_close(session=s)
    held = awards_follow(c.club)  # hand 2 alone: the biggest win is its 清一色
    assert ("grand_slam", p[3], 4, s.pk, 2) in held[2026]
    assert ("kong_god", p[2], 1, None, None) in held[2026]


def test_totals_entered_and_a_start_moved_to_another_year(
    club4, django_capture_on_commit_callbacks
):
    """A table of entered totals is a season's too (scores, sessions); reopened and moved to
    another year, its awards move from one season to the other."""
    c = club4()
    p = [x.pk for x in c.players]
    commit = django_capture_on_commit_callbacks
    s = c.table([0, 1, 2, 3], [5, 3, -2, -6])
    held = awards_follow(c.club)
    assert set(held) == {2026, ALL_TIME}
    assert ("top_scorer", p[0], 5, None, None) in held[2026]
    assert codes(held[2026], p[3]) == {"regular"}

    with commit(execute=True):
        session_reopen(session=s)
        session_update(session=s, started_at=datetime(2025, 5, 1, 20, tzinfo=ZoneInfo("UTC")))
        session_close(session=s)
    held = awards_follow(c.club)
    assert set(held) == {2025, ALL_TIME}  # 2026 has no table any more: no holder
    assert ("top_scorer", p[0], 5, None, None) in held[2025]

    with commit(execute=True):
        session_reopen(session=s)
    assert awards_follow(c.club) == {}
    c.enter(s, [-6, -2, 3, 5])  # the totals corrected while it is open
    with commit(execute=True):
        session_close(session=s)
    assert ("top_scorer", p[3], 5, None, None) in awards_follow(c.club)[2025]


def test_a_new_time_zone_moves_the_seasons(club4, django_capture_on_commit_callbacks):
    """19:30 on 31 December 2026 in Chengdu is 11:30 UTC, already 1 January 2027 in Kiritimati
    (UTC+14): the club's new zone moves the table into the season 2027."""
    c = club4()
    commit = django_capture_on_commit_callbacks
    c.table([0, 1, 2, 3], [2, 0, 0, -2], at=datetime(2026, 12, 31, 19, 30, tzinfo=ZoneInfo(
        "Asia/Shanghai")))  # fmt: skip
    assert set(awards_follow(c.club)) == {2026, ALL_TIME}
    with commit(execute=True):
        club_update(club=c.club, time_zone="Pacific/Kiritimati")
    assert set(awards_follow(c.club)) == {2027, ALL_TIME}


def test_the_admins_edits_are_followed(club4, django_capture_on_commit_callbacks, rf):
    """The admin saves a club or a session itself (not through the services): a new time zone
    and a finished table's new start are followed all the same."""
    c = club4()
    commit = django_capture_on_commit_callbacks
    s = c.table([0, 1, 2, 3], [2, 0, 0, -2], at=datetime(2026, 12, 31, 19, 30, tzinfo=ZoneInfo(
        "Asia/Shanghai")))  # fmt: skip
    club, session = Club.objects.get(pk=c.club.pk), TableSession.objects.get(pk=s.pk)
    club.time_zone = "Pacific/Kiritimati"
    with commit(execute=True), transaction.atomic():  # the admin's view is atomic
        site._registry[Club].save_model(rf.post("/"), club, SimpleNamespace(
            changed_data=["time_zone"]), change=True)  # fmt: skip
    assert set(awards_follow(c.club)) == {2027, ALL_TIME}
    session.started_at = datetime(2025, 3, 1, 12, tzinfo=ZoneInfo("UTC"))
    with commit(execute=True), transaction.atomic():
        site._registry[TableSession].save_model(rf.post("/"), session, SimpleNamespace(
            changed_data=["started_at"]), change=True)  # fmt: skip
    assert lines_of(s) == {0: (2, 0), 1: (0, 0), 2: (0, 0), 3: (-2, 0)}
    assert set(awards_follow(c.club)) == {2025, ALL_TIME}


@pytest.fixture
def tournament_table(club4, django_capture_on_commit_callbacks):
    """A tournament of two hands a table, its first round seated: one table of four."""
    c = club4()
    t = tournaments.tournament_create(
        name="Cup", slug="cup", user=c.user, club=c.club, rounds=2, hands_per_table=2,
        mode="xuezhan",
    )  # fmt: skip
    for p in c.players[:4]:
        tournaments.registration_create(tournament=t, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = tournaments.round_start(tournament=t)
    return c, t, round_.tables.get().session


def test_a_tournament_table_is_rated_in_its_tournament_once_it_has_played_its_hands(
    tournament_table, django_capture_on_commit_callbacks
):
    c, t, s = tournament_table
    commit = django_capture_on_commit_callbacks
    seat_player = dict(s.seats.values_list("number", "player_id"))
    with commit(execute=True):
        hand_record(session=s, data=KONG_HAND, user=c.user)
    assert lines_of(s) == {}  # one of its two hands
    with commit(execute=True):
        hand_record(session=s, data=DOUBLE_HAND, user=c.user)
    assert lines_of(s) == {0: (-19, 0), 1: (2, 2), 2: (8, 2), 3: (9, 2)}
    # rated in the tournament's pool, not the club's: tournament points are not club money
    assert {r.pool.tournament_id for r in Rating.objects.select_related("pool")} == {t.pk}
    assert SessionLine.objects.filter(session=s, tournament=t).count() == 4
    assert awards_follow(c.club) == {}  # the club's awards are of its own tables alone

    # a correction of hand 2 (the 一炮多响 hand becomes KONG_HAND again) moves both
    with commit(execute=True):
        hand_correct(
            hand=Hand.objects.get(session=s, number=2), data=KONG_HAND, user=c.user,
            reason="wrong hand",
        )  # fmt: skip
    assert lines_of(s) == {0: (-18, 0), 1: (2, 2), 2: (14, 2), 3: (2, 2)}
    top = RatingChange.objects.get(session=s, place=1)
    assert top.player_id == seat_player[2] and top.score == 14

    # a deletion leaves one hand of two: the table is no longer finished, nothing is rated
    with commit(execute=True):
        hand_delete(hand=Hand.objects.get(session=s, number=2), reason="entered twice",
                    user=c.user)  # fmt: skip
    assert lines_of(s) == {}
    assert not Rating.objects.exists()


def test_a_tournament_table_entered_as_totals(tournament_table, django_capture_on_commit_callbacks):
    c, t, s = tournament_table
    table = s.tournament_table
    order = list(s.seats.order_by("number").values_list("player_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.table_result_enter(
            table=table,
            scores=[{"player": p, "score": n} for p, n in zip(order, [5, 5, -4, -6], strict=True)],
            user=c.user,
        )
    assert lines_of(s) == {0: (5, 0), 1: (5, 0), 2: (-4, 0), 3: (-6, 0)}
    places = dict(RatingChange.objects.filter(session=s).values_list("player_id", "place"))
    assert [places[p] for p in order] == [1, 1, 3, 4]
    assert awards_follow(c.club) == {}
