"""Tiles drawn as tiles: ``{% tile "5s" %}`` is the tile's face as inline SVG
(``pages.tilefaces``), labelled for a screen reader (五条 / 5 Bamboo), with its short text
(5条 / 5s) beside it for whatever cannot show the drawing (a copy, a text browser)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from pages.tilefaces import back_svg, tile_label, tile_svg
from pages.words import tile_text

register = template.Library()


@register.simple_tag
def tile(code: str, css: str = "") -> SafeString:
    """One tile; ``css`` adds classes (``winning``). ``back`` draws a tile's back."""
    if code == "back":
        return tile_back()
    return format_html(
        '<span class="mj-tile{}">{}<span class="tile-text" aria-hidden="true">{}</span></span>',
        f" {css}" if css else "",
        mark_safe(tile_svg(code)),  # noqa: S308 - drawn from the 27 known codes only
        tile_text(code),
    )


@register.simple_tag
def tile_back(label: str = "") -> SafeString:
    label = label or _("a tile face down")
    return format_html(
        '<span class="mj-tile back">{}<span class="tile-text" aria-hidden="true">▮</span></span>',
        mark_safe(back_svg(label)),  # noqa: S308 - the label is escaped in the drawing
    )


@register.filter
def tile_name(code: str) -> str:
    """五条 / 5 Bamboo."""
    return tile_label(code)
