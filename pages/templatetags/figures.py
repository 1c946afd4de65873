"""Figures as the ranking and the player's page write them, and the server-drawn charts.

A figure without a denominator (None) is written "—". Numbers in the ranking's table use the
ASCII minus, so the table copied into a spreadsheet stays numbers (``data_signed``); the rest
of the pages write the true minus (``club_words.signed``).
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

NONE = "—"


@register.filter
def percent(rate: float | None) -> str:
    """0.6667 → 66.7%; None → —."""
    if rate is None:
        return NONE
    return f"{rate * 100:.1f}%"


@register.filter
def one_place(value: float | None) -> str:
    """3.5 → 3.5, 2 → 2.0, −0.5 → -0.5 (ASCII minus); None → —."""
    if value is None:
        return NONE
    return f"{value:.1f}"


@register.filter
def rating_int(value: float | None) -> str:
    """A rating as a whole number (1512.6 → 1513); None (not rated) → —."""
    if value is None:
        return NONE
    return str(round(value))


@register.filter
def data_signed(value: float | int | None) -> str:
    """+5, -3, 0 with the ASCII minus (rounded to a whole number): a spreadsheet reads it."""
    if value is None:
        return NONE
    n = round(value)
    return f"+{n}" if n > 0 else str(n)


@register.filter
def round_sign_class(value: float | None) -> str:
    """pos / neg of a value as it is shown rounded (a Δ of −0.3 shows 0: no colour)."""
    if value is None:
        return ""
    n = round(value)
    return "pos" if n > 0 else "neg" if n < 0 else ""


@register.filter
def svg(chart) -> SafeString:
    """A chart of ``pages.charts`` as its inline ``<svg>`` (its text is escaped there)."""
    return mark_safe(chart.svg())  # noqa: S308 - pages.charts escapes every text it writes
