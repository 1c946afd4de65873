"""A newcomer walks the public pages of the demo, on a phone (390×844) and on a desktop
(1280×800): the home page, the demo club's ranking, sorted, then in Chinese; the best-rated
player (his charts drawn by the server); one of his tables (its running totals) and a hand
drawn as tiles; the demo tournament's standings, its projector and its printable seating.
Nobody signs in: all of it is public.

The data is ``manage.py demo`` with a month of club evenings (``DEMO_DAYS=30``), so every page
has something to show. Screenshots of each step under ``tests/artifacts/``.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.browser.steps import PHONE
from tests.browser.test_profile import DESKTOP, no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)

CLUB = "成都茶馆麻将社"
TOURNAMENT = "chengdu-open-2026"


@pytest.fixture
def demo(monkeypatch, in_process_tasks, demo_clock):
    """The demo as ``make run`` builds it: without a broker, its follow-ups (ratings) run in
    this process (CI gives a broker, and no worker serves this test)."""
    monkeypatch.setenv("DEMO_DAYS", "30")
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def first_hand_with_tiles(page, hand_links: list[str]) -> bool:
    for href in hand_links:
        page.goto(href)
        if page.locator(".hand-tiles .mj-tile").count():
            return True
    return False


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_newcomer_looks_around(browser, live_server, shots, demo, size):
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale="en-GB", device_scale_factor=1)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        assert page.get_by_role("heading", name="Public clubs").is_visible()
        shots(page, f"{size} home")
        page.get_by_role("link", name=CLUB).first.click()
        page.get_by_role("link", name="Ranking (排行榜)").click()
        table = page.locator("table.ranking-table")
        rows = table.locator("tbody tr")
        assert rows.count() >= 8
        shots(page, f"{size} ranking")
        no_sideways_scroll(page)

        table.locator("thead").get_by_role("link", name="Total").click()
        assert "sort=total" in page.url
        assert table.locator("th[aria-sort=descending]").inner_text().startswith("Total")
        # the total is the 7th cell of a row (#, player, rating, Δ, sessions, hands, total)
        totals = [int(t) for t in table.locator("tbody tr > :nth-child(7)").all_inner_texts()]
        assert totals == sorted(totals, reverse=True)

        page.get_by_role("button", name="中文").click()
        assert page.locator("h1").inner_text().startswith("排行榜")
        shots(page, f"{size} ranking in Chinese, by total")

        table.locator("thead").get_by_role("link", name="等级分").click()
        top = table.locator("tbody tr").first.locator("th.who a")
        name = top.inner_text()
        top.click()
        assert name in page.locator("h1").inner_text()
        assert page.locator("svg[role=img]").count() >= 3
        shots(page, f"{size} player")
        no_sideways_scroll(page)

        tables = [a.get_attribute("href") for a in page.locator("a[href^='/sessions/']").all()]
        assert tables
        hand_links: list[str] = []
        for href in tables:
            page.goto(f"{live_server.url}{href}")
            hand_links = [a.get_attribute("href") for a in page.locator("a.hand-link").all()]
            if hand_links:
                break
        assert hand_links, "none of his tables was played hand by hand"
        assert page.locator(".running-chart svg[role=img]").count() == 1
        shots(page, f"{size} his table")
        assert first_hand_with_tiles(page, [f"{live_server.url}{h}" for h in hand_links])
        assert page.locator(".hand-tiles .mj-tile svg").count() >= 14
        assert page.locator(".mj-tile.winning").count() >= 1
        shots(page, f"{size} a hand in tiles")
        no_sideways_scroll(page)

        page.goto(f"{live_server.url}/")
        page.locator("#tournaments").locator("..").get_by_role("link", name="排名").first.click()
        assert page.url.endswith(f"/tournaments/{TOURNAMENT}/standings/")
        assert page.locator("table.standings tbody tr").count() == 16
        shots(page, f"{size} standings")

        page.goto(f"{live_server.url}/tournaments/{TOURNAMENT}/")
        page.get_by_role("link", name="投影：排名").click()
        assert page.locator("svg").count() >= 1  # the QR code to the public page
        shots(page, f"{size} projector")

        page.goto(f"{live_server.url}/tournaments/{TOURNAMENT}/")
        page.get_by_role("link", name="打印座位表").first.click()
        assert "/print/" in page.url
        page.emulate_media(media="print")
        shots(page, f"{size} printable seating")
    finally:
        context.close()
