"""Tile faces, drawn here only: an inline SVG for a tile code like ``"5s"``.

The one drawing of the 27 faces (30 × 40). The pages, the share cards and the tile picker
all show it: the picker's script (``pages/static/pages/tilepicker.js``, ``drawTile``) draws no
face itself but uses the page's sprite (:func:`sprite`: a ``<symbol>`` per face, written
once per page with the picker's script), so a hand looks alike whoever drew it. Here the
face also gets its tile's frame (a rounded ivory rectangle) so that an SVG stands alone, on a
page or in an image.

    tile_svg("5s")            # '<svg class="tile-face" viewBox="…" role="img" aria-label="五条">…'
    tile_name_of("5s")        # Name("五条", "5 Bamboo")
    back_svg()                # the back of a tile (a concealed kong's outer tiles)
    sprite()                  # every face as a <symbol id="tile-face-5s">: the picker's

A tile's label is a domain name, ``Name(zh, en)`` (五条 / 5 Bamboo); the page's language picks
one. Only the 27 codes ``1m``…``9s`` are faces; anything else raises ``ValueError``. Each face
is drawn once and kept (a bounded dict: 27 faces, the back, per language at most).
"""

from __future__ import annotations

import functools

from django.utils.html import escape

from core.names import Name
from pages.words import chinese

BLUE, RED, GREEN, FACE = "#1d3f8f", "#c62828", "#1b7a3a", "#fffdf4"
EDGE, BACK = "#b9b29c", "#2f7d52"
NUMERALS = "一二三四五六七八九"
SUIT_NAMES = {"m": ("万", "Characters"), "p": ("筒", "Dots"), "s": ("条", "Bamboo")}
CODES = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))
#: the drawing's box: the 30 × 40 face of the picker inside a 1.5-wide frame
VIEW_BOX = "-2 -2 34 44"

#: [x, y, r, colour] of each dot (筒)
DOTS = {
    2: [(15, 11, 6, GREEN), (15, 29, 6, BLUE)],
    3: [(8, 9, 4.8, BLUE), (15, 20, 4.8, RED), (22, 31, 4.8, GREEN)],
    4: [(9, 11, 5, BLUE), (21, 11, 5, GREEN), (9, 29, 5, GREEN), (21, 29, 5, BLUE)],
    5: [(8.5, 9, 4.3, BLUE), (21.5, 9, 4.3, GREEN), (15, 20, 4.3, RED), (8.5, 31, 4.3, GREEN),
        (21.5, 31, 4.3, BLUE)],
    6: [(10, 8.5, 4.2, GREEN), (20, 8.5, 4.2, GREEN), (10, 20.5, 4.2, RED), (20, 20.5, 4.2, RED),
        (10, 31.5, 4.2, RED), (20, 31.5, 4.2, RED)],
    7: [(7, 6.5, 3.6, GREEN), (15, 10, 3.6, GREEN), (23, 13.5, 3.6, GREEN), (10, 23.5, 3.8, RED),
        (20, 23.5, 3.8, RED), (10, 32.5, 3.8, RED), (20, 32.5, 3.8, RED)],
    8: [(10, 6.5, 3.7, BLUE), (20, 6.5, 3.7, BLUE), (10, 15.5, 3.7, BLUE), (20, 15.5, 3.7, BLUE),
        (10, 24.5, 3.7, BLUE), (20, 24.5, 3.7, BLUE), (10, 33.5, 3.7, BLUE),
        (20, 33.5, 3.7, BLUE)],
    9: [(7.5, 8.5, 3.7, BLUE), (15, 8.5, 3.7, BLUE), (22.5, 8.5, 3.7, BLUE), (7.5, 20, 3.7, RED),
        (15, 20, 3.7, RED), (22.5, 20, 3.7, RED), (7.5, 31.5, 3.7, GREEN),
        (15, 31.5, 3.7, GREEN), (22.5, 31.5, 3.7, GREEN)],
}  # fmt: skip
#: [x, y, height, colour] of each stick (条)
STICKS = {
    2: [(15, 11, 13, GREEN), (15, 29, 13, GREEN)],
    3: [(15, 11, 13, GREEN), (9, 29, 13, GREEN), (21, 29, 13, GREEN)],
    4: [(9.5, 11, 13, GREEN), (20.5, 11, 13, GREEN), (9.5, 29, 13, GREEN), (20.5, 29, 13, GREEN)],
    5: [(8, 10, 11, GREEN), (22, 10, 11, GREEN), (15, 20, 11, RED), (8, 30, 11, GREEN),
        (22, 30, 11, GREEN)],
    6: [(8, 11, 13, GREEN), (15, 11, 13, GREEN), (22, 11, 13, GREEN), (8, 29, 13, GREEN),
        (15, 29, 13, GREEN), (22, 29, 13, GREEN)],
    7: [(15, 7.5, 9, RED), (8, 20, 9, GREEN), (15, 20, 9, GREEN), (22, 20, 9, GREEN),
        (8, 32, 9, GREEN), (15, 32, 9, GREEN), (22, 32, 9, GREEN)],
    8: [(6, 11, 13, GREEN), (12, 11, 13, GREEN), (18, 11, 13, GREEN), (24, 11, 13, GREEN),
        (6, 29, 13, GREEN), (12, 29, 13, GREEN), (18, 29, 13, GREEN), (24, 29, 13, GREEN)],
    9: [(8, 8, 9, GREEN), (15, 8, 9, RED), (22, 8, 9, GREEN), (8, 20, 9, GREEN),
        (15, 20, 9, RED), (22, 20, 9, GREEN), (8, 32, 9, GREEN), (15, 32, 9, RED),
        (22, 32, 9, GREEN)],
}  # fmt: skip

