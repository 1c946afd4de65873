"""Small builders for tests: hand-record events, winners, melds, shown and winning hands,
records, and the checks the pattern and settlement tests share."""

from __future__ import annotations

from scoring.engine import evaluate, format_tiles, parse_tiles, parse_winning_hand


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


def kong_meld(tile, concealed=False):
    return meld("kong", tile, concealed)


def ruleset_spec(preset, **options):
    return {"preset": preset, "options": options}


def check_win(hand, ruleset, pattern, roots, total, value, capped=False):
    """Assert a winning evaluation's pattern, roots, total, value and cap; returns its dict."""
    d = evaluate(hand, ruleset).as_dict()
    got = {k: d.get(k) for k in ("win", "pattern", "roots", "total", "value", "capped")}
    assert got == {
        "win": True,
        "pattern": pattern,
        "roots": roots,
        "total": total,
        "value": value,
        "capped": capped,
    }
    return d


def record(ruleset, events=(), **kw):
    """A hand record at base 1, seat 0 dealing unless ``kw`` says otherwise."""
    rec = {"ruleset": ruleset, "base": 1, "dealer": 0, "events": list(events)}
    rec.update(kw)
    return rec


def seat_payments(d):
    """The seat-to-seat payments as sorted (payer, payee, amount, reason, event) tuples."""
    return sorted(
        (p["payer"], p["payee"], p["amount"], p["reason"], p["event"])
        for p in d["payments"]
        if p["reason"] != "bettor"
    )


def by_reason(d, reason):
    return sorted(
        (p["payer"], p["payee"], p["amount"], p["event"])
        for p in d["payments"]
        if p["reason"] == reason
    )
