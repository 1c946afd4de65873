"""Small builders for tests: hand-record events, winners, melds, shown and winning hands."""

from __future__ import annotations

from scoring.engine import format_tiles, parse_tiles, parse_winning_hand


def kong(seat, kind, tile, frm=None, **extra):
    ev = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
    if frm is not None:
        ev["from"] = frm
    ev.update(extra)
    return ev


def winner(seat, concealed, melds=()):
    return {"seat": seat, "concealed": concealed, "melds": list(melds)}


def win(tile, *winners, frm=None, situation=()):
    return {
        "type": "win",
        "from": frm,
        "tile": tile,
        "situation": list(situation),
        "winners": list(winners),
    }


def meld(kind, tile, concealed=False):
    return {"kind": kind, "tile": tile, "concealed": concealed}


def hand(concealed, melds=()):
    return {"concealed": concealed, "melds": list(melds)}


def winning_hand(tiles, winning, melds=(), self_draw=False, situation=(), void=None):
    """A parsed winning hand from the concealed tiles *including* the winning tile."""
    rest = list(parse_tiles(tiles))
    rest.remove(parse_tiles(winning)[0])
    return parse_winning_hand(
        {
            "concealed": format_tiles(rest),
            "melds": list(melds),
            "winning_tile": winning,
            "self_draw": self_draw,
            "situation": list(situation),
            "declared_void": void,
        }
    )


def pung(tile):
    return meld("pung", tile)
