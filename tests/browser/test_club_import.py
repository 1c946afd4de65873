"""On a phone, in Chinese: an organiser brings his club from a spreadsheet. He checks his
players' file and imports it, then his results' file: one row does not add up, the page says
which and why and stores nothing; corrected, it is imported, and the tables are the club's."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Role, TableSession
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.exchange.test_csv_import import PLAYERS, RESULTS

pytestmark = pytest.mark.django_db(transaction=True)


def choose(page, name: str, text: str) -> None:
    page.get_by_label("CSV 文件").set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": text.encode()}
    )
    page.get_by_role("button", name="检查文件").click()


def test_an_organiser_imports_his_spreadsheet(phone, shots):
    club = ClubFactory(name="成都茶馆", slug="teahouse")
    user = get_user_model().objects.create_user("laozhang", password="mahjong-2026-chengdu")
    MembershipFactory(club=club, player=PlayerFactory(user=user, name="老张"), role=Role.OWNER)
    page = phone
    page.goto(f"{page.base_url}/login/?next=/clubs/teahouse/")
    page.get_by_label("用户名").fill("laozhang")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.get_by_role("link", name="从表格导入").click()
    shots(page, "the import page")

    choose(page, "牌友.csv", PLAYERS)
    preview = page.locator("#preview-card")
    assert "5 行，全部无误。" in preview.inner_text()
    assert page.locator(".preview-players li").all_inner_texts() == [
        "张三", "李四", "王五", "赵六", "曾七"
    ]  # fmt: skip
    assert club.memberships.count() == 1  # checked, nothing stored yet
    shots(page, "players checked")
    page.get_by_role("button", name="导入").click()
    page.wait_for_url("**/clubs/teahouse/players/")
    assert "5 位牌友加入了俱乐部。" in page.locator(".messages").inner_text()
    shots(page, "players imported")

    page.goto(f"{page.base_url}/clubs/teahouse/import/")
    bad = RESULTS.replace("赵六,+4", "赵六,+5")
    choose(page, "得分.csv", bad)
    alert = page.get_by_role("alert")
    assert "1行有误，什么都没有存。" in alert.inner_text()
    assert page.locator(".bad-rows li").all_inner_texts() == ["第3行：得分相加是1，不是0。"]
    assert page.get_by_role("button", name="导入").count() == 0
    shots(page, "a row that does not add up")

    choose(page, "得分.csv", RESULTS)
    rows = page.locator(".preview-tables tbody tr")
    assert rows.count() == 3 and "老王 −2" in rows.nth(1).inner_text()
    shots(page, "results checked")
    page.get_by_role("button", name="导入").click()
    page.wait_for_url("**/clubs/teahouse/")
    assert "导入了 3 桌。" in page.locator(".messages").inner_text()
    assert club.sessions.filter(status=TableSession.Status.CLOSED).count() == 3
    shots(page, "the club with its tables")
