"""QR codes drawn by the server (segno) as inline SVG: no script, no image request."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str) -> SafeString:
    """``text`` as a QR code, an ``<svg>`` element that scales with its box (``.qr svg``)."""
    svg = segno.make(text, error="m").svg_inline(scale=4, omitsize=True, svgclass="qr-code")
    return mark_safe(svg)  # segno's own markup; the text is only encoded in its path


def qr_svg_sized(text: str, size: int) -> SafeString:
    """``text`` as a QR code ``size`` pixels square, to draw into another SVG (a share card)."""
    svg = segno.make(text, error="m").svg_inline(scale=4, omitsize=True, svgclass=None)
    return mark_safe(svg.replace("<svg ", f'<svg width="{int(size)}" height="{int(size)}" ', 1))
