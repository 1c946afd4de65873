"""The rules pages in a browser, on a phone (390×844) and on a desktop (1280×800): the list of
presets with the options side by side, then one preset (chengdu: its tables of patterns and
extras, its options), in English and then in Chinese by the switch at the foot of the page.

Nothing may stick out sideways: the comparison, a column per preset, scrolls inside its card
with the options' names kept in sight; no heading or table cell is squeezed into a column so
narrow that its words break a character a line. Screenshots of each step under
``tests/artifacts/``."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS, option_schema, resolve_ruleset
from tests.browser.steps import PHONE
from tests.browser.test_profile import DESKTOP, no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)

#: an element whose text is this much wider than its box when it is alone on a line
SQUEEZED = """els => els.filter(e => {
    const r = e.getBoundingClientRect();
    if (!r.width || !e.innerText.trim()) return false;
    const size = parseFloat(getComputedStyle(e).fontSize);
    // a box under two characters wide holding more than two characters breaks them a line each
    return r.width < 2 * size && e.innerText.trim().length > 2;
}).map(e => e.tagName + ': ' + e.innerText.trim().slice(0, 40))"""


def nothing_squeezed(page) -> None:
    squeezed = page.locator("h1, h2, h3, th, td, dt, dd").evaluate_all(SQUEEZED)
    assert squeezed == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_rules_pages_read_on_a_phone_and_a_desktop(browser, live_server, shots, size):
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale="en-GB", device_scale_factor=1)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        link = page.get_by_role("link", name="Read the rules")
        link.scroll_into_view_if_needed()
        shots(page, f"{size} home, its link to the rules")
        link.click()
        assert page.locator("h1").inner_text() == "Rules (规则)"
        assert page.locator(".preset-list > li").count() == len(PRESETS)
        table = page.locator("table.compare-table")
        assert table.locator("tbody tr").count() == len(option_schema())
        shots(page, f"{size} rules")
        no_sideways_scroll(page)
        nothing_squeezed(page)

        # the comparison scrolls inside its card; the options' names stay in sight
        region = page.locator(".scroll.shadowed")
        region.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        first = table.locator("tbody th").first
        box, card = first.bounding_box(), region.bounding_box()
        assert box["x"] >= card["x"] - 1, "the option's name scrolled out of sight"
        region.scroll_into_view_if_needed()
        shots(page, f"{size} rules, the comparison scrolled to its end")

        title = resolve_ruleset("chengdu").as_dict()["title"]
        page.locator(".preset-list").get_by_role("link", name=title["en"]).click()
        assert page.locator("h1").inner_text() == title["en"]
        patterns = page.locator("table.rules-table").first
        assert patterns.locator("tr[data-code=qingyise] td").first.inner_text() == "×4"
        assert page.locator("#option-cap strong").inner_text() == "×8"
        shots(page, f"{size} chengdu")
        no_sideways_scroll(page)
        nothing_squeezed(page)

        page.get_by_role("button", name="中文").click()
        assert page.locator("h1").inner_text() == title["zh"]
        assert patterns.locator("tr[data-code=qingyise] th").inner_text() == "清一色"
        shots(page, f"{size} chengdu in Chinese")
        no_sideways_scroll(page)
        nothing_squeezed(page)

        page.get_by_role("link", name="←").click()
        assert page.locator(".preset-list > li").count() == len(PRESETS)
        shots(page, f"{size} rules in Chinese")
        no_sideways_scroll(page)
        nothing_squeezed(page)
    finally:
        context.close()
