"""Small builders for hand records in tests: kongs, wins, winners, melds, shown hands."""

from __future__ import annotations


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
