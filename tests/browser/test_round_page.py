"""A round of a 450-player tournament on a phone (390×844, in Chinese): the player opens the
tournament, taps "where do I sit", types his name's initials, and follows the answer to his
table on the second page of the round, which stands out; the page never scrolls sideways
(issue 25: the round page, a page of tables at a time, found by name)."""

from __future__ import annotations

import pytest

from clubs.models import Player, Seat
from tests.browser.steps import open_phone
from tests.pages.tournaments.test_round_page import seated_field

pytestmark = pytest.mark.django_db(transaction=True)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] <= page.viewport_size["height"] - 40


def test_a_player_finds_his_table_by_name_and_goes_to_it(browser, live_server, shots):
    t = seated_field(450, slug="open450")  # 112 tables and 2 byes: two pages
    round_ = t.round_set.get(number=1)
    seat = Seat.objects.get(session=round_.tables.get(number=105).session, number=2)
    Player.objects.filter(pk=seat.player_id).update(name="张三丰")
    context, page = open_phone(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/tournaments/{t.slug}/")
        page.get_by_role("link", name="我坐哪儿？").click()
        page.wait_for_url(f"**/tournaments/{t.slug}/rounds/1/#where")
        box = page.locator("#q")
        assert in_view(page, box)
        assert page.locator("article.seat-block").count() == 100
        pager = page.locator("nav.standings-pager").first
        assert "第 1 页，共 2 页" in pager.inner_text()
        page.screenshot(path=str(shots.folder / "00-the-round-page-on-a-phone.png"))
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots.folder / "00-its-head-on-a-phone.png"))
        shots(page, "the round page")
        no_sideways_scroll(page)

        box.fill("zsf")
        page.get_by_role("button", name="搜索").click()
        page.wait_for_url("**q=zsf**")
        found = page.locator(".found-list li")
        assert found.count() == 1
        assert found.first.inner_text().split() == ["张三丰", "第", "105", "桌", "·", "西"]
        page.screenshot(path=str(shots.folder / "00-found-on-a-phone.png"))
        no_sideways_scroll(page)

        found.first.get_by_role("link").click()
        page.wait_for_url("**page=2#table-105")
        table = page.locator("#table-105")
        assert in_view(page, table)
        assert table.evaluate("el => el.matches(':target')")
        names = table.locator(".block-seats .name").all_inner_texts()
        assert names[2] == "张三丰" and len(names) == 4
        assert page.locator("article.seat-block").count() == 12 + 1  # 12 tables and the byes
        page.screenshot(path=str(shots.folder / "00-at-the-table-on-a-phone.png"))
        shots(page, "the second page at the table")
        no_sideways_scroll(page)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.screenshot(path=str(shots.folder / "00-the-byes-at-the-end-on-a-phone.png"))
    finally:
        context.close()
