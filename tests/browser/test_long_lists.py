"""Lists that grow with the club or the field, on a phone (390×844, in Chinese): the club
ranking of 240 players and the standings of 250, a page of 100 at a time; a marathon table's
流水 sheet of 60 hands, its newest 50. The scorer or player goes to the next page, then shows
everyone (every hand) on one page, and the page never scrolls sideways (issue 25: pages kept
small as the club grows, "show all" for whoever wants it)."""

from __future__ import annotations

import pytest

from clubs.models import Club
from ratings.services import club_recompute
from tests.browser.steps import open_phone
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.pages.tables.test_table_page_parts import _hands
from tests.pages.tournaments.test_standings_pages import field_of
from tests.ratings.generate import generated_club

pytestmark = pytest.mark.django_db(transaction=True)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def test_the_ranking_a_page_at_a_time_then_everyone(browser, live_server, shots):
    club = generated_club(players=240, sessions=260, slug="big").club
    club_recompute(club_id=club.pk)
    context, page = open_phone(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/clubs/{club.slug}/ranking/?period=all")
        rows = page.locator("table.ranking-table tbody tr")
        assert rows.count() == 100
        first_name = rows.first.locator("th.who").inner_text()
        shots(page, "ranking page 1")
        no_sideways_scroll(page)

        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**page=2**")
        assert rows.count() == 100
        assert rows.first.locator("th.who").inner_text() != first_name
        shots(page, "ranking page 2")

        page.locator("a.show-all").first.click()
        page.wait_for_url("**page=all**")
        everyone = rows.count()
        assert everyone > 200
        assert rows.first.locator("th.who").inner_text() == first_name
        no_sideways_scroll(page)
    finally:
        context.close()


def test_the_standings_a_page_at_a_time_then_everyone(browser, live_server, shots):
    t = field_of(250, slug="open250")
    context, page = open_phone(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/tournaments/{t.slug}/standings/")
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == 100
        leader = rows.first.inner_text()
        pager = page.locator("nav.standings-pager").first
        assert "第 1 页，共 3 页" in pager.inner_text()
        shots(page, "standings page 1")
        no_sideways_scroll(page)

        pager.locator("a[rel=next]").click()
        page.wait_for_url("**page=2**")
        assert rows.count() == 100
        assert rows.first.inner_text() != leader
        assert "第 101–200 名选手" in page.locator("nav.standings-pager").first.inner_text()

        # a page by its number: the last one holds the 50 left
        box = page.locator("nav.standings-pager input[name=page]").first
        box.fill("3")
        page.locator("nav.standings-pager button[type=submit]").first.click()
        page.wait_for_url("**page=3**")
        assert rows.count() == 50
        shots(page, "standings page 3")

        page.locator("nav.standings-pager").first.get_by_role("link", name="显示全部").click()
        page.wait_for_url("**page=all**")
        assert rows.count() == 250
        assert rows.first.inner_text() == leader
        no_sideways_scroll(page)
    finally:
        context.close()


def look_under_the_sheet(page, more, shots, name: str) -> None:
    """The phone's screen where the sheet says what it shows (and the whole page)."""
    more.scroll_into_view_if_needed()
    page.screenshot(path=str(shots.folder / f"00-{name}-on-a-phone.png"))
    shots(page, name)
    no_sideways_scroll(page)


def test_a_marathon_tables_sheet_its_newest_hands_then_every_one(browser, live_server, shots):
    table = TableSessionFactory(club=ClubFactory(visibility=Club.Visibility.PUBLIC))
    _hands(table, 60)
    context, page = open_phone(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}/sessions/{table.pk}/")
        rows = page.locator("table.liushui tbody tr.hand")
        assert rows.count() == 50
        assert rows.first.locator("a.hand-link").inner_text() == "60"
        more = page.locator("#sheet-more")
        assert "显示最近 50 局（共 60 局）" in more.inner_text()
        look_under_the_sheet(page, more, shots, "the-newest-50")

        more.get_by_role("link", name="显示全部 60 局").click()
        page.wait_for_url("**hands=all**")
        assert rows.count() == 60
        assert rows.last.locator("a.hand-link").inner_text() == "1"
        look_under_the_sheet(page, more, shots, "every-hand")

        more.get_by_role("link", name="只显示最近 50 局").click()
        page.wait_for_function("!location.search.includes('hands=all')")
        assert rows.count() == 50
    finally:
        context.close()