#: how many drawings the cache keeps (27 faces and the back, in two languages, fit)
CACHE_SIZE = 64
_cache: dict[tuple[str, str], str] = {}


def _n(x: float) -> str:
    """A coordinate as the drawing writes it: 15, 4.8, 2.66."""
    return f"{round(x, 2):g}"


def _dot(x: float, y: float, r: float, colour: str) -> str:
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{colour}"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.62)}" fill="{FACE}"/>'
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.3)}" fill="{colour}"/>'
    )


def _stick(x: float, y: float, h: float, colour: str) -> str:
    return (
        f'<rect x="{_n(x - 1.9)}" y="{_n(y - h / 2)}" width="3.8" height="{_n(h)}" rx="1.7" '
        f'fill="{colour}"/>'
        f'<rect x="{_n(x - 2.3)}" y="{_n(y - 0.6)}" width="4.6" height="1.2" rx="0.6" '
        f'fill="{colour}"/>'
        f'<line x1="{_n(x)}" y1="{_n(y - h / 2 + 1.5)}" x2="{_n(x)}" y2="{_n(y + h / 2 - 1.5)}" '
        f'stroke="{FACE}" stroke-width="0.7" opacity="0.7"/>'
    )


def _bird() -> str:
    """幺鸡: the bird on 1条."""
    return (
        f'<path d="M9 31 L6 37 M12 32 L11 37.5 M15 32 L17 37.5" stroke="{RED}" '
        f'stroke-width="1.6" stroke-linecap="round" fill="none"/>'
        f'<ellipse cx="14" cy="23" rx="7" ry="9" fill="{GREEN}"/>'
        f'<path d="M10 20 Q14 26 19 21" stroke="{FACE}" stroke-width="1" fill="none"/>'
        f'<circle cx="18" cy="11" r="4.4" fill="{GREEN}"/>'
        f'<path d="M21.8 10 L26 11.5 L21.8 13 Z" fill="{RED}"/>'
        f'<path d="M16 7 Q17 3 19.5 5 Q19 6.5 18 7" fill="{RED}"/>'
        f'<circle cx="19" cy="10.5" r="1" fill="{FACE}"/>'
    )


def _characters(rank: int) -> str:
    font = "font-family=\"'Noto Serif CJK SC','Songti SC',SimSun,serif\" font-weight=\"700\""
    return (
        f'<text x="15" y="17" text-anchor="middle" font-size="15" {font} fill="{BLUE}">'
        f"{NUMERALS[rank - 1]}</text>"
        f'<text x="15" y="35" text-anchor="middle" font-size="15" {font} fill="{RED}">萬</text>'
    )


