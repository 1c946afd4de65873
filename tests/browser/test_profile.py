"""The club ranking and a player's page in a browser, on a phone (390×844) and on a desktop
(1280×800): open the ranking from the club page, sort it by a column, switch the language,
open a player, see the charts drawn by the server (inline SVG), open one of his tables and its
running totals. Nothing may stick out sideways: the ranking's table scrolls inside its card,
the charts fit the screen.

The data is the evening of ``tests/ratings/stats_scenario`` (club Teahouse, players A–E):
totals D +31, A +24, E 0, C −15, B −40 (sorted by total, D first)."""

from __future__ import annotations

import pytest

from tests.browser.steps import PHONE
from tests.ratings.stats_scenario import evening

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def charts_fit(page) -> int:
    """Every chart's drawing fits the screen; their number."""
    boxes = page.locator("svg[role=img]").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    for left, right in boxes:
        assert left >= 0 and right <= page.viewport_size["width"] + 0.5
    return len(boxes)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ranking_then_a_player(browser, live_server, shots, size):
    ev = evening()
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale="zh-CN", device_scale_factor=1)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/teahouse/")
        page.get_by_role("link", name="排行榜").click()
        assert page.locator("h1").inner_text() == "排行榜 · Teahouse"
        table = page.locator("table.ranking-table")
        assert table.locator("tbody tr").count() == 5
        assert table.locator("abbr.prov").first.inner_text() == "暂"
        shots(page, f"{size} ranking")
        no_sideways_scroll(page)

        table.locator("thead").get_by_role("link", name="合计").click()
        assert "sort=total" in page.url
        names = table.locator("tbody th.who").all_inner_texts()
        assert names == ["D", "A", "E", "C", "B"]
        assert table.locator("th[aria-sort=descending]").inner_text().startswith("合计")
        shots(page, f"{size} sorted by total")

        page.get_by_role("button", name="English").click()
        assert page.locator("h1").inner_text() == "Ranking (排行榜) · Teahouse"
        assert "sort=total" in page.url  # the language changes, the sort stays
        assert table.locator("tbody th.who").all_inner_texts() == names
        assert table.locator("abbr.prov").first.inner_text() == "?"
        shots(page, f"{size} ranking in English")
        no_sideways_scroll(page)

        table.get_by_role("link", name="A", exact=True).click()
        assert page.locator("h1").inner_text() == "A’s record (战绩)"
        assert page.locator("svg[role=img]").count() == 4
        assert charts_fit(page) == 4
        titles = page.locator("svg[role=img] > title").all_text_contents()
        assert titles == ["Score over time", "Rating over time", "Wins by pattern",
                          "Wins by roots (根)"]  # fmt: skip
        shots(page, f"{size} player")
        no_sideways_scroll(page)

        page.get_by_role("link", name="By date").click()
        assert "x=dates" in page.url
        assert page.locator("#score-chart").get_by_text("Date (2025)").count() == 1
        shots(page, f"{size} player by date")

        page.locator("ul.sessions").get_by_role("link").last.click()  # his first: 3 hands
        assert page.url.endswith(f"/sessions/{ev.sessions[0].pk}/")
        chart = page.locator("svg#running-chart")
        chart.wait_for()  # the page is parsed (its address changed first)
        assert chart.count() == 1 and chart.get_attribute("role") == "img"
        chart.scroll_into_view_if_needed()
        shots(page, f"{size} table with running totals")
        no_sideways_scroll(page)
        assert charts_fit(page) == 1
    finally:
        context.close()
