"""Pieces of the share cards (``templates/pages/cards/card.svg``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from pages.tilefaces import VIEW_BOX, face

register = template.Library()


@register.simple_tag
def card_tile(code: str, x: int, y: int, width: int) -> SafeString:
    """A tile drawn into the card at (x, y), ``width`` wide (a decoration: no label)."""
    height = round(width * 44 / 34)
    frame = (
        '<rect x="-1.25" y="-1.25" width="32.5" height="42.5" rx="4" fill="#fffdf4" '
        'stroke="#7a1a14" stroke-width="1.5"/>'
    )
    return mark_safe(  # noqa: S308 - numbers and a drawing of a known code
        f'<svg x="{int(x)}" y="{int(y)}" width="{int(width)}" height="{height}" '
        f'viewBox="{VIEW_BOX}" aria-hidden="true">{frame}{face(code)}</svg>'
    )


@register.filter
def png_url(card_url: str) -> str:
    """A card's PNG address from its SVG one (``…/card.svg?year=2026`` → ``…/card.png?…``)."""
    path, _, query = card_url.partition("?")
    path = path[: -len(".svg")] + ".png" if path.endswith(".svg") else path
    return f"{path}?{query}" if query else path