def face(code: str) -> str:
    """The drawing of a face (no frame, no ``<svg>``): what the picker shows on its tiles."""
    rank, suit = _split(code)
    if suit == "m":
        return _characters(rank)
    if suit == "p":
        if rank == 1:
            return (
                _dot(15, 20, 11, BLUE)
                + f'<circle cx="15" cy="20" r="4.2" fill="{RED}"/>'
                + f'<circle cx="15" cy="20" r="1.6" fill="{FACE}"/>'
            )
        return "".join(_dot(*d) for d in DOTS[rank])
    if rank == 1:
        return _bird()
    return "".join(_stick(*s) for s in STICKS[rank])


def _split(code: str) -> tuple[int, str]:
    if not isinstance(code, str) or code not in CODES:
        raise ValueError(f"not a tile code (1m … 9s): {code!r}")
    return int(code[0]), code[1]


def tile_name_of(code: str) -> Name:
    """A tile's name: 五条 / 5 Bamboo."""
    rank, suit = _split(code)
    zh, en = SUIT_NAMES[suit]
    return Name(f"{NUMERALS[rank - 1]}{zh}", f"{rank} {en}")


def tile_label(code: str) -> str:
    """A tile's name in the page's language: 五条, or 5 Bamboo."""
    name = tile_name_of(code)
    return name.zh if chinese() else name.en


_FRAME = (
    f'<rect x="-1.25" y="-1.25" width="32.5" height="42.5" rx="4" fill="{FACE}" '
    f'stroke="{EDGE}" stroke-width="1.5"/>'
)


def _svg(label: str, body: str, css: str) -> str:
    label = escape(label)
    return (
        f'<svg class="{css}" viewBox="{VIEW_BOX}" xmlns="http://www.w3.org/2000/svg" '
        f'role="img" aria-label="{label}" focusable="false"><title>{label}</title>{body}</svg>'
    )


def _cached(key: tuple[str, str], draw) -> str:
    svg = _cache.get(key)
    if svg is None:
        svg = draw()
        if len(_cache) >= CACHE_SIZE:  # bounded: never more than CACHE_SIZE drawings
            _cache.pop(next(iter(_cache)))
        _cache[key] = svg
    return svg


def tile_svg(code: str) -> str:
    """A tile as a standalone inline SVG, labelled in the page's language (``role="img"``,
    ``aria-label`` and ``<title>``). Raises ``ValueError`` for anything but ``1m`` … ``9s``."""
    label = tile_label(code)  # refuses an unknown code before the cache is asked
    return _cached((code, label), lambda: _svg(label, _FRAME + face(code), "tile-face"))


def back_svg(label: str) -> str:
    """The back of a tile (a concealed kong shows its outer two so), labelled ``label``."""
    body = (
        f'<rect x="-1.25" y="-1.25" width="32.5" height="42.5" rx="4" fill="{BACK}" '
        f'stroke="#1f5e3d" stroke-width="1.5"/>'
        f'<rect x="3" y="3" width="24" height="34" rx="3" fill="none" stroke="{FACE}" '
        f'stroke-width="0.8" opacity="0.45"/>'
    )
    return _cached(("back", label), lambda: _svg(label, body, "tile-face tile-back"))


#: the id of a face's symbol in :func:`sprite` (``tilepicker.js`` names it so)
SYMBOL_ID = "tile-face-{code}"


@functools.cache
def sprite() -> str:
    """Every face as a ``<symbol>`` (``id`` :data:`SYMBOL_ID`, ``viewBox`` 0 0 30 40) in a
    hidden ``<svg>``: written once on a page with tile pickers, whose tiles show their face by
    ``<use href="#tile-face-5s">``. Drawn once per process (the faces have no words)."""
    symbols = "".join(
        f'<symbol id="{SYMBOL_ID.format(code=code)}" viewBox="0 0 30 40">{face(code)}</symbol>'
        for code in CODES
    )
    # not display:none: a symbol inside it may then not be drawn where it is used
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" '
        f'focusable="false" class="tile-sprite">{symbols}</svg>'
    )
