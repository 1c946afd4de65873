"""The tile faces (``pages.tilefaces``): the one drawing, the pages' and the tile picker's."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.utils import translation

from pages import tilefaces
from pages.tilefaces import CODES, back_svg, tile_label, tile_name_of, tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_there_are_27_codes_in_suit_order():
    assert len(CODES) == 27
    assert CODES[:3] == ("1m", "2m", "3m") and CODES[9] == "1p" and CODES[-1] == "9s"


@pytest.mark.parametrize("code", CODES)
def test_every_tile_is_an_svg_with_its_label(code):
    with translation.override("zh-hans"):
        zh = tile_svg(code)
    with translation.override("en"):
        en = tile_svg(code)
    rank, suit = int(code[0]), code[1]
    numeral = "一二三四五六七八九"[rank - 1]
    zh_label = numeral + {"m": "万", "p": "筒", "s": "条"}[suit]
    en_label = f"{rank} " + {"m": "Characters", "p": "Dots", "s": "Bamboo"}[suit]
    for svg, label in ((zh, zh_label), (en, en_label)):
        root = ElementTree.fromstring(svg)  # well-formed XML
        assert root.tag == f"{SVG}svg"
        assert root.get("role") == "img" and root.get("aria-label") == label
        assert root.find(f"{SVG}title").text == label
        assert root.get("viewBox") == "-2 -2 34 44"
        assert len(root) >= 3  # the title, the frame and the face


def test_the_faces_are_the_pickers_drawings():
    """Counted by hand from the faces' tables: a dot is three circles, a stick two rects and a
    line, 1筒 one dot and two circles more, 萬 two texts."""

    def count(code, tag):
        return len(ElementTree.fromstring(tile_svg(code)).findall(f".//{SVG}{tag}"))

    assert count("9p", "circle") == 27  # 9 dots × 3
    assert count("1p", "circle") == 3 + 2
    assert count("5s", "rect") == 1 + 5 * 2 and count("5s", "line") == 5  # frame + sticks
    assert count("1s", "ellipse") == 1  # the bird
    with translation.override("zh-hans"):
        texts = [t.text for t in ElementTree.fromstring(tile_svg("5m")).iter(f"{SVG}text")]
    assert texts == ["五", "萬"]


@pytest.mark.parametrize("code", ["0m", "5z", "10s", "5", "", "5S", "東", None, 5, "5s "])
def test_an_unknown_code_is_refused(code):
    with pytest.raises(ValueError):
        tile_svg(code)
    with pytest.raises(ValueError):
        tile_name_of(code)


def test_names_are_domain_names():
    assert tile_name_of("5s") == ("五条", "5 Bamboo")
    assert tile_name_of("1m") == ("一万", "1 Characters")
    with translation.override("en"):
        assert tile_label("9p") == "9 Dots"


def test_the_cache_is_bounded_and_gives_the_same_drawing():
    with translation.override("en"):
        first = tile_svg("3p")
        assert tile_svg("3p") is first
        for i in range(tilefaces.CACHE_SIZE * 2):
            back_svg(f"label {i}")
    assert len(tilefaces._cache) <= tilefaces.CACHE_SIZE


def test_the_back_escapes_its_label():
    svg = back_svg('<b>"x"</b>')
    assert "<b>" not in svg and ElementTree.fromstring(svg).get("aria-label") == '<b>"x"</b>'
    assert re.search(r'class="tile-face tile-back"', svg)


def test_the_pickers_sprite_holds_every_face_as_drawn_here():
    """The tile picker draws no face: it uses the sprite's symbols, each the face of
    ``tile_svg`` without its frame, in the picker's 30 × 40 box."""
    root = ElementTree.fromstring(tilefaces.sprite())
    symbols = root.findall(f"{SVG}symbol")
    assert [s.get("id") for s in symbols] == [f"tile-face-{code}" for code in CODES]
    for code, symbol in zip(CODES, symbols, strict=True):
        assert symbol.get("viewBox") == "0 0 30 40"
        framed = ElementTree.fromstring(tile_svg(code))
        drawn = [ElementTree.tostring(e) for e in framed if e.tag != f"{SVG}title"][1:]
        assert [ElementTree.tostring(e) for e in symbol] == drawn  # the frame is the first
    assert root.get("aria-hidden") == "true"
