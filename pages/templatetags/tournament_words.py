"""Words of the tournament pages: seat winds by name (东 / 东 (East)), a domain word, and the
short form a projector's narrow column takes (东 / 东 E)."""

from __future__ import annotations

from django import template

from core.names import Name
from pages.words import chinese, name_text
from tournaments.serializers import fraction_text

register = template.Library()

#: the seat winds in play order: seat 0 is East and deals first
WIND_NAMES = (Name("东", "East"), Name("南", "South"), Name("西", "West"), Name("北", "North"))


@register.filter
def wind_name(seat: int | None) -> str:
    """东 in Chinese, 东 (East) in English; nothing for a bye (no seat)."""
    return name_text(WIND_NAMES[seat]) if seat is not None and 0 <= seat < 4 else ""


@register.filter
def wind_short(seat: int | None) -> str:
    """东 in Chinese, 东 E in English (the wind's character and its initial)."""
    if seat is None or not 0 <= seat < 4:
        return ""
    name = WIND_NAMES[seat]
    return name.zh if chinese() else f"{name.zh} {name.en[0]}"


@register.filter
def points_text(value) -> str:
    """Placement points as people read them: 3, 2.5, 7/3."""
    return "" if value is None else fraction_text(value)
