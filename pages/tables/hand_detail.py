"""The hand page's tiles and explanations, in the page's words: formatting only.

``clubs.selectors.hand_tiles`` says what to draw (each winner's concealed tiles, melds and
winning tile, or his declaration; each hand still in at the draw); this module turns it into
what the template shows, in the page's language: a meld's faces (a concealed kong shows its two
outer tiles face down), its label (碰 五条 / Pung of 5 Bamboo), a declaration in words
("报牌：清一色，1根"), every explanation line of a win (the engine's ``lines``, their names
the ones the ruleset pinned). Nothing here computes a rule: every number is the settlement's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from clubs.selectors import DeclaredHand, DrawHandTiles, HandTiles, MeldTiles, WinnerTiles
from core.names import Name
from pages.tilefaces import tile_label
from pages.words import chinese, explanation, name_text, roots_text, unit_amount

if TYPE_CHECKING:
    from scoring.services import Line

#: what a meld is (a domain word of the table, the same in every ruleset)
MELD_NAMES = {
    ("pung", False): Name("碰", "Pung"),
    ("kong", False): Name("明杠", "Exposed kong"),
    ("kong", True): Name("暗杠", "Concealed kong"),
}


def _joined(parts) -> str:
    return ("，" if chinese() else ", ").join(p for p in parts if p)


def meld_view(meld: MeldTiles) -> dict[str, Any]:
    """A meld's faces and label: a concealed kong (暗杠) shows its outer two tiles face down."""
    name = MELD_NAMES[(meld.kind, meld.concealed)]
    kind = name.zh if chinese() else name.en
    faces = list(meld.tiles)
    if meld.kind == "kong" and meld.concealed:
        faces[0] = faces[-1] = "back"
    css = f"{meld.kind} concealed" if meld.concealed else meld.kind
    return {
        "faces": faces,
        "kind": kind,
        "label": f"{kind} {tile_label(meld.tile)}",
        "css": css,
    }


def declared_words(declared: DeclaredHand) -> str:
    """清一色，1根 / 清一色 (Pure one suit), 1 root."""
    roots = roots_text(declared.roots) if declared.roots else ""
    return _joined([name_text(declared.name), roots, *(name_text(e) for e in declared.extras)])


def line_words(line: Line, unit: str) -> str:
    """One explanation line: 清一色 3番, 根 1番, 封顶 8番, 自摸加底 +1."""
    if line.op == "bonus":  # the bonus a preset adds after the cap
        return f"{name_text(line)} +{line.amount}"
    return f"{name_text(line)} {unit_amount(line.amount, unit)}"


def winner_view(w: WinnerTiles, names: Mapping[int, str]) -> dict[str, Any]:
    v = w.win.valuation
    if w.from_ is None:
        how = _("Self-drawn")
    else:
        how = _("on the discard of %(name)s") % {"name": names.get(w.from_, f"S{w.from_}")}
    return {
        "w": w,
        "name": names.get(w.seat, f"S{w.seat}"),
        "how": how,
        "melds": [meld_view(m) for m in w.melds],
        "declared": declared_words(w.declared) if w.declared else "",
        "lines": [line_words(line, v.unit) for line in v.lines],
        "explanation": explanation(v) if v.lines else "",
        "label": _("Tiles of %(name)s") % {"name": names.get(w.seat, f"S{w.seat}")},
    }


def draw_view(d: DrawHandTiles, names: Mapping[int, str]) -> dict[str, Any]:
    """A hand still in at the draw: its tiles, or its declaration, and what it came to."""
    if d.declared == "ready":
        wait = declared_words(d.wait) if d.wait is not None else "—"
        state = _("Declared ready, waiting on %(wait)s") % {"wait": wait}
    elif d.declared == "huazhu":
        state = _("Declared a flower pig (花猪): three suits in the hand")
    elif d.declared == "not_ready":
        state = _("Declared not ready")
    elif d.declared:
        state = _("Declared: %(what)s") % {"what": d.declared}
    elif d.huazhu:
        state = _("A flower pig (花猪): three suits in the hand.")
    elif d.ready:
        state = _("Ready, waiting on")
    else:
        state = _("Not ready: no tile completes this hand.")
    chajiao = ""
    if d.chajiao_value is not None:
        chajiao = _("Check of the ready hands (查叫): worth %(value)s") % {"value": d.chajiao_value}
    return {
        "d": d,
        "name": names.get(d.seat, f"S{d.seat}"),
        "melds": [meld_view(m) for m in d.melds],
        "state": state,
        "chajiao": chajiao,
        "dead": any(w.dead for w in d.waits),
        "label": _("Tiles of %(name)s") % {"name": names.get(d.seat, f"S{d.seat}")},
    }


def hand_detail(tiles: HandTiles, names: Mapping[int, str]) -> dict[str, Any]:
    """The winners and the draw of a hand, as the template shows them."""
    return {
        "winners": [winner_view(w, names) for w in tiles.winners],
        "draw": [draw_view(d, names) for d in tiles.draw],
        "drawn": tiles.drawn,
    }
