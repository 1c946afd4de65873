"""The standings page a page of players at a time: ``?page=N`` (100 a page), ``?page=all`` every
player, any other ``?page=`` a page that exists (never an error); kept in the cache under the
latest snapshot (never stale: a new snapshot is a new key); its queries do not grow with the
field (100 or 2,000 players). The projector still shows every player. A round's printed seating
is kept the same way, under the version of its seats and names."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Player, Seat, SessionResult, TableSession
from clubs.tasks import follow_session
from tests.clubs.factories import ClubFactory
from tests.helpers import member_login, two_reads
from tournaments import services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def _results(round_: Round, rnd: random.Random) -> None:
    """Zero-sum totals for every table of the round, written straight."""
    seats = Seat.objects.filter(session__tournament_table__round=round_).order_by(
        "session_id", "number"
    )
    by_session: dict[int, list[int]] = {}
    for session_id, player_id in seats.values_list("session_id", "player_id"):
        by_session.setdefault(session_id, []).append(player_id)
    rows = []
    for session_id, players in by_session.items():
        a, b, c = rnd.randint(-40, 40), rnd.randint(-40, 40), rnd.randint(-40, 40)
        for player_id, total in zip(players, (a, b, c, -a - b - c), strict=True):
            rows.append(SessionResult(session_id=session_id, player_id=player_id, total=total))
    SessionResult.objects.bulk_create(rows)


def field_of(players: int, slug: str = "big-open", rounds: int = 2) -> Tournament:
    """``players`` registered, ``rounds`` rounds seated with their totals in, standings
    computed (written in bulk where the services are not the point)."""
    club = ClubFactory(slug=f"club-{slug}")
    t = services.tournament_create(
        name=slug, slug=slug, user=member_login(club, "organiser", f"d-{slug}"), club=club,
        rounds=rounds, seating="random", seed=7,
    )  # fmt: skip
    made = Player.objects.bulk_create(Player(name=f"{slug}-{i:05d}") for i in range(players))
    Registration.objects.bulk_create(
        Registration(tournament=t, player=p, seed_rating=3000 - i) for i, p in enumerate(made)
    )
    rnd = random.Random(2026)
    for _ in range(rounds):
        round_ = services.round_start(tournament=t)
        services.round_seat(round_id=round_.pk)
        _results(Round.objects.get(pk=round_.pk), rnd)
    services.standings_compute(tournament_id=t.pk)
    return t


def without_tokens(body: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)


def ranks(body: str) -> list[int]:
    return [int(r) for r in re.findall(r'<td class="num rank">(\d+)', body)]


def get(path: str, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


@pytest.fixture
def open250() -> Tournament:
    return field_of(250)


def test_a_page_at_a_time_and_all_on_one(open250):
    path = f"/tournaments/{open250.slug}/standings/"
    first = get(path)
    assert len(ranks(first)) == 100 and ranks(first)[0] == 1
    assert "Page 1 of 3: players 1–100 of 250" in first
    assert 'href="?page=2" rel="next"' in first and 'rel="prev"' not in first
    assert 'href="?page=all"' in first
    second = get(path + "?page=2")
    assert len(ranks(second)) == 100 and "players 101–200 of 250" in second
    assert 'href="?page=1" rel="prev"' in second and 'href="?page=3" rel="next"' in second
    assert ranks(second)[0] >= ranks(first)[-1]
    last = get(path + "?page=3")
    assert len(ranks(last)) == 50 and 'rel="next"' not in last
    every = get(path + "?page=all")
    assert len(ranks(every)) == 250 and "All 250 players" in every
    assert ranks(every) == ranks(first) + ranks(second) + ranks(last)
    players = re.findall(r'data-player="(\d+)"', every)
    assert len(set(players)) == 250


@pytest.mark.parametrize(
    "asked, page",
    [("0", 1), ("-3", 1), ("x", 1), ("", 1), ("2.5", 1), ("99999", 3), ("9" * 60, 3),
     ("３", 3), ("1e3", 1), ("%00", 1)],
)  # fmt: skip
def test_any_other_page_asked_is_a_page_there_is(open250, asked, page):
    body = get(f"/tournaments/{open250.slug}/standings/?page={asked}")
    assert f"Page {page} of 3:" in body


def test_the_pages_in_chinese(open250):
    body = get(f"/tournaments/{open250.slug}/standings/?page=2", "zh-Hans")
    assert "第 2 页，共 3 页" in body and "显示全部" in body
    assert "共 250 名选手" in get(f"/tournaments/{open250.slug}/standings/?page=all", "zh-Hans")


def test_a_small_field_has_no_pages(open250):
    small = field_of(12, slug="small-open")
    body = get(f"/tournaments/{small.slug}/standings/")
    assert len(ranks(body)) == 12 and "standings-pager" not in body


def test_new_standings_show_on_the_next_read(open250):
    path = f"/tournaments/{open250.slug}/standings/"
    before = get(path)
    assert "After 2 complete rounds" in before
    # a table's totals change and the standings are computed again: a new snapshot
    session = open250.round_set.get(number=2).tables.order_by("number").first().session
    SessionResult.objects.filter(session=session).delete()
    follow_session(session.pk)  # a write to the session, counted as every write is
    services.standings_compute(tournament_id=open250.pk)
    after = get(path)
    assert "After 1 complete round" in after and "After 2 complete rounds" not in after


def test_the_projector_still_shows_every_player(open250):
    body = get(f"/tournaments/{open250.slug}/projector/")
    assert body.count("data-player=") == 250


def _queries(path: str) -> tuple[int, int]:
    return two_reads(path)[:2]


def test_the_queries_are_the_same_with_100_or_2000_players():
    small, big = field_of(100, slug="hundred"), field_of(2000, slug="two-thousand")
    for page in ("", "?page=all"):
        assert _queries(f"/tournaments/{small.slug}/standings/{page}") == _queries(
            f"/tournaments/{big.slug}/standings/{page}"
        ), page
    first, again = _queries(f"/tournaments/{big.slug}/standings/?page=3")
    # the tournament with its club, ruleset and latest snapshot's id, in one statement; a page
    # not read before reads the snapshot's standings too (once per process: they never change)
    assert again == 1 and first <= 3, (first, again)


def test_a_new_snapshot_is_read_with_the_tournament_at_once():
    """The snapshot the page shows is the latest when the page is read: a recompute between
    two reads shows on the second (its id came with the tournament's row, not from a copy)."""
    t = field_of(100, slug="hundred")
    path = f"/tournaments/{t.slug}/standings/"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    first = client.get(path).content.decode()
    assert 'class="pos"' in first and 'class="neg"' in first  # the round scores, signed
    before = t.standings_snapshots.order_by("-version").first()
    SessionResult.objects.filter(session__tournament_table__round__tournament=t).update(total=0)
    # writes to the sessions, counted as every write is (clubs.tasks.follow_session)
    TableSession.objects.filter(tournament_table__round__tournament=t).update(
        data_version=F("data_version") + 1
    )
    services.standings_compute(tournament_id=t.pk)
    latest = t.standings_snapshots.order_by("-version").first()
    assert latest.version == before.version + 1
    body = client.get(path).content.decode()
    # every round's score now 0: no signed score is left on the page
    assert 'class="pos"' not in body and 'class="neg"' not in body


# --- a round's printed seating --------------------------------------------------------------------


def test_the_round_page_shows_a_rename_and_not_a_stale_seating(open250):
    path = f"/tournaments/{open250.slug}/rounds/2/print/"
    body = get(path)
    assert body.count('class="seat-block"') == 62 and "62 tables" in body
    assert without_tokens(get(path)) == without_tokens(body)  # kept: the same page
    table = open250.round_set.get(number=2).tables.order_by("number").first()
    seat = table.session.seats.get(number=0)
    Player.objects.filter(pk=seat.player_id).update(name="Zz Renamed")
    body = get(path)
    assert "Zz Renamed" in body
    # a bye's name too
    bye = open250.round_set.get(number=2).byes[0]
    Player.objects.filter(pk=bye).update(name="Bye Renamed")
    assert "Bye Renamed" in get(path)


def test_a_hand_at_a_table_does_not_draw_the_round_page_again(open250):
    from clubs.tasks import follow_session

    path = f"/tournaments/{open250.slug}/rounds/2/print/"
    get(path)
    table = open250.round_set.get(number=2).tables.order_by("number").first()
    follow_session(table.session_id)  # (what every hand's write does)
    with CaptureQueriesContext(connection) as read:
        get(path)
    assert not any("clubs_hand" in q["sql"] for q in read.captured_queries)


def test_the_round_page_reads_the_same_queries_with_100_or_2000_players():
    small, big = field_of(100, slug="hundred"), field_of(2000, slug="two-thousand")
    counts = [_queries(f"/tournaments/{t.slug}/rounds/2/print/") for t in (small, big)]
    assert counts[0] == counts[1], counts
    assert counts[0][1] <= 4, counts  # the tournament, the round, the seats' version
