"""A tournament run on pages only, from the scorekeeper's phone (390×844, in Chinese) and then on
a laptop (1280×800, in English): create it from the club page (checking in on the day), enter
nine players (four of the club, five guests), check eight in (found by pinyin), seat round 1
over those eight, enter both tables' totals, and see the standings follow, with a screenshot of
every step under ``tests/artifacts/``. No API call, no admin: only what a scorekeeper taps.
What the pages show is checked against the API's standings.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Role
from clubs.services.clubs import club_create
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.helpers import client_for
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["张三", "李四", "王五", "欧阳娜娜"]
GUESTS = ["赵六", "陈七", "Alexander Li", "曾小明", "孙九"]
LATE = "孙九"  # entered, never checked in: not seated
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _club():
    owner = get_user_model().objects.create_user("director", password="mahjong-2026-chengdu")
    club = club_create(name="成都茶馆", slug="teahouse", user=owner)
    for name in MEMBERS:
        MembershipFactory(club=club, player=PlayerFactory(name=name), role=Role.MEMBER)
    return owner, club


def _open(browser, live_server, viewport, locale):
    context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
    context.set_default_timeout(15_000)
    page = context.new_page()
    return context, page


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _standings_of_api(owner) -> list[str]:
    body = client_for(owner).get("/api/v1/tournaments/zhou-mo-bei/standings/").json()
    return [row["name"] for row in body["standings"]]


def test_a_tournament_day_on_pages_only(browser, live_server, shots, in_process_tasks):
    owner, club = _club()
    context, page = _open(browser, live_server, PHONE, "zh-CN")
    page.goto(f"{live_server.url}/login/?next=/clubs/teahouse/")
    page.get_by_label("用户名").fill("director")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.wait_for_url("**/clubs/teahouse/")

    # 1. a new tournament from the club page
    page.get_by_role("link", name="新比赛").click()
    page.get_by_label("比赛名称").fill("周末杯")
    page.get_by_label("轮数", exact=True).fill("2")
    page.get_by_label("每桌每轮局数").fill("4")
    page.get_by_label("只给当天签到的牌友排座（签到）").check()
    assert _no_sideways_scroll(page)
    shots(page, "new tournament")
    page.get_by_role("button", name="创建比赛").click()
    page.wait_for_url("**/tournaments/zhou-mo-bei/entries/")
    t = Tournament.objects.get(slug="zhou-mo-bei")
    assert (t.name, t.club_id, t.rounds, t.hands_per_table) == ("周末杯", club.pk, 2, 4)
    assert t.check_in

    # 2. nine entries: four players of the club, five guests by name
    for name in MEMBERS:
        page.locator("#id_player").select_option(label=name)
        page.get_by_role("button", name="报名", exact=True).click()
        page.wait_for_load_state()
        assert f"{name} 已报名" in page.locator(".messages").inner_text()
    for name in GUESTS:
        page.get_by_label("或客人的名字").fill(name)
        page.get_by_role("button", name="报名", exact=True).click()
        page.wait_for_load_state()
    assert "9 人报名" in page.locator("#entered").inner_text()
    assert page.locator(".entries .entry-line").count() == 9
    assert _no_sideways_scroll(page)
    shots(page, "entries")

    # 3. check-in at the door: each found by typing his name's pinyin, then ticked
    page.locator("nav.tabs").get_by_role("link", name="签到").click()
    assert "9 人中已签到 0 人" in page.locator("#check-in").inner_text()
    for name, typed in (("张三", "zhangsan"), ("欧阳娜娜", "ouyang"), ("曾小明", "zxm")):
        page.get_by_placeholder("汉字或拼音").fill(typed)
        shown = page.locator("#check-in-list li:visible")
        assert shown.count() == 1 and name in shown.inner_text()
        shown.get_by_role("button", name="签到").click()
        page.wait_for_load_state()
    for name in MEMBERS + GUESTS:
        if name in ("张三", "欧阳娜娜", "曾小明", LATE):
            continue
        page.locator("#check-in-list li", has_text=name).get_by_role("button", name="签到").click()
        page.wait_for_load_state()
    assert "9 人中已签到 8 人" in page.locator("#check-in").inner_text()
    assert _no_sideways_scroll(page)
    shots(page, "check-in")

    # 4. round 1 seated from the desk over the eight here (the seating task runs on commit)
    page.get_by_role("link", name="去轮次台").click()
    assert "9 人中已签到 8 人" in page.content()
    page.get_by_role("button", name="排第 1 轮座位").click()
    page.wait_for_load_state()
    assert t.round_set.get().status == Round.Status.SEATED
    tables = page.locator(".desk-table")
    assert tables.count() == 2
    assert LATE not in tables.first.inner_text() + tables.last.inner_text()
    assert "本轮还有桌" not in page.content()
    shots(page, "round 1 seated")

    # 5. each table's four totals, in seat order
    for number, totals in ((1, [30, 10, -10, -30]), (2, [5, 5, -5, -5])):
        table = page.locator(f"#table-{number}")
        for n, value in enumerate(totals):
            table.locator(f"input[name='t{number}-total_{n}']").fill(str(value))
        table.get_by_role("button", name="保存总分").click()
        page.wait_for_load_state()
        assert f"第 {number} 桌：总分已保存" in page.locator(".messages").inner_text()
    assert "2 桌中已有 2 桌录入总分" in page.content()
    assert page.get_by_role("button", name="排第 2 轮座位").is_visible()
    assert _no_sideways_scroll(page)
    shots(page, "round 1 entered")

    # 6. the standings page says what the API says
    page.locator("nav.tabs").get_by_role("link", name="排名").click()
    page.wait_for_load_state()
    shown = [
        cell.inner_text().split("\n")[0].strip()
        for cell in page.locator("table.standings tbody th.player").all()
    ]
    assert shown == _standings_of_api(owner)
    shots(page, "standings")

    # 7. a penalty for the round's winner, seen in the standings, then revoked
    leader = shown[0]
    page.locator("nav.tabs").get_by_role("link", name="罚分").click()
    page.locator("#id_player").select_option(label=leader)
    page.get_by_label("扣除的名次分").fill("5")
    page.get_by_label("迟到").check()
    page.get_by_label("说明（可选）").fill("迟到二十分钟")
    page.get_by_role("button", name="确认罚分").click()
    page.wait_for_load_state()
    assert f"{leader}：扣 5 名次分" in page.locator(".messages").inner_text()
    assert _no_sideways_scroll(page)
    shots(page, "penalty given")
    page.locator("nav.tabs").get_by_role("link", name="排名").click()
    assert "罚分" in page.locator("table.standings thead").inner_text()
    after = [c.inner_text().split("\n")[0].strip()
             for c in page.locator("table.standings tbody th.player").all()]  # fmt: skip
    assert after == _standings_of_api(owner) and after[0] != leader
    shots(page, "standings with a penalty")
    page.locator("nav.tabs").get_by_role("link", name="罚分").click()
    page.get_by_placeholder("撤销原因").fill("他的车晚点了")
    page.get_by_role("button", name="撤销").click()
    page.wait_for_load_state()
    assert "已撤销" in page.locator(".penalties").inner_text()
    assert _standings_of_api(owner)[0] == leader
    shots(page, "penalty revoked")
    context.close()

    # the desk on a laptop, in English
    context, page = _open(browser, live_server, LAPTOP, "en-GB")
    context.add_cookies(page_cookies(live_server, owner))
    page.goto(f"{live_server.url}/tournaments/zhou-mo-bei/slips/")
    assert page.locator(".slip").count() == 9
    shots(page, "slips to print")
    page.goto(f"{live_server.url}/tournaments/zhou-mo-bei/desk/")
    assert page.get_by_role("button", name="Seat round 2").is_visible()
    assert page.locator(".desk-table.done").count() == 2
    shots(page, "desk on a laptop")
    page.goto(f"{live_server.url}/tournaments/zhou-mo-bei/report/")
    assert page.locator(".report-tables tbody tr").count() == 8
    assert "Penalties" in page.content() and "迟到二十分钟" in page.content()
    shots(page, "report on a laptop")
    context.close()

    # 8. a player's own page on his phone, from the link on his slip: no login
    from tournaments.models import Registration  # (a model read after the pages' steps)

    key = Registration.objects.get(tournament=t, player__name="张三").private_key
    assert key  # made when the slips were printed
    context, page = _open(browser, live_server, PHONE, "zh-CN")
    page.goto(f"{live_server.url}/me/{key}/")
    assert "张三" in page.locator("h1").inner_text()
    assert "第 1 轮" in page.content() and "你的成绩" in page.content()
    assert _no_sideways_scroll(page)
    shots(page, "a player's own page")
    context.close()


def page_cookies(live_server, user) -> list[dict]:
    """A signed-in session for ``user`` as the browser's cookie."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key,
             "url": live_server.url}]  # fmt: skip
