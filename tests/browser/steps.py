"""What the browser tests share: a phone, the scorer's taps, the page's chips and totals."""

from __future__ import annotations

PHONE = {"width": 390, "height": 844}


def open_phone(browser, base_url: str, locale: str = "zh-CN"):
    """A new browser context the size of a phone (a Chinese phone's language by default) and
    its page; ``page.base_url`` is the live server. Close the context when done."""
    context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.base_url = base_url  # type: ignore[attr-defined]
    return context, page


class Taps:
    """The scorer's taps: each click counts one; a native select counts two (open, choose)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator) -> None:
        locator.click()
        self.count += 1

    def select(self, locator, value: str) -> None:
        locator.select_option(value)
        self.count += 2


def chip(scope, name: str, value: str):
    """The tap-chip of the form field ``name`` with this value."""
    return scope.locator(f'label.chip:has(input[name="{name}"][value="{value}"])')


def chip_text(scope, text: str):
    """The first tap-chip showing this text."""
    return scope.locator("label.chip", has_text=text).first


def signed_value(locator) -> int:
    """A total as the page holds it (``data-value``), checked against the text it shows signed
    (+5, −3, 0)."""
    value = int(locator.get_attribute("data-value"))
    assert locator.inner_text() == (f"+{value}" if value > 0 else f"−{-value}" if value else "0")
    return value
