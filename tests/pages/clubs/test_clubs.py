"""The club pages with Django's test client: home, a new club, the club page, players, opening
a table and the evening's 结算 — status per role, what each page shows, and query counts that do
not grow with the club."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Bettor, Club, Membership, Role, TableSession
from clubs.services.sessions import session_close, session_create, session_result_enter
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import ascii_colons, login, member_login

pytestmark = pytest.mark.django_db

ROLES = ("anon", "outsider", "member", "scorer", "organiser", "owner")


def client_as(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def world():
    """A public and a members-only club, each with a login per role; the outsider is an
    organiser of another club."""

    class World:
        pass

    w = World()
    w.public = ClubFactory(name="Teahouse", slug="teahouse")
    w.private = ClubFactory(name="Back room", slug="back-room", visibility=Club.Visibility.MEMBERS)
    other = ClubFactory()
    w.users = {"anon": None, "outsider": member_login(other, Role.ORGANISER, "outsider")}
    for role in (Role.MEMBER, Role.SCORER, Role.ORGANISER, Role.OWNER):
        user = member_login(w.public, role, role)
        MembershipFactory(club=w.private, player=user.player, role=role)
        w.users[str(role)] = user
    return w


def statuses(world, method, url_of, data=None) -> dict[str, dict[str, int]]:
    out = {}
    for name, club in (("public", world.public), ("members", world.private)):
        row = {}
        for role in ROLES:
            client = client_as(world.users[role])
            url = url_of(club)
            response = client.post(url, data or {}) if method == "POST" else client.get(url)
            row[role] = response.status_code
        out[name] = row
    return out


def row(*codes):
    return dict(zip(ROLES, codes, strict=True))


# --- permission matrix --------------------------------------------------------------------


def test_home_and_new_club_answer_everyone(world):
    for role in ROLES:
        assert client_as(world.users[role]).get("/").status_code == 200
    anon = client_as().get("/clubs/new/")
    assert anon.status_code == 302 and anon["Location"].startswith("/login/?next=/clubs/new/")
    for role in ROLES[1:]:
        assert client_as(world.users[role]).get("/clubs/new/").status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/clubs/{}/", "/clubs/{}/players/", "/clubs/{}/evenings/2026-03-14/"],
)
def test_reading_pages_hide_a_members_only_club_from_outsiders(world, path):
    got = statuses(world, "GET", lambda c: path.format(c.slug))
    assert got == {
        "public": row(200, 200, 200, 200, 200, 200),
        "members": row(404, 404, 200, 200, 200, 200),
    }


def test_adding_a_player_needs_an_organiser(world):
    got = statuses(world, "POST", lambda c: f"/clubs/{c.slug}/players/", {"name": "张三"})
    assert got == {
        "public": row(302, 403, 403, 403, 302, 302),
        "members": row(404, 404, 403, 403, 302, 302),
    }
    # the two organisers and the two owners each added one to each club they may
    assert Membership.objects.filter(club=world.public, player__name="张三").count() == 2


def test_opening_a_table_needs_a_scorer(world):
    got = statuses(world, "GET", lambda c: f"/clubs/{c.slug}/tables/new/")
    assert got == {
        "public": row(302, 403, 403, 200, 200, 200),
        "members": row(404, 404, 403, 200, 200, 200),
    }


def test_an_unknown_club_or_a_wrong_date_is_404(world):
    member = client_as(world.users["member"])
    assert member.get("/clubs/nope/").status_code == 404
    assert member.get("/clubs/teahouse/evenings/2026-02-30/").status_code == 404
    # the first and last days a date can be: their day before / after would not exist
    assert member.get("/clubs/teahouse/evenings/0001-01-01/").status_code == 404
    assert member.get("/clubs/teahouse/evenings/9999-12-31/").status_code == 404


def test_reading_pages_take_no_post(world):
    member = client_as(world.users["member"])
    for url in ("/", "/clubs/teahouse/", "/clubs/teahouse/evenings/2026-03-14/"):
        assert member.post(url).status_code == 405


# --- home -------------------------------------------------------------------------------------


def test_home_lists_my_clubs_with_my_role_then_the_public_ones(world):
    body = client_as(world.users["scorer"]).get("/").content.decode()
    mine = body.index("My clubs")
    public = body.index("Public clubs")
    assert mine < body.index("Back room") < public  # his members-only club, among his own
    assert body.index("Scorer", mine) < public
    assert "Back room" not in body[public:]
    # the anonymous: sign up / sign in, and only the public clubs
    anon = client_as().get("/").content.decode()
    assert "Back room" not in anon and "Teahouse" in anon and "/signup/" in anon


# --- create a club ----------------------------------------------------------------------------


def test_creating_a_club_makes_the_creator_owner_and_suggests_the_slug_from_pinyin():
    user = login("laozhang")
    client = client_as(user)
    form = {"name": "成都茶馆", "slug": "", "visibility": "members", "ruleset": "chengdu",
            "base": "2", "unit_label": "元", "time_zone": "Asia/Shanghai"}  # fmt: skip
    response = client.post("/clubs/new/", form)
    assert response.status_code == 302 and response["Location"] == "/clubs/cheng-du-cha-guan/"
    club = Club.objects.get(slug="cheng-du-cha-guan")
    assert (club.name, club.visibility, club.base, club.unit_label) == (
        "成都茶馆",
        "members",
        2,
        "元",
    )
    assert club.ruleset.preset == "chengdu"
    assert Membership.objects.get(club=club, player__user=user).role == Role.OWNER
    # the same name again: the suggestion moves on, the first club keeps its address
    assert client.post("/clubs/new/", form)["Location"] == "/clubs/cheng-du-cha-guan-2/"
    # a slug given and taken: a readable refusal on the form, nothing created
    taken = client.post("/clubs/new/", {**form, "slug": "cheng-du-cha-guan"})
    assert taken.status_code == 200
    assert "This address is taken" in taken.content.decode()
    reserved = client.post("/clubs/new/", {**form, "slug": "new"})
    assert "reserved" in reserved.content.decode()
    assert Club.objects.filter(name="成都茶馆").count() == 2


def test_the_new_club_form_shows_each_preset_with_its_options_in_words():
    body = client_as(login()).get("/clubs/new/").content.decode()
    # chengdu's defaults (RULES §3.5): cap 8 multiples, 自摸 +1, 花猪 pays the cap
    assert "Chengdu multiples (ge/bei)" in body
    assert "Capped at ×8" in body and "Self-draw (自摸): +1 to each payment (加底)" in body
    assert "A flower pig (花猪) pays the cap (满格)" in body
    # qq: no cap, 花猪 16
    assert "No cap" in body and "A flower pig (花猪) pays 16 to each" in body


def test_the_new_club_form_reads_in_chinese():
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(login())
    body = client.get("/clubs/new/").content.decode()
    assert "创建俱乐部" in body and "成都麻将 格/倍" in body
    # a Chinese club counts in 分 unless it says otherwise
    assert 'name="unit_label" value="分"' in body


# --- the club page ----------------------------------------------------------------------------


def seated(club, n=4):
    return [MembershipFactory(club=club, player=PlayerFactory(name=f"P{i}")).player
            for i in range(n)]  # fmt: skip


def test_the_club_page_shows_todays_open_tables_recent_ones_and_the_members(world):
    club = world.public
    players = seated(club)
    today = session_create(club=club, players=players, user=None,
                           bettors=[{"guest_name": "老王"}])  # fmt: skip
    yesterday = session_create(
        club=club, players=players, user=None, started_at=timezone.now() - timedelta(days=2)
    )
    session_result_enter(
        session=yesterday,
        totals=[
            {"player": p.pk, "total": t} for p, t in zip(players, (8, -2, -2, -4), strict=True)
        ],
        user=None,
    )
    session_close(session=yesterday)
    body = client_as(world.users["member"]).get("/clubs/teahouse/").content.decode()
    open_part = body[body.index("Open tables today") : body.index("Recent tables")]
    assert f"/sessions/{today.pk}/" in open_part and "老王" in open_part
    recent = body[body.index("Recent tables") :]
    assert f"/sessions/{yesterday.pk}/" in recent and "+8" in recent and "−4" in recent
    assert "/clubs/teahouse/members/" in body
    evening_link = f"/clubs/teahouse/evenings/{timezone.localdate():%Y-%m-%d}/"
    assert evening_link in body
    # "open a table" for scorers and up only; the members summary for members only
    assert "/tables/new/" not in body
    assert (
        "/tables/new/" in client_as(world.users["scorer"]).get("/clubs/teahouse/").content.decode()
    )
    anon = client_as().get("/clubs/teahouse/").content.decode()
    assert "/clubs/teahouse/members/" not in anon and f"/sessions/{today.pk}/" in anon


def test_the_club_page_in_chinese_uses_chinese_punctuation(world):
    """Text in Chinese takes the full-width colon "：", never ":" (俱乐部规则：, 叫马：)."""
    club = world.public
    session_create(club=club, players=seated(club), user=None, bettors=[{"guest_name": "老王"}])
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(world.users["owner"])
    body = client.get("/clubs/teahouse/").content.decode()
    assert "你是创建人" in body and "名会员：" in body and "叫马：" in body
    assert "东</span>" in body  # the seats' winds
    opening = client.get("/clubs/teahouse/tables/new/").content.decode()
    assert "俱乐部规则：" in opening and "叫马 1：本俱乐部牌友" in opening
    for page in (body, opening):
        assert ascii_colons(page) == []


def test_the_club_page_in_english_names_the_winds_in_english(world):
    club = world.public
    session_create(club=club, players=seated(club), user=None)
    body = client_as(world.users["member"]).get("/clubs/teahouse/").content.decode()
    assert all(f'<span class="wind">{w}</span>' in body for w in "ESWN")
    assert "Your role: Member" in body
    # an English organiser's new club counts in points unless he says otherwise
    form = client_as(world.users["member"]).get("/clubs/new/").content.decode()
    assert 'name="unit_label" value="points"' in form


def test_today_is_the_clubs_own_day():
    # 23:30 in Shanghai is 15:30 UTC: a club in Shanghai sees it as today's table, however the
    # server's clock reads; a club in Los Angeles had its table the day before (08:30 there)
    club = ClubFactory(slug="sh", time_zone="Asia/Shanghai")
    la = ClubFactory(slug="la", time_zone="America/Los_Angeles")
    when = datetime(2026, 3, 14, 23, 30, tzinfo=ZoneInfo("Asia/Shanghai"))
    for c in (club, la):
        session_create(club=c, players=seated(c), user=None, started_at=when)
    client = client_as()
    assert "Table" in client.get("/clubs/sh/evenings/2026-03-14/").content.decode()
    assert "No club table that day" in client.get("/clubs/sh/evenings/2026-03-15/").content.decode()
    assert (
        "No club table that day"
        not in client.get("/clubs/la/evenings/2026-03-14/").content.decode()
    )


# --- players ----------------------------------------------------------------------------------


def test_players_are_searched_by_hanzi_and_pinyin(world):
    for name in ("张三", "李四", "王五", "Tom"):
        MembershipFactory(club=world.public, player=PlayerFactory(name=name))
    client = client_as()
    for q in ("张", "zhangsan", "ZS", "zhang san"):
        body = client.get("/clubs/teahouse/players/", {"q": q}).content.decode()
        assert "张三" in body and "李四" not in body, q
    assert "Tom" in client.get("/clubs/teahouse/players/", {"q": "to"}).content.decode()
    assert "Nobody matches" in client.get("/clubs/teahouse/players/", {"q": "xyz"}).content.decode()


def test_the_add_player_form_is_for_organisers(world):
    assert (
        "Add a player"
        not in client_as(world.users["scorer"]).get("/clubs/teahouse/players/").content.decode()
    )
    organiser = client_as(world.users["organiser"])
    assert "Add a player" in organiser.get("/clubs/teahouse/players/").content.decode()
    response = organiser.post("/clubs/teahouse/players/", {"name": "", "display_name": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()


# --- open a table -----------------------------------------------------------------------------


def table_form(players, **extra):
    data = {f"seat_{n}": str(p.pk) for n, p in enumerate(players)}
    data.update({"base": "2", "mode": "xuezhan", "ruleset": ""})
    data.update(extra)
    return data


def test_a_scorer_opens_a_table_with_a_club_bettor_and_a_guest(world):
    club = world.public
    players = seated(club, 5)
    client = client_as(world.users["scorer"])
    page = client.get("/clubs/teahouse/tables/new/").content.decode()
    assert "东" in page and "北" in page and 'data-keys="p0' in page
    response = client.post(
        "/clubs/teahouse/tables/new/",
        table_form(players[:4], bettor_player_0=str(players[4].pk), bettor_guest_1="老王"),
    )
    session = TableSession.objects.get(club=club)
    assert response.status_code == 302 and response["Location"] == f"/sessions/{session.pk}/"
    assert [s.player for s in session.seats.order_by("number")] == players[:4]
    assert (session.base, session.mode, session.ruleset_id) == (2, "xuezhan", club.ruleset_id)
    assert sorted(b.name for b in Bettor.objects.filter(session=session)) == ["P4", "老王"]
    assert session.created_by == world.users["scorer"]


def test_another_preset_may_be_chosen_for_one_table(world):
    players = seated(world.public)
    client = client_as(world.users["scorer"])
    client.post("/clubs/teahouse/tables/new/", table_form(players, ruleset="xuezhan9"))
    assert TableSession.objects.get(club=world.public).ruleset.preset == "xuezhan9"


def test_refusals_show_on_the_form_in_words(world):
    players = seated(world.public)
    client = client_as(world.users["scorer"])
    twice = table_form([players[0], players[0], players[2], players[3]])
    body = client.post("/clubs/teahouse/tables/new/", twice).content.decode()
    assert "A table seats four different players." in body
    seated_bettor = table_form(players, bettor_player_0=str(players[1].pk))
    body = client.post("/clubs/teahouse/tables/new/", seated_bettor).content.decode()
    assert "A player at the table cannot also bet on it." in body
    both = table_form(players, bettor_player_0=str(players[1].pk), bettor_guest_0="x")
    assert "not both" in client.post("/clubs/teahouse/tables/new/", both).content.decode()
    same_guest = table_form(players, bettor_guest_0="老王", bettor_guest_1="老王")
    body = client.post("/clubs/teahouse/tables/new/", same_guest).content.decode()
    assert "Each bettor needs a name of his own." in body
    assert not TableSession.objects.exists()


# --- the evening's 结算 -----------------------------------------------------------------------


def test_the_evening_nets_people_across_tables_and_settles_with_fewest_transfers():
    # Two tables on 14 March (final results, bettors included), one tournament table and one on
    # the 13th that must not count.
    # Table 1: A +5, B +3, C −5, D −3. Table 2: A −2, B +2, E +4, F −4, guest 老王 behind E: +4
    # and 小李 (a club player) behind F: −4.
    # Nets: A +3, B +5, E +4, 老王 +4, C −5, D −3, F −4, 小李 −4 (sum 0).
    # Zero-sum groups: {B, C}, {A, D}, {E, F}, {老王, 小李}: four groups of two → 8 − 4 = 4
    # transfers, one per pair.
    club = ClubFactory(slug="eve")
    a, b, c, d, e, f, li = (MembershipFactory(club=club, player=PlayerFactory(name=n)).player
                            for n in ("A", "B", "C", "D", "E", "F", "小李"))  # fmt: skip
    day = datetime(2026, 3, 14, 20, 0, tzinfo=ZoneInfo(club.time_zone))

    def table(players, totals, bettors=(), bettor_totals=(), when=day, kind=None):
        s = session_create(club=club, players=players, user=None, started_at=when,
                           bettors=list(bettors))  # fmt: skip
        if kind:
            TableSession.objects.filter(pk=s.pk).update(kind=kind)
        rows = [{"player": p.pk, "total": t} for p, t in zip(players, totals, strict=True)]
        behind = s.bettors.order_by("id")
        rows += [{"bettor": bt.pk, "total": t}
                 for bt, t in zip(behind, bettor_totals, strict=True)]  # fmt: skip
        session_result_enter(session=s, totals=rows, user=None)

    table([a, b, c, d], (5, 3, -5, -3))
    table([a, b, e, f], (-2, 2, 4, -4), [{"guest_name": "老王"}, {"player": li}], (4, -4))
    table([a, b, c, d], (100, -100, 0, 0), kind=TableSession.Kind.TOURNAMENT)
    table([a, b, c, d], (50, -50, 0, 0), when=day - timedelta(days=1))

    from clubs.selectors import evening

    ev = evening(club, day.date())
    assert len(ev.tables) == 2
    nets = {line.person.name: line.net for line in ev.lines}
    assert nets == {"A": 3, "B": 5, "E": 4, "老王": 4, "C": -5, "D": -3, "F": -4, "小李": -4}
    assert [line.person.name for line in ev.lines][:2] == ["B", "E"]  # largest first
    moves = {(t.payer.name, t.payee.name, t.amount) for t in ev.transfers}
    assert moves == {("C", "B", 5), ("D", "A", 3), ("F", "E", 4), ("小李", "老王", 4)}
    body = client_as().get("/clubs/eve/evenings/2026-03-14/").content.decode()
    assert '<strong>C</strong> pays <strong>B</strong> <span class="num">5</span>' in body
    assert "4 transfers settle the evening" in body and "guest" in body


# --- query counts -----------------------------------------------------------------------------


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def add_tables(club, n):
    players = seated(club, 4)
    for i in range(n):
        s = session_create(club=club, players=players, user=None,
                           bettors=[{"guest_name": f"g{i}"}])  # fmt: skip
        session_result_enter(
            session=s,
            totals=[
                {"player": p.pk, "total": t} for p, t in zip(players, (3, -1, -1, -1), strict=True)
            ]  # fmt: skip
            + [{"bettor": s.bettors.get().pk, "total": 0}],
            user=None,
        )


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/clubs/teahouse/",
        "/clubs/teahouse/players/",
        "/clubs/teahouse/tables/new/",
        "/clubs/teahouse/evenings/{today}/",
    ],  # fmt: skip
)
def test_query_counts_do_not_grow_with_the_club(world, url, django_assert_max_num_queries):
    club = world.public
    url = url.format(today=f"{timezone.localdate():%Y-%m-%d}")
    client = client_as(world.users["owner"])
    add_tables(club, 1)
    few = count_queries(client, url)
    add_tables(club, 6)
    for i in range(20):
        MembershipFactory(club=club, player=PlayerFactory(name=f"张{i}"))
        ClubFactory(name=f"Public {i}")
    with django_assert_max_num_queries(16):
        assert client.get(url).status_code == 200
    assert count_queries(client, url) == few
