"""Share cards as PNG: WeChat and most chat apps take no SVG image.

The card's SVG (``templates/pages/cards/card.svg``) is rendered by resvg (``resvg-py``, a
maintained renderer with no system library) with the CJK fonts the machine has
(``fonts-noto-cjk``, which ``.ci/run`` installs; ``CARD_FONT_DIRS``). A rendering is cached
under the SVG's own digest: the card's content is its version, so a cached PNG is never stale,
and a card asked for again (a chat group opening one link) is drawn once. Bounded: a card is
1080 × 1350 whatever its content, and an SVG larger than ``MAX_SVG_BYTES`` is refused.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.core.cache import cache

#: the largest card SVG rendered (a card is some fifty lines of text: a few KB)
MAX_SVG_BYTES = 256 * 1024
#: how long a rendered card stays cached (it never goes stale: its key is its content)
CACHE_SECONDS = 24 * 3600
#: where the card's fonts are looked for first (Debian's fonts-noto-cjk)
FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto")


class CardTooLarge(ValueError):
    """An SVG past ``MAX_SVG_BYTES``: not rendered."""


def font_dirs() -> list[str]:
    dirs = getattr(settings, "CARD_FONT_DIRS", FONT_DIRS)
    return [d for d in dirs if Path(d).is_dir()]


def png_of(svg: str) -> bytes:
    """The card's PNG, from the cache or rendered now."""
    data = svg.encode()
    if len(data) > MAX_SVG_BYTES:
        raise CardTooLarge(f"a card's SVG of {len(data)} bytes")
    key = "card-png:" + hashlib.sha256(data).hexdigest()
    png = cache.get(key)
    if png is None:
        import resvg_py  # (its fonts load on first use: a process that draws no card pays nothing)

        dirs = font_dirs()
        png = resvg_py.svg_to_bytes(
            svg_string=svg, font_dirs=dirs or None, skip_system_fonts=bool(dirs)
        )
        cache.set(key, png, CACHE_SECONDS)
    return png
