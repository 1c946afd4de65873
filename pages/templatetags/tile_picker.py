"""The tile picker's page-wide part: its words (one JSON block), the tile faces it shows (the
server's drawing, ``pages.tilefaces.sprite``) and its script, written once per page however
many pickers the page has (the table page has one per winner)."""

from __future__ import annotations

import json
from functools import lru_cache

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from pages.base import ERROR_TEXT
from pages.tilefaces import sprite
from pages.words import name_text
from scoring.services import EXTRA_NAMES, PATTERN_NAMES

register = template.Library()

WORDS_ID = "tile-picker-words"
_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


def picker_words() -> dict[str, object]:
    """What tilepicker.js says, in the active language: ``t`` its sentences by key (``{n}``
    style placeholders it fills), ``names`` the engine's pattern and extra names, ``errors``
    the refusals' words by code."""
    t = {
        "m": _("{rank} characters"), "p": _("{rank} dots"), "s": _("{rank} bamboo"),
        "remove": _("Remove {tile}"), "count": _("{n} of {max} tiles"),
        "copies": _("All four copies of {tile} are in the hand."),
        "full": _("The hand is full ({max} tiles)."),
        "not-win": _("Not a win: {reason}"),
        "r-three_suits": _("three suits in the hand (缺一门: at most two)"),
        "r-declared_void_suit": _("the declared void suit is in the hand"),
        "r-not_a_winning_shape": _("not a winning shape"),
        "waits": _("Waiting on"), "not-ready": _("Not ready: no tile completes this hand."),
        "huazhu": _("花猪: three suits in the hand."),
        "chajiao": _("查叫 value {value}"),
        "fan": _("{n} fan"), "multiple": _("×{n}"), "points": _("{n} points"),
        "root": _("{n} root"), "roots": _("{n} roots"),
        "capped": _(", capped at {cap}"),
        "bonus": _("自摸加底 (self-draw bonus)"),
        "per-payer": _("each payer, at base 1"),
        "short": _("Tap {n} more tiles."),
        "offline": _(
            "No connection: the tiles cannot be checked now. Save the hand all the same — "
            "the server checks it when it is sent."
        ),
        "winning": _("Winning tile"),
        "pick": _("Tap a tile to add it"),
        "hand": _("Your hand (tap a tile to remove it)"),
        "choose": _("Mark the winning tile"),
        "choose-help": _("Tap the tile of the hand that won."),
        "clear": _("Clear"),
    }  # fmt: skip
    names = {code: name_text(n) for code, n in {**EXTRA_NAMES, **PATTERN_NAMES}.items()}
    # the engine's refusals by code, as the pages say them (shown before the engine's message)
    errors = {code: str(text) for code, text in ERROR_TEXT.items()}
    return {"t": t, "names": names, "errors": errors}


@lru_cache(maxsize=8)
def _words_block(language: str) -> str:
    text = json.dumps(picker_words(), ensure_ascii=False, separators=(",", ":"))
    return f'<script type="application/json" id="{WORDS_ID}">{text.translate(_ESCAPES)}</script>'


@register.simple_tag(takes_context=True)
def tile_picker_once(context) -> SafeString:
    """The picker's words, faces and script, the first time a page asks; nothing after that."""
    if getattr(context, "_tile_picker_written", False):
        return mark_safe("")
    context._tile_picker_written = True
    words = mark_safe(_words_block(get_language() or ""))  # noqa: S308 - JSON, <>& escaped
    faces = mark_safe(sprite())  # noqa: S308 - drawn by pages.tilefaces from constants
    script = static("pages/tilepicker.js")
    return format_html('{}{}<script src="{}" defer></script>', words, faces, script)
