"""An organiser invites a scorer from his phone; the scorer joins on his own phone; the organiser
hands him a password-reset link and it works. In Chinese, at 390×844, as a club evening does it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Membership, Role
from clubs.services.clubs import club_create
from tests.browser.steps import open_phone

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page, username: str, password: str) -> None:
    """The sign-up page, in Chinese: a login, signed in."""
    page.goto(page.base_url + "/signup/")
    page.get_by_label("用户名").fill(username)
    page.get_by_label("密码", exact=True).fill(password)
    page.get_by_label("密码确认").fill(password)
    page.get_by_role("button", name="创建账号").click()


def test_an_organiser_invites_a_scorer_who_joins_and_resets_his_password(phone, browser, shots):
    organiser = phone
    sign_up(organiser, "laozhang", "mahjong-2026-chengdu")
    assert "laozhang" in organiser.locator(".site-header").inner_text()
    # the club (its page is another's work): created as the create-club page does
    club_create(
        name="成都茶馆", slug="teahouse", user=get_user_model().objects.get(username="laozhang")
    )

    organiser.goto(organiser.base_url + "/clubs/teahouse/members/")
    assert organiser.locator("h1").inner_text() == "会员"
    assert "你在本俱乐部是创建人。" in organiser.locator("main").inner_text()
    shots(organiser, "members page")
    organiser.locator("#invite").get_by_label("角色").select_option("scorer")
    organiser.get_by_role("button", name="生成邀请").click()
    card = organiser.locator(".link-card")
    assert card.count() == 1
    assert "邀请：记分员" in card.inner_text()
    assert card.locator("svg.qr-code").is_visible()  # the QR code, drawn by the server
    box = card.locator("svg.qr-code").bounding_box()
    assert box["width"] >= 150 and box["height"] >= 150
    link = card.locator(".link-url a").get_attribute("href")
    assert re.fullmatch(r"http://[^/]+/invite/[A-Za-z0-9_-]{43}/", link)
    shots(organiser, "invitation with QR code")

    # the scorer, on his own phone, opens the link
    context, scorer = open_phone(browser, organiser.base_url)
    try:
        scorer.goto(link)
        assert scorer.locator("h1").inner_text() == "加入成都茶馆"
        assert "邀请你担任记分员。" in scorer.locator("main").inner_text()
        shots(scorer, "scorer opens the invitation")
        scorer.get_by_label("用户名").fill("xiaoli")
        scorer.get_by_label("密码", exact=True).fill("tiles-and-tea-77")
        scorer.get_by_label("密码确认").fill("tiles-and-tea-77")
        scorer.get_by_role("button", name="创建账号并加入").click()
        assert "欢迎加入成都茶馆：你是那里的记分员。" in scorer.locator(".messages").inner_text()
        # he lands on the club's page, where a scorer opens tables
        assert scorer.locator("h1").inner_text() == "成都茶馆"
        assert scorer.get_by_role("link", name="开桌").is_visible()
        assert "xiaoli" in scorer.locator(".site-header").inner_text()
        shots(scorer, "scorer joined")
        xiaoli = Membership.objects.get(player__user__username="xiaoli")
        assert (xiaoli.club.slug, xiaoli.role) == ("teahouse", Role.SCORER)

        # the link is used up
        scorer.goto(link)
        assert scorer.locator("h1").inner_text() == "这个链接已失效"
        assert "这个链接已经用过了。" in scorer.locator("main").inner_text()
        shots(scorer, "used link")

        # he forgot his password: the organiser issues a reset link for him
        organiser.reload()
        row = organiser.locator(f"#member-{xiaoli.pk}")
        assert "有账号" in row.inner_text()
        row.locator("summary").click()
        shots(organiser, "member actions")
        row.get_by_role("button", name="重置密码链接").click()
        reset_card = organiser.locator(".link-card", has_text="xiaoli 的密码重置")
        reset_link = reset_card.locator(".link-url a").get_attribute("href")
        shots(organiser, "reset link")

        scorer.get_by_role("button", name="退出").click()
        scorer.goto(reset_link)
        assert scorer.locator("h1").inner_text() == "设置新密码"
        scorer.get_by_label("新密码", exact=True).fill("new-tiles-2026-li")
        scorer.get_by_label("新密码确认").fill("new-tiles-2026-li")
        shots(scorer, "new password")
        scorer.get_by_role("button", name="设置密码").click()
        assert "/login/" in scorer.url
        scorer.get_by_label("用户名").fill("xiaoli")
        scorer.get_by_label("密码").fill("new-tiles-2026-li")
        scorer.get_by_role("button", name="登录").click()
        assert "xiaoli" in scorer.locator(".site-header").inner_text()
        shots(scorer, "signed in with the new password")
    finally:
        context.close()


def test_a_player_makes_sees_and_revokes_his_api_token_and_a_new_password_ends_it(phone, shots):
    """From the password page to the token page: a token made is shown once, then only its
    end; a new password revokes it, and the page says so."""
    page = phone
    sign_up(page, "laowang", "mahjong-2026-chengdu")
    page.goto(page.base_url + "/password/")
    page.get_by_role("link", name="API 令牌").click()
    assert page.locator("h1").inner_text() == "API 令牌"
    assert "你没有 API 令牌。" in page.locator("main").inner_text()
    page.get_by_role("button", name="生成令牌").click()
    key = page.locator("code.token-key").inner_text()
    assert re.fullmatch(r"[0-9a-f]{40}", key)
    # the key wraps on a phone: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "a new token shown once")
    page.goto(page.base_url + "/account/token/")
    held = page.locator(".token-held").inner_text()
    assert key not in page.content() and key[-4:] in held
    shots(page, "the token held")
    page.goto(page.base_url + "/password/")
    page.get_by_label("旧密码").fill("mahjong-2026-chengdu")
    page.get_by_label("新密码", exact=True).fill("tiles-and-tea-2027")
    page.get_by_label("新密码确认").fill("tiles-and-tea-2027")
    page.get_by_role("button", name="修改密码").click()
    assert "你的 API 令牌已随旧密码一起撤销。" in page.locator(".messages").inner_text()
    shots(page, "password changed, token revoked")
    page.goto(page.base_url + "/account/token/")
    assert "你没有 API 令牌。" in page.locator("main").inner_text()


def test_a_name_pasted_with_an_invisible_character_is_refused_in_words(phone, shots):
    """A name copied from a chat app can bring an escape character along: the organiser is told
    which field and what to do, on a page that fits his phone, and nothing is stored."""
    from clubs.models import Player

    page = phone
    sign_up(page, "laozhang", "mahjong-2026-chengdu")
    club_create(
        name="成都茶馆", slug="teahouse", user=get_user_model().objects.get(username="laozhang")
    )
    page.goto(page.base_url + "/clubs/teahouse/players/")
    page.get_by_label("名字", exact=True).fill("老\x1b王")
    page.get_by_role("button", name="添加", exact=True).click()
    main = page.locator("main").inner_text()
    assert page.locator("h1").inner_text() == "表单里有不可见字符"
    assert "name" in main and "U+001B" in main and "重新输入" in main
    assert page.locator("code.typed").inner_text() == "老【U+001B】王"  # where it stands
    assert "laozhang" in page.locator(".site-header").inner_text()  # still signed in
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "the refusal")
    assert not Player.objects.filter(name__startswith="老").exists()
