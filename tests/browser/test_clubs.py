"""On a phone: an organiser creates a club, adds players, finds one by pinyin and opens a table
with a 叫马 bettor, typing pinyin into the seats' type-ahead."""

from __future__ import annotations

import re

import pytest

from clubs.models import Bettor, Club, Membership, Role, TableSession
from clubs.services.sessions import session_result_enter

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page, username="laozhang"):
    page.goto(page.base_url + "/signup/")
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码", exact=True).fill("mahjong-2026-chengdu")
    page.get_by_label("密码确认").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="创建账号").click()


def test_an_organiser_starts_a_club_and_opens_a_table(phone, shots):
    page = phone
    sign_up(page)
    page.goto(page.base_url + "/")
    shots(page, "home signed in")
    page.get_by_role("link", name="创建俱乐部").click()
    page.get_by_label("俱乐部名称").fill("成都茶馆")
    page.get_by_text("成都麻将 格/倍").click()
    page.get_by_text("规则详情").first.click()
    shots(page, "create a club")
    page.get_by_role("button", name="创建俱乐部").click()
    page.wait_for_url(re.compile(r"/clubs/cheng-du-cha-guan/$"))
    club = Club.objects.get(slug="cheng-du-cha-guan")
    assert club.ruleset.preset == "chengdu"
    assert Membership.objects.get(club=club).role == Role.OWNER
    shots(page, "club page")

    page.get_by_role("link", name="牌友").click()
    for name in ("张三", "李四", "王五", "赵六", "钱七"):
        page.get_by_label("名字").fill(name)
        page.get_by_role("button", name="添加").click()
        assert f"{name} 已加入俱乐部" in page.locator(".messages").inner_text()
    shots(page, "players added")
    page.get_by_role("searchbox").fill("zs")
    page.get_by_role("button", name="搜索").click()
    found = page.locator(".list.players li").all_inner_texts()
    assert found == ["张三"]
    shots(page, "search by pinyin initials")

    page.goto(page.base_url + "/clubs/cheng-du-cha-guan/")
    page.get_by_role("link", name="开桌").click()
    # type-ahead: pinyin, initials and 汉字 pick the player of each seat
    for n, typed, name in ((0, "zhangsan", "张三"), (1, "ls", "李四"), (2, "王", "王五"),
                           (3, "zhaoliu", "赵六")):  # fmt: skip
        page.locator(f"input[data-filter-for=id_seat_{n}]").fill(typed)
        assert page.locator(f"#id_seat_{n} option:checked").inner_text() == name
    page.get_by_text("叫马（可选）").click()
    page.locator("input[data-filter-for=id_bettor_player_0]").fill("qq")
    assert page.locator("#id_bettor_player_0 option:checked").inner_text() == "钱七"
    page.locator("#id_bettor_guest_1").fill("老王")
    shots(page, "open a table")
    page.get_by_role("button", name="开桌").click()
    session = TableSession.objects.get(club=club)
    page.wait_for_url(re.compile(rf"/sessions/{session.pk}/$"))
    names = [s.player.name for s in session.seats.order_by("number")]
    assert names == ["张三", "李四", "王五", "赵六"]
    assert sorted(b.name for b in Bettor.objects.filter(session=session)) == ["老王", "钱七"]
    assert session.base == club.base and session.ruleset == club.ruleset

    page.goto(page.base_url + "/clubs/cheng-du-cha-guan/")
    assert "老王" in page.locator("#today").locator("..").inner_text()
    shots(page, "club page with the open table")
    # the table ends with its totals entered (by the table page, built elsewhere): 张三 +12,
    # 李四 −2, 王五 −4, 赵六 −6, and the bettors 钱七 +5, 老王 −5. The only zero-sum parts are
    # {钱七, 老王} and the four players (12 = 2 + 4 + 6): (2 − 1) + (4 − 1) = 4 transfers.
    seats = {s.player.name: s.player for s in session.seats.all()}
    bets = {b.name: b for b in session.bettors.all()}
    totals = {"张三": 12, "李四": -2, "王五": -4, "赵六": -6}
    session_result_enter(
        session=session,
        totals=[{"player": seats[n].pk, "total": t} for n, t in totals.items()]
        + [{"bettor": bets["钱七"].pk, "total": 5}, {"bettor": bets["老王"].pk, "total": -5}],
        user=None,
    )
    page.get_by_role("link", name="今日结算").click()
    transfers = page.locator(".transfers li").all_inner_texts()
    assert sorted(transfers) == sorted(
        ["李四 付 张三 2 分", "王五 付 张三 4 分", "赵六 付 张三 6 分", "老王 付 钱七 5 分"]
    )
    shots(page, "evening")


def test_a_refused_table_says_why_on_the_form(phone, shots):
    page = phone
    sign_up(page, "laoli")
    page.get_by_role("link", name="创建俱乐部").first.click()
    page.get_by_label("俱乐部名称").fill("Teahouse")
    page.get_by_role("button", name="创建俱乐部").click()
    page.wait_for_url(re.compile(r"/clubs/teahouse/$"))
    page.get_by_role("link", name="牌友").click()
    for name in ("A", "B", "C", "D"):
        page.get_by_label("名字").fill(name)
        page.get_by_role("button", name="添加").click()
    page.goto(page.base_url + "/clubs/teahouse/tables/new/")
    for n, name in enumerate(("A", "A", "C", "D")):
        page.locator(f"#id_seat_{n}").select_option(label=name)
    page.get_by_role("button", name="开桌").click()
    assert "一桌要坐四位不同的牌友" in page.locator(".errors").inner_text()
    shots(page, "refused")
    assert not TableSession.objects.exists()
