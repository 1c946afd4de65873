"""The tile picker on a phone (390×844, Chinese): tap a hand, the engine names it and values it.

The hand is 1112345678999m + 9m under qq (RULES §3.1): 清一色 3 fan, all four 9万 are one 根 +1 fan,
so 4 fan, value 2^(4−1) = 8 from each payer at base 1.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

HAND = ["1m"] * 3 + ["2m", "3m", "4m", "5m", "6m", "7m", "8m"] + ["9m"] * 4


def tap(page, tile: str, *, spent: bool = False) -> None:
    # a spent tile is aria-disabled (Playwright would wait for it to be enabled) but a tap on it
    # still answers, with the reason it is refused
    page.locator(f'.tp-palette [data-tile="{tile}"]').click(force=spent)


def test_a_scorer_taps_a_full_flush_and_sees_its_value(phone, shots):
    page = phone
    page.goto(page.base_url + "/tiles/")
    picker = page.locator("[data-tile-picker]")
    assert picker.locator(".tp-palette .tp-tile").count() == 27
    assert page.locator('.tp-palette [data-tile="5m"]').get_attribute("aria-label") == "5万"
    box = page.locator('.tp-palette [data-tile="5p"]').bounding_box()
    assert box["height"] >= 44 and box["width"] >= 36  # nine across a 390-px screen
    # each face is the server's drawing, used from the page's one sprite: drawn, not empty
    assert page.locator(".tile-sprite symbol").count() == 27
    for tile in ("1s", "9p", "5m"):
        drawn = page.evaluate(
            "t => document.querySelector(`.tp-palette [data-tile='${t}'] use`).getBBox().height",
            tile,
        )
        assert drawn > 10, tile
    shots(page, "empty")
    for tile in HAND[:13]:
        tap(page, tile)
    result = picker.locator(".tp-result")
    # 13 tiles: the engine lists the waits (1112345678999m waits on every 万)
    page.wait_for_function("() => document.querySelector('.tp-result').dataset.kind === 'waits'")
    assert result.inner_text().startswith("听")
    assert result.locator(".tp-waits li").count() == 9
    shots(page, "thirteen tiles waits")
    tap(page, HAND[13])
    page.wait_for_function("() => document.querySelector('.tp-result').dataset.kind === 'win'")
    text = result.inner_text()
    assert "清一色" in text
    assert "清一色 3番 + 1根 = 4番 → 8" in text
    assert picker.locator(".tp-value").first.inner_text() == "8"
    assert page.locator("#id_hand").input_value() == "1112345678999m"
    assert page.locator("#id_hand_win").input_value() == "9m"
    assert picker.locator(".tp-count").inner_text() == "14/14 张"
    shots(page, "full flush with a root")

    # a fifth 9万 is refused (the hand holds all four): take the 5万 out first, so the hand is
    # not simply full
    picker.locator('.tp-picked [data-tile="5m"]').click()
    assert picker.locator(".tp-count").inner_text() == "13/14 张"
    assert page.locator("#id_hand").input_value() == "111234678999m"
    assert page.locator('.tp-palette [data-tile="9m"]').get_attribute("aria-disabled") == "true"
    tap(page, "9m", spent=True)
    assert "9万" in picker.locator(".tp-note").inner_text()
    assert picker.locator(".tp-count").inner_text() == "13/14 张"
    assert page.locator("#id_hand").input_value() == "111234678999m"
    shots(page, "fifth copy refused")


def test_an_invalid_hand_shows_the_engine_message(phone, shots):
    page = phone
    page.goto(page.base_url + "/tiles/")
    field = page.locator("#id_hand")
    field.fill("123m45x")
    page.wait_for_function("() => document.querySelector('.tp-result').dataset.kind === 'error'")
    # the engine's own message (scoring/engine/tiles.py), not a page's guess
    assert "unexpected character 'x' at position 6" in page.locator(".tp-result").inner_text()
    # and what to do, in the page's language
    result = page.locator(".tp-result").inner_text()
    assert "牌的写法：数字加万/筒/条或 m/p/s，例如 123m。" in result
    shots(page, "notation refused")
    field.fill("")
    for tile in [
        "1m",
        "2m",
        "3m",
        "5p",
        "6p",
        "7p",
        "1s",
        "2s",
        "3s",
        "4s",
        "4s",
        "7m",
        "8m",
        "9m",
    ]:
        tap(page, tile)
    page.wait_for_function("() => document.querySelector('.tp-result').dataset.kind === 'not-win'")
    assert "缺一门" in page.locator(".tp-result").inner_text()
    shots(page, "three suits")


def test_two_pickers_on_one_page_work_apart(phone, shots, settings):
    page = phone
    page.goto(page.base_url + "/tiles/?hand=123m456m789m11p23p&win=4p")
    page.wait_for_function("() => document.querySelector('.tp-result').dataset.kind === 'win'")
    # a second picker, as the table page has one per winner
    page.evaluate(
        """() => {
        const first = document.querySelector('[data-tile-picker]');
        const copy = first.cloneNode(false);
        for (const child of first.children) {
          if (!child.classList.contains('tp-ui')) copy.appendChild(child.cloneNode(true));
        }
        const hand = copy.querySelector('.tp-input'), win = copy.querySelector('.tp-winning');
        hand.name = 'other'; hand.id = 'id_other'; hand.value = '';
        win.name = 'other_win'; win.id = 'id_other_win'; win.value = '';
        copy.querySelector('.tp-result').textContent = '';
        first.after(copy);
        window.TilePicker.initAll();
    }"""
    )
    second = page.locator("[data-tile-picker]").nth(1)
    second.locator('.tp-palette [data-tile="1s"]').click()
    assert page.locator("#id_other").input_value() == "1s"
    assert page.locator("#id_hand").input_value() == "123m456m789m11p23p"
    assert page.locator("[data-tile-picker]").first.locator(".tp-picked .tp-tile").count() == 14
    assert second.locator(".tp-picked .tp-tile").count() == 1
    shots(page, "two pickers")
