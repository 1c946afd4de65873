"""The home page opens in a phone-sized browser, in Chinese, and signs a new organiser up."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_signs_up_from_the_home_page(phone, shots):
    page = phone
    page.goto(page.base_url + "/")
    assert page.locator("h1").first.inner_text() == "四川麻将俱乐部"
    shots(page, "home")
    page.get_by_role("link", name="注册").first.click()
    page.get_by_label("用户名").fill("laozhang")
    page.get_by_label("密码", exact=True).fill("mahjong-2026-chengdu")
    page.get_by_label("密码确认").fill("mahjong-2026-chengdu")
    shots(page, "sign up")
    page.get_by_role("button", name="创建账号").click()
    assert "laozhang" in page.locator(".site-header").inner_text()
    shots(page, "signed up")
