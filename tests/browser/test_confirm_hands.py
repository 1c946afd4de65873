"""Every player confirms on his own phone (issue 24 §2): four phones (390×844, zh-CN) at one
table of a club that plays Bridgemate's rule (``three``). The scorer, seated at S0, saves a
hand; the others' phones show its payments in words; two confirm, the third — following the
table by its players' link, no login — disputes it in his own words. The totals leave the hand
out all along; the organiser sees the dispute with the engine's words and the history, and
rules that it stands: the hand counts. The scorer's phone hears of the dispute and of the
ruling without a reload (the pages are served by the ASGI server, live).

The hand: 小李 (S1) 自摸 平胡 in 普通 mode, qq: 1 fan, worth 1 from each of the three others:
S1 +3, S0, S2, S3 −1 each.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, ConfirmationRule, Hand, Role
from clubs.services.sessions import session_create, session_guest_link
from tests.browser.steps import open_phone, signed_value
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["老张", "小李", "王姐", "阿明"]  # seats 0–3
PASSWORD = "mahjong-2026-chengdu"


def _login(page, username: str, then: str) -> None:
    page.goto(f"{page.base_url}/login/?next={then}")
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码").fill(PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(f"**{then}**")


def totals(page, session) -> list[int]:
    return [
        signed_value(page.locator(f'[data-total="{s.player_id}"]'))
        for s in session.seats.order_by("number")
    ]


def test_four_phones_confirm_dispute_and_the_organiser_rules(browser, asgi_server, shots):
    club = ClubFactory(
        name="成都麻将社", visibility=Club.Visibility.MEMBERS,
        confirmation_rule=ConfirmationRule.THREE,
    )  # fmt: skip
    users = {}
    players = []
    for n, name in enumerate(NAMES):
        user = None
        if n < 3:  # 阿明 has no login: he follows by the players' link
            user = get_user_model().objects.create_user(f"seat{n}", password=PASSWORD)
            users[n] = user
        role = Role.SCORER if n == 0 else Role.MEMBER
        players.append(MembershipFactory(club=club, player=PlayerFactory(user=user, name=name),
                                         role=role).player)  # fmt: skip
    organiser = get_user_model().objects.create_user("boss", password=PASSWORD)
    MembershipFactory(club=club, player=PlayerFactory(user=organiser, name="老板"),
                      role=Role.ORGANISER)  # fmt: skip
    session = session_create(club=club, players=players, user=users[0], mode="single")
    key = session_guest_link(session=session)
    table = f"/sessions/{session.pk}/"

    phones = [open_phone(browser, asgi_server.url) for _ in range(5)]
    try:
        (_, scorer), (_, s1), (_, s2), (_, s3), (_, boss) = phones
        _login(scorer, "seat0", table)
        # the scorer records: dealer 老张, 小李 自摸 平胡
        scorer.locator('label.chip:has(input[name="dealer"][value="0"])').click()
        w1 = scorer.locator("#winner-1")
        w1.locator('label.chip:has(input[name="w1_seat"][value="1"])').click()
        w1.locator('label.chip:has(input[name="w1_from"][value="self"])').click()
        w1.locator("label.chip", has_text="平胡").first.click()
        scorer.get_by_role("button", name="保存本局").click()
        scorer.wait_for_url("**saved=1**")
        assert totals(scorer, session) == [0, 0, 0, 0]
        assert "总分暂不计入 1 局" in scorer.locator(".held-note").inner_text()
        assert scorer.locator("#confirm-1 .confirm-form").count() == 0  # his entry is his word
        shots(scorer, "scorer saved hand 1 it waits for three confirmations")

        _login(s1, "seat1", table)
        box = s1.locator("#confirm-1")
        assert "小李" in s1.locator(".confirm-hand .payments").inner_text()  # in words
        shots(s1, "xiaoli sees the hand in words")
        box.get_by_role("button", name="确认第 1 局").click()
        s1.wait_for_url(f"**{table}**")
        assert "还差 2 人确认" in s1.locator("#confirm-1").inner_text()
        shots(s1, "xiaoli confirmed")

        _login(s2, "seat2", table)
        s2.locator("#confirm-1").get_by_role("button", name="确认第 1 局").click()
        s2.wait_for_url(f"**{table}**")
        assert totals(s2, session) == [0, 0, 0, 0]  # still one confirmation short

        s3.goto(f"{s3.base_url}/g/{key}/")  # 阿明: the players' link, no login
        box = s3.locator("#confirm-1")
        box.locator("details.dispute > summary").click()
        box.locator(".dispute-form select[name=seat]").select_option("3")
        box.locator(".dispute-form input[name=words]").fill("我没有付钱，是王姐点炮")
        shots(s3, "ameng disputes by the players link")
        box.get_by_role("button", name="对这一局提出异议").click()
        s3.wait_for_url(f"**{table}**")
        assert "有异议" in s3.locator("#confirm-1").inner_text()
        shots(s3, "ameng disputed")

        # the scorer's phone, not reloaded, shows the dispute (the table's live channel)
        scorer.wait_for_function(
            "() => document.querySelector('.liushui').textContent.includes('有异议')"
        )
        assert totals(scorer, session) == [0, 0, 0, 0]
        shots(scorer, "the scorer sees the dispute totals unchanged")

        _login(boss, "boss", f"/clubs/{club.slug}/confirmations/")
        held = boss.locator("article.confirm-hand").first
        assert "我没有付钱" in held.inner_text() and "小李" in held.inner_text()
        held.locator("input[name=reason]").fill("看过牌了，自摸无误")
        shots(boss, "the organiser sees the dispute with its words and history")
        held.get_by_role("button", name="维持原记录：计入成绩").click()
        boss.wait_for_url(f"**/clubs/{club.slug}/confirmations/**")
        assert "没有有异议或待确认的牌局" in boss.locator("main").inner_text()
        shots(boss, "resolved")

        # the ruling reaches the scorer's phone without a reload: the hand counts
        scorer.wait_for_function(
            "() => document.querySelector('#seat-board [data-total]').dataset.value === '-1'"
        )
        assert totals(scorer, session) == [-1, 3, -1, -1]
        body = client_for(users[0]).get(f"/api/v1/sessions/{session.pk}/").json()
        api = {p["id"]: p["total"] for p in body["totals"]["players"]}
        assert [api[p.pk] for p in players] == [-1, 3, -1, -1]
        assert Hand.objects.get().counts
        shots(scorer, "the hand counts")
    finally:
        for context, _ in phones:
            context.close()
